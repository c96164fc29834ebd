package main

import (
	"fmt"
	"sort"
	"strings"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The worker exits at most this long after SIGTERM (worker/createWorker.ts SHUTDOWN_FORCE_TIME):
// a pod killed sooner would lose the hand-back of its running activities.
const workerShutdownForceSeconds = 10

// The temporal trigger's metadata keys in KEDA v2.21 (pkg/scalers/temporal_scaler.go). Trigger
// metadata is a string map in KEDA's types, so a misspelt key would decode and be ignored.
var temporalMetadataKeys = map[string]bool{
	"endpoint": true, "namespace": true, "activationTargetQueueSize": true, "targetQueueSize": true,
	"taskQueue": true, "queueTypes": true, "workerDeploymentName": true, "workerDeploymentBuildId": true,
	"includeRunningWorkflowCount": true, "workflowTaskQueueForCount": true, "minConnectTimeout": true,
	"enableTLS": true, "unsafeSsl": true, "tlsServerName": true,
}

// checkConsistency checks what strict decoding cannot: that the objects fit together.
func checkConsistency(objects []Decoded) []string {
	deployments := map[string]*appsv1.Deployment{}
	var problems []string
	for _, d := range objects {
		if dep, ok := d.Object.(*appsv1.Deployment); ok {
			deployments[dep.Name] = dep
			problems = append(problems, checkDeployment(dep)...)
		}
	}
	scaled := map[string]bool{}
	for _, d := range objects {
		switch o := d.Object.(type) {
		case *kedav1alpha1.ScaledObject:
			scaled[o.Spec.ScaleTargetRef.Name] = true
			problems = append(problems, checkScaledObject(o, deployments)...)
		case *policyv1.PodDisruptionBudget:
			problems = append(problems, checkPDB(o, deployments)...)
		}
	}
	for name, dep := range deployments {
		if scaled[name] && dep.Spec.Replicas != nil {
			problems = append(problems, fmt.Sprintf("Deployment %s: sets replicas although a ScaledObject owns them", name))
		}
	}
	sort.Strings(problems)
	return problems
}

func checkDeployment(dep *appsv1.Deployment) []string {
	var problems []string
	pod := dep.Spec.Template.Spec
	if pod.TerminationGracePeriodSeconds == nil || *pod.TerminationGracePeriodSeconds <= workerShutdownForceSeconds {
		problems = append(problems, fmt.Sprintf("Deployment %s: terminationGracePeriodSeconds must exceed the worker's %d s shutdown", dep.Name, workerShutdownForceSeconds))
	}
	selector, err := metav1.LabelSelectorAsSelector(dep.Spec.Selector)
	if err != nil || !selector.Matches(labels.Set(dep.Spec.Template.Labels)) {
		problems = append(problems, fmt.Sprintf("Deployment %s: selector does not match its pod template", dep.Name))
	}
	for _, c := range pod.Containers {
		if c.ReadinessProbe == nil || c.LivenessProbe == nil {
			problems = append(problems, fmt.Sprintf("Deployment %s container %s: needs readiness and liveness probes", dep.Name, c.Name))
		}
		for _, probe := range []*corev1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
			if probe != nil && !probePortExists(probe, c.Ports) {
				problems = append(problems, fmt.Sprintf("Deployment %s container %s: a probe names a port the container does not declare", dep.Name, c.Name))
			}
		}
	}
	return problems
}

func probePortExists(probe *corev1.Probe, ports []corev1.ContainerPort) bool {
	var port string
	switch {
	case probe.HTTPGet != nil:
		port = probe.HTTPGet.Port.String()
	case probe.TCPSocket != nil:
		port = probe.TCPSocket.Port.String()
	default:
		return true
	}
	for _, p := range ports {
		if p.Name == port || fmt.Sprint(p.ContainerPort) == port {
			return true
		}
	}
	return false
}

func checkScaledObject(o *kedav1alpha1.ScaledObject, deployments map[string]*appsv1.Deployment) []string {
	var problems []string
	ref := o.Spec.ScaleTargetRef
	if (ref.Kind != "" && ref.Kind != "Deployment") || deployments[ref.Name] == nil {
		problems = append(problems, fmt.Sprintf("ScaledObject %s: scales %s %q, which the chart does not render", o.Name, ref.Kind, ref.Name))
	}
	for _, t := range o.Spec.Triggers {
		if t.Type != "temporal" {
			continue
		}
		for key := range t.Metadata {
			if !temporalMetadataKeys[key] {
				problems = append(problems, fmt.Sprintf("ScaledObject %s: the temporal trigger has no setting %q", o.Name, key))
			}
		}
		for _, key := range []string{"endpoint", "taskQueue"} {
			if strings.TrimSpace(t.Metadata[key]) == "" {
				problems = append(problems, fmt.Sprintf("ScaledObject %s: the temporal trigger needs %s", o.Name, key))
			}
		}
	}
	return problems
}

func checkPDB(o *policyv1.PodDisruptionBudget, deployments map[string]*appsv1.Deployment) []string {
	selector, err := metav1.LabelSelectorAsSelector(o.Spec.Selector)
	if err != nil {
		return []string{fmt.Sprintf("PodDisruptionBudget %s: bad selector: %v", o.Name, err)}
	}
	for _, dep := range deployments {
		if selector.Matches(labels.Set(dep.Spec.Template.Labels)) {
			return nil
		}
	}
	return []string{fmt.Sprintf("PodDisruptionBudget %s: selects no pod the chart renders", o.Name)}
}
