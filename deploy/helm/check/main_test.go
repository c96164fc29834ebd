package main

import (
	"strings"
	"testing"
)

const chartDir = "../sluice"

var valueSets = map[string][]string{
	"defaults":   nil,
	"production": {chartDir + "/ci/production-values.yaml"},
}

func renderOrFail(t *testing.T, files []string) []Manifest {
	t.Helper()
	manifests, err := render(chartDir, files)
	if err != nil {
		t.Fatal(err)
	}
	return manifests
}

func TestChartDecodesStrictly(t *testing.T) {
	for name, files := range valueSets {
		t.Run(name, func(t *testing.T) {
			objects, err := decodeAll(renderOrFail(t, files))
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[string]int{}
			for _, o := range objects {
				kinds[o.GVK.Kind]++
			}
			for _, want := range []string{"Deployment", "PodDisruptionBudget", "ScaledObject", "ConfigMap", "Service"} {
				if kinds[want] == 0 {
					t.Errorf("no %s rendered (got %v)", want, kinds)
				}
			}
		})
	}
}

// mutate renders the production values and changes the first manifest of `kind` that contains `from`.
func mutate(t *testing.T, kind, from, to string) []Manifest {
	t.Helper()
	manifests := renderOrFail(t, valueSets["production"])
	for i, m := range manifests {
		if strings.Contains(m.YAML, "\nkind: "+kind+"\n") && strings.Contains(m.YAML, from) {
			manifests[i].YAML = strings.Replace(m.YAML, from, to, 1)
			return manifests
		}
	}
	t.Fatalf("no %s manifest contains %q", kind, from)
	return nil
}

func expectProblem(t *testing.T, manifests []Manifest, want string) {
	t.Helper()
	_, err := decodeAll(manifests)
	if err == nil {
		t.Fatalf("decoded without error; want one mentioning %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not mention %q", err, want)
	}
}

func TestWrongFieldsFail(t *testing.T) {
	cases := []struct{ name, kind, from, to, want string }{
		{"misspelt Deployment field", "Deployment", "terminationGracePeriodSeconds:", "terminationGracePeriodSecond:", `does not decode strictly: error unmarshaling JSON: while decoding JSON: json: unknown field "terminationGracePeriodSecond"`},
		{"field at the wrong level", "Deployment", "\n      containers:", "\n      readinessProbe: {}\n      containers:", `unknown field "readinessProbe"`},
		{"wrong value type", "Deployment", "containerPort: 9465", "containerPort: health", "containerPort"},
		{"misspelt KEDA field", "ScaledObject", "pollingInterval:", "pollingIntervall:", `does not decode strictly: error unmarshaling JSON: while decoding JSON: json: unknown field "pollingIntervall"`},
		{"misspelt PDB field", "PodDisruptionBudget", "maxUnavailable:", "maxUnavailabel:", `unknown field "maxUnavailabel"`},
		{"unknown kind", "Service", "kind: Service", "kind: Servise", "unknown kind"},
		{"misspelt temporal trigger setting", "ScaledObject", "targetQueueSize:", "targetQueueSise:", `no setting "targetQueueSise"`},
		{"grace shorter than the worker's shutdown", "Deployment", "terminationGracePeriodSeconds: 45", "terminationGracePeriodSeconds: 5", "terminationGracePeriodSeconds must exceed"},
		{"ScaledObject aimed at no Deployment", "ScaledObject", "kind: Deployment\n    name: sluice-embedding\n", "kind: Deployment\n    name: sluice-embeddings\n", "which the chart does not render"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectProblem(t, mutate(t, c.kind, c.from, c.to), c.want)
		})
	}
}
