package main

import (
	"fmt"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/releaseutil"
)

// The Kubernetes release whose API the decoding types (k8s.io/api v0.36) describe. Built without
// helm's release ldflags, helm would otherwise assume v1.20.
const kubeVersion = "v1.36.0"

// Manifest is one rendered object: the template it came from and its YAML.
type Manifest struct {
	Source string
	YAML   string
}

// render does what `helm template` does: a client-only, dry-run install that talks to no cluster,
// with the chart's values overlaid by the given files in order (a later file wins, as with -f).
func render(chartDir string, valueFiles []string) ([]Manifest, error) {
	chart, err := loader.Load(chartDir)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", chartDir, err)
	}
	values := map[string]interface{}{}
	for _, file := range valueFiles {
		next, err := chartutil.ReadValuesFile(file)
		if err != nil {
			return nil, fmt.Errorf("read values %s: %w", file, err)
		}
		values = chartutil.MergeTables(next.AsMap(), values)
	}
	install := action.NewInstall(&action.Configuration{})
	install.DryRun = true
	install.ClientOnly = true
	install.Replace = true
	install.ReleaseName = "sluice"
	install.Namespace = "sluice"
	// The chart's KEDA objects are rendered whether or not the (absent) cluster has the CRDs.
	install.APIVersions = chartutil.VersionSet{"keda.sh/v1alpha1"}
	version, err := chartutil.ParseKubeVersion(kubeVersion)
	if err != nil {
		return nil, err
	}
	install.KubeVersion = version
	release, err := install.Run(chart, values)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	var out []Manifest
	for _, hook := range release.Hooks {
		out = append(out, Manifest{Source: hook.Path, YAML: hook.Manifest})
	}
	for _, doc := range releaseutil.SplitManifests(release.Manifest) {
		source := "unknown"
		if first, _, ok := strings.Cut(doc, "\n"); ok && strings.HasPrefix(first, "# Source: ") {
			source = strings.TrimPrefix(first, "# Source: ")
		}
		out = append(out, Manifest{Source: source, YAML: doc})
	}
	return out, nil
}
