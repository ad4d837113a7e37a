package scaffold

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// adminCloseTimeout is how long the server may take, after draining, to
// close its admin listener (server's adminShutdownTimeout).
const adminCloseTimeout = 5 * time.Second

// manifest is deploy/NAME.yaml of a written module, decoded strictly: an
// unknown field or a duplicate key fails the test.
type manifest struct {
	deployment *appsv1.Deployment
	pdb        *policyv1.PodDisruptionBudget
	service    *corev1.Service
}

var docSep = regexp.MustCompile(`(?m)^---[ \t]*$`)

func loadManifest(t *testing.T, dir, name string) manifest {
	t.Helper()
	var m manifest
	for i, doc := range docSep.Split(readFile(t, dir, filepath.Join("deploy", name+".yaml")), -1) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
		var obj metav1.Object
		switch tm.APIVersion + "/" + tm.Kind {
		case "apps/v1/Deployment":
			m.deployment = new(appsv1.Deployment)
			obj = m.deployment
		case "policy/v1/PodDisruptionBudget":
			m.pdb = new(policyv1.PodDisruptionBudget)
			obj = m.pdb
		case "v1/Service":
			m.service = new(corev1.Service)
			obj = m.service
		default:
			t.Fatalf("document %d: apiVersion %q kind %q: not expected", i+1, tm.APIVersion, tm.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
		if obj.GetName() != name {
			t.Errorf("document %d: name %q, want %q", i+1, obj.GetName(), name)
		}
	}
	if m.deployment == nil || m.pdb == nil || m.service == nil {
		t.Fatalf("want a Deployment, a PodDisruptionBudget and a Service, got %+v", m)
	}
	return m
}

func loadDeployment(t *testing.T, dir, name string) *appsv1.Deployment {
	return loadManifest(t, dir, name).deployment
}

// TestManifest holds deploy/echo.yaml to the design of rpckit's own
// deploy/ranking.yaml: probes on grpc.health.v1 naming ports of the
// container, a Service and a budget selecting the pods, and a grace
// period longer than preStop, drain delay, drain and admin close together.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	m := loadManifest(t, dir, "echo")
	pod := &m.deployment.Spec.Template
	podLabels := labels.Set(pod.Labels)
	if sel, err := metav1.LabelSelectorAsSelector(m.deployment.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("the Deployment's selector does not select its pods (%v)", err)
	}
	if sel, err := metav1.LabelSelectorAsSelector(m.pdb.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("the PodDisruptionBudget does not select the pods (%v)", err)
	}
	if !labels.SelectorFromSet(m.service.Spec.Selector).Matches(podLabels) {
		t.Error("the Service does not select the pods")
	}
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Spec.Containers))
	}
	c := &pod.Spec.Containers[0]
	for _, p := range m.service.Spec.Ports {
		if _, ok := containerPort(c, p.TargetPort); !ok {
			t.Errorf("Service port %q: targetPort %s is not a port of the container", p.Name, p.TargetPort.String())
		}
	}
	checkProbes(t, c)
	checkShutdown(t, pod, c)
}

func checkProbes(t *testing.T, c *corev1.Container) {
	grpcPort, _ := containerPort(c, intstr.FromString("grpc"))
	if listen, _ := flagValue(c.Args, "listen"); listen != fmt.Sprintf(":%d", grpcPort.ContainerPort) {
		t.Errorf("--listen=%s, want the grpc port %d", listen, grpcPort.ContainerPort)
	}
	for kind, p := range map[string]*corev1.Probe{"startupProbe": c.StartupProbe, "readinessProbe": c.ReadinessProbe, "livenessProbe": c.LivenessProbe} {
		switch {
		case p == nil:
			t.Errorf("%s: missing", kind)
		case p.GRPC == nil || p.Exec != nil || p.HTTPGet != nil || p.TCPSocket != nil:
			t.Errorf("%s: want one grpc handler", kind)
		case p.GRPC.Port != grpcPort.ContainerPort:
			t.Errorf("%s: port %d, want the grpc port %d", kind, p.GRPC.Port, grpcPort.ContainerPort)
		}
	}
	if p := c.ReadinessProbe; p != nil && p.FailureThreshold != 1 {
		t.Errorf("readinessProbe: failureThreshold %d: NOT_SERVING must take the pod out at once", p.FailureThreshold)
	}
}

func checkShutdown(t *testing.T, pod *corev1.PodTemplateSpec, c *corev1.Container) {
	var preStop time.Duration
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		preStop = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	}
	if preStop == 0 {
		t.Error("no preStop sleep: endpoints may still send calls after SIGTERM")
	}
	delay, drain, deadline := durationFlag(t, c.Args, "drain-delay"), durationFlag(t, c.Args, "drain-timeout"), durationFlag(t, c.Args, "max-deadline")
	if delay == 0 {
		t.Error("--drain-delay is 0: readiness has no time to fail before the drain")
	}
	if deadline == 0 || deadline > drain {
		t.Errorf("--max-deadline=%v: calls must end within --drain-timeout=%v", deadline, drain)
	}
	grace := time.Duration(*pod.Spec.TerminationGracePeriodSeconds) * time.Second
	if need := preStop + delay + drain + adminCloseTimeout; grace <= need {
		t.Errorf("terminationGracePeriodSeconds %v, want more than %v", grace, need)
	}
}

func containerPort(c *corev1.Container, port intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, p := range c.Ports {
		if (p.Protocol == "" || p.Protocol == corev1.ProtocolTCP) &&
			((port.Type == intstr.String && p.Name == port.StrVal) || (port.Type == intstr.Int && p.ContainerPort == port.IntVal)) {
			return p, true
		}
	}
	return corev1.ContainerPort{}, false
}

func flagValue(args []string, name string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func durationFlag(t *testing.T, args []string, name string) time.Duration {
	t.Helper()
	v, ok := flagValue(args, name)
	if !ok {
		t.Errorf("no --%s", name)
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Errorf("--%s: %v", name, err)
	}
	return d
}
