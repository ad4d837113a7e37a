package deploy_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// adminCloseTimeout is how long serve may take, after draining, to close
// its admin listener (server's adminShutdownTimeout).
const adminCloseTimeout = 5 * time.Second

// TestManifestsDecode: every file holds documents, each of a known kind.
func TestManifestsDecode(t *testing.T) {
	objs := loadManifests(t)
	files := map[string]int{}
	for _, o := range objs {
		files[o.file]++
	}
	for file, n := range files {
		t.Logf("%s: %d objects", file, n)
	}
	for _, want := range []string{"bench-job.yaml", "ranking.yaml", "ranking-exec-probes.yaml"} {
		if files[want] == 0 {
			t.Errorf("%s: no Kubernetes objects", want)
		}
	}
}

// TestProbesNameContainerPorts: every probe has one handler, and the port
// it probes is a port of its own container.
func TestProbesNameContainerPorts(t *testing.T) {
	for where, pod := range podTemplates(loadManifests(t)) {
		for _, c := range pod.Spec.Containers {
			for kind, p := range probes(&c) {
				if err := checkProbe(p, &c); err != nil {
					t.Errorf("%s: container %q: %s: %v", where, c.Name, kind, err)
				}
			}
		}
	}
}

func probes(c *corev1.Container) map[string]*corev1.Probe {
	out := map[string]*corev1.Probe{}
	for kind, p := range map[string]*corev1.Probe{"startupProbe": c.StartupProbe,
		"readinessProbe": c.ReadinessProbe, "livenessProbe": c.LivenessProbe} {
		if p != nil {
			out[kind] = p
		}
	}
	return out
}

func checkProbe(p *corev1.Probe, c *corev1.Container) error {
	h := p.ProbeHandler
	n := 0
	for _, set := range []bool{h.Exec != nil, h.HTTPGet != nil, h.TCPSocket != nil, h.GRPC != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("%d handlers, want one", n)
	}
	switch {
	case h.GRPC != nil:
		return portOf(c, intstr.FromInt32(h.GRPC.Port))
	case h.HTTPGet != nil:
		return portOf(c, h.HTTPGet.Port)
	case h.TCPSocket != nil:
		return portOf(c, h.TCPSocket.Port)
	}
	if len(h.Exec.Command) == 0 {
		return fmt.Errorf("exec: no command")
	}
	return nil
}

// portOf checks that port names or numbers a TCP containerPort of c.
func portOf(c *corev1.Container, port intstr.IntOrString) error {
	if _, ok := containerPort(c, port); ok {
		return nil
	}
	return fmt.Errorf("port %s is not a TCP containerPort of %q", port.String(), c.Name)
}

func containerPort(c *corev1.Container, port intstr.IntOrString) (corev1.ContainerPort, bool) {
	for _, p := range c.Ports {
		if p.Protocol != "" && p.Protocol != corev1.ProtocolTCP {
			continue
		}
		if (port.Type == intstr.String && p.Name == port.StrVal) ||
			(port.Type == intstr.Int && p.ContainerPort == port.IntVal) {
			return p, true
		}
	}
	return corev1.ContainerPort{}, false
}

// TestServicesTargetContainerPorts: every Service selects the pods of a
// workload in its file, and each targetPort is a port of their containers.
func TestServicesTargetContainerPorts(t *testing.T) {
	objs := loadManifests(t)
	for _, o := range objs {
		svc, ok := o.obj.(*corev1.Service)
		if !ok {
			continue
		}
		pods := selectedPods(inFile(objs, o.file), svc.Spec.Selector)
		if len(pods) == 0 {
			t.Errorf("%s: selector %v matches no pod template in %s", o, svc.Spec.Selector, o.file)
		}
		for where, pod := range pods {
			for _, sp := range svc.Spec.Ports {
				target := servicePortTarget(sp)
				if _, _, ok := podPort(pod, target); !ok {
					t.Errorf("%s: port %q: targetPort %s is no container port of %s", o, sp.Name, target.String(), where)
				}
			}
		}
	}
}

// servicePortTarget is the container port a Service port sends to.
func servicePortTarget(sp corev1.ServicePort) intstr.IntOrString {
	if sp.TargetPort.Type == intstr.Int && sp.TargetPort.IntVal == 0 {
		return intstr.FromInt32(sp.Port)
	}
	return sp.TargetPort
}

// podPort finds the container of pod that has port.
func podPort(pod *corev1.PodTemplateSpec, port intstr.IntOrString) (*corev1.Container, corev1.ContainerPort, bool) {
	for i := range pod.Spec.Containers {
		if p, ok := containerPort(&pod.Spec.Containers[i], port); ok {
			return &pod.Spec.Containers[i], p, true
		}
	}
	return nil, corev1.ContainerPort{}, false
}

func selectedPods(objs []object, selector map[string]string) map[string]*corev1.PodTemplateSpec {
	out := map[string]*corev1.PodTemplateSpec{}
	if len(selector) == 0 {
		return out
	}
	sel := labels.SelectorFromSet(selector)
	for where, pod := range podTemplates(objs) {
		if sel.Matches(labels.Set(pod.Labels)) {
			out[where] = pod
		}
	}
	return out
}

