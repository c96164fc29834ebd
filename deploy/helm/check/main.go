// Command check renders the sluice Helm chart as `helm template` does, with helm's own Go module
// and no cluster, then decodes every object strictly into its Kubernetes or KEDA Go type, so a
// misspelt or misplaced field fails CI instead of being dropped by the API server.
//
//	go run . [-f values.yaml]... <chart-dir>
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type fileList []string

func (f *fileList) String() string     { return strings.Join(*f, ",") }
func (f *fileList) Set(v string) error { *f = append(*f, v); return nil }

func main() {
	var valueFiles fileList
	flag.Var(&valueFiles, "f", "values file overlaid on the chart's values (repeatable; a later one wins)")
	print := flag.Bool("print", false, "print the rendered manifests (as `helm template` would) before checking them")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: check [-f values.yaml]... <chart-dir>")
		os.Exit(2)
	}
	manifests, err := render(flag.Arg(0), valueFiles)
	if err == nil && *print {
		for _, m := range manifests {
			fmt.Printf("---\n%s\n", m.YAML)
		}
	}
	var objects []Decoded
	if err == nil {
		objects, err = decodeAll(manifests)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helm check:", err)
		os.Exit(1)
	}
	counts := map[string]int{}
	for _, o := range objects {
		counts[o.GVK.Kind]++
	}
	var kinds []string
	for kind, n := range counts {
		kinds = append(kinds, fmt.Sprintf("%d %s", n, kind))
	}
	sort.Strings(kinds)
	fmt.Printf("helm check: %s with %v: %d objects decoded strictly (%s)\n", flag.Arg(0), []string(valueFiles), len(objects), strings.Join(kinds, ", "))
}

// decodeAll decodes every manifest and checks them together; every problem found is reported.
func decodeAll(manifests []Manifest) ([]Decoded, error) {
	scheme, err := newScheme()
	if err != nil {
		return nil, err
	}
	var objects []Decoded
	var problems []string
	for _, m := range manifests {
		d, err := decodeStrict(scheme, m)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		objects = append(objects, d)
	}
	if len(objects) == 0 && len(problems) == 0 {
		problems = append(problems, "the chart rendered no object")
	}
	problems = append(problems, checkConsistency(objects)...)
	if len(problems) > 0 {
		return nil, fmt.Errorf("%d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return objects, nil
}
