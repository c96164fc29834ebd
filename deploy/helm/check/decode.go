package main

import (
	"fmt"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// scheme knows the Go type of every kind the chart may render: Kubernetes' own API groups and
// KEDA's. A kind outside it fails the check, as a field outside its type does.
func newScheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme,
		appsv1.AddToScheme,
		batchv1.AddToScheme,
		policyv1.AddToScheme,
		networkingv1.AddToScheme,
		rbacv1.AddToScheme,
		kedav1alpha1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return scheme, nil
}

// Decoded is an object decoded into its Go type.
type Decoded struct {
	Source string
	GVK    schema.GroupVersionKind
	Object runtime.Object
}

// decodeStrict decodes one manifest into its Go type, refusing a field the type does not have, a
// field given twice and a value of the wrong type (sigs.k8s.io/yaml's strict mode: YAML to JSON,
// then encoding/json with DisallowUnknownFields).
func decodeStrict(scheme *runtime.Scheme, m Manifest) (Decoded, error) {
	var meta struct {
		metav1.TypeMeta `json:",inline"`
		Metadata        struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := yaml.Unmarshal([]byte(m.YAML), &meta); err != nil {
		return Decoded{}, fmt.Errorf("%s: not YAML: %w", m.Source, err)
	}
	if meta.APIVersion == "" || meta.Kind == "" {
		return Decoded{}, fmt.Errorf("%s: object without apiVersion or kind", m.Source)
	}
	gvk := meta.GroupVersionKind()
	obj, err := scheme.New(gvk)
	if err != nil {
		return Decoded{}, fmt.Errorf("%s: unknown kind %s: %w", m.Source, gvk, err)
	}
	if err := yaml.UnmarshalStrict([]byte(m.YAML), obj); err != nil {
		return Decoded{}, fmt.Errorf("%s: %s %s does not decode strictly: %w", m.Source, gvk.Kind, meta.Metadata.Name, err)
	}
	return Decoded{Source: m.Source, GVK: gvk, Object: obj}, nil
}