// TestSelectorsMatch: a Deployment's selector matches its own pods, and a
// PodDisruptionBudget's the pods of a Deployment in its file.
func TestSelectorsMatch(t *testing.T) {
	objs := loadManifests(t)
	for _, o := range objs {
		var sel *labelSelector
		switch v := o.obj.(type) {
		case *appsv1.Deployment:
			sel = &labelSelector{v.Spec.Selector, map[string]*corev1.PodTemplateSpec{o.String(): &v.Spec.Template}}
		case *policyv1.PodDisruptionBudget:
			sel = &labelSelector{v.Spec.Selector, podTemplates(inFile(objs, o.file))}
		default:
			continue
		}
		if err := sel.matchesSome(); err != nil {
			t.Errorf("%s: %v", o, err)
		}
	}
}

type labelSelector struct {
	sel  *metav1.LabelSelector
	pods map[string]*corev1.PodTemplateSpec
}

func (s *labelSelector) matchesSome() error {
	if s.sel == nil || len(s.sel.MatchLabels)+len(s.sel.MatchExpressions) == 0 {
		return fmt.Errorf("no selector")
	}
	sel, err := metav1.LabelSelectorAsSelector(s.sel)
	if err != nil {
		return err
	}
	for _, pod := range s.pods {
		if sel.Matches(labels.Set(pod.Labels)) {
			return nil
		}
	}
	return fmt.Errorf("selector %s matches no pod template", sel)
}

// TestDrainFitsGracePeriod: a pod that runs serve is given the time its
// shutdown takes: preStop, then --drain-delay, --drain-timeout and the
// admin listener's close. A sidecar's preStop fits in it as well.
func TestDrainFitsGracePeriod(t *testing.T) {
	for where, pod := range podTemplates(loadManifests(t)) {
		grace := gracePeriod(pod)
		for _, c := range pod.Spec.Containers {
			need, err := shutdownTime(&c)
			if err != nil {
				t.Errorf("%s: container %q: %v", where, c.Name, err)
			} else if need >= grace {
				t.Errorf("%s: container %q needs %v to shut down, more than the grace period %v", where, c.Name, need, grace)
			}
		}
	}
}

// gracePeriod is the pod's terminationGracePeriodSeconds.
func gracePeriod(pod *corev1.PodTemplateSpec) time.Duration {
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil {
		return time.Duration(*g) * time.Second
	}
	return 30 * time.Second // Kubernetes' default
}

// shutdownTime is how long c may take from the pod's deletion to its exit.
func shutdownTime(c *corev1.Container) (time.Duration, error) {
	var need time.Duration
	if l := c.Lifecycle; l != nil && l.PreStop != nil {
		if l.PreStop.Sleep == nil {
			return 0, fmt.Errorf("preStop: only the sleep action is known to this test")
		}
		need += time.Duration(l.PreStop.Sleep.Seconds) * time.Second
	}
	if !isRpckit(c) || len(c.Args) == 0 || c.Args[0] != "serve" {
		return need + adminCloseTimeout, nil
	}
	if c.ReadinessProbe == nil {
		return 0, fmt.Errorf("serve has no readinessProbe: load balancers would not see it drain")
	}
	for _, flag := range []string{"drain-delay", "drain-timeout"} {
		v, ok := flagValue(c.Args, flag)
		if !ok {
			return 0, fmt.Errorf("serve without --%s: say how long shutdown takes", flag)
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("--%s=%s: %v", flag, v, err)
		}
		need += d
	}
	return need + adminCloseTimeout, nil
}

// isRpckit says whether c runs the rpckit image.
func isRpckit(c *corev1.Container) bool {
	name, _, _ := strings.Cut(c.Image, ":")
	return name == "rpckit" || strings.HasSuffix(name, "/rpckit")
}

// flagValue returns the value of --name in args, written --name=v or --name v.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// TestRankingVariantsAgree: ranking-exec-probes.yaml is ranking.yaml but
// for the probes, the preStop hooks and the drain settings.
func TestRankingVariantsAgree(t *testing.T) {
	objs := loadManifests(t)
	native, exec := inFile(objs, "ranking.yaml"), inFile(objs, "ranking-exec-probes.yaml")
	if len(native) != len(exec) {
		t.Fatalf("ranking.yaml has %d objects, ranking-exec-probes.yaml %d", len(native), len(exec))
	}
	for i := range native {
		a, b := native[i].obj, exec[i].obj
		if d, ok := a.(*appsv1.Deployment); ok {
			a, b = withoutShutdown(d), withoutShutdown(b.(*appsv1.Deployment))
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s differ beyond probes and shutdown", native[i], exec[i])
		}
	}
}

// withoutShutdown copies d without its probes, preStop hooks and
// shutdown flags.
func withoutShutdown(d *appsv1.Deployment) *appsv1.Deployment {
	d = d.DeepCopy()
	for i := range d.Spec.Template.Spec.Containers {
		c := &d.Spec.Template.Spec.Containers[i]
		c.StartupProbe, c.ReadinessProbe, c.LivenessProbe, c.Lifecycle = nil, nil, nil, nil
		var args []string
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "--drain-") {
				args = append(args, a)
			}
		}
		c.Args = args
	}
	return d
}
