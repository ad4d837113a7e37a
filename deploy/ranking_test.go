package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// rankRequest is the README's Rank request.
const rankRequest = `{"context":{"userId":"u1"},"candidateCount":1000,"limit":3}`

// TestRankingPods runs the pod of each ranking manifest on loopback: serve
// with its args passes its startup, readiness and liveness probes, the
// gateway sidecar answers a REST call through to it, every bench Job whose
// target is the manifest's Service runs against it without an error, and
// on SIGTERM readiness fails and every container exits 0 within the grace
// period.
func TestRankingPods(t *testing.T) {
	objs := loadManifests(t)
	for _, file := range []string{"ranking.yaml", "ranking-exec-probes.yaml"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			local := inFile(objs, file)
			d := find[appsv1.Deployment](local, "ranking")
			if d == nil {
				t.Fatalf("%s: no Deployment \"ranking\"", file)
			}
			p := newPod(t, &d.Spec.Template)
			serve, sidecars := splitServe(t, &d.Spec.Template)
			p.start(serve)
			p.ready(serve)
			for _, c := range sidecars {
				p.start(c)
				p.ready(c)
			}
			checkGateways(t, p, sidecars)
			for _, job := range all[batchv1.Job](objs) {
				if addr, ok := p.jobTarget(t, objs, local, job); ok {
					runBenchJob(t, objs, job, addr)
				}
			}
			p.shutdown(serve, sidecars)
		})
	}
}

// splitServe returns the container that runs serve, and the others.
func splitServe(t *testing.T, spec *corev1.PodTemplateSpec) (*corev1.Container, []*corev1.Container) {
	var serve *corev1.Container
	var others []*corev1.Container
	for i := range spec.Spec.Containers {
		c := &spec.Spec.Containers[i]
		if argv, ok := rpckitArgv(c.Command, c.Args); ok && isRpckit(c) && len(argv) > 0 && argv[0] == "serve" {
			serve = c
		} else {
			others = append(others, c)
		}
	}
	if serve == nil {
		t.Fatal("no container runs rpckit serve")
	}
	return serve, others
}

// ready waits for c's startup, readiness and liveness probes to pass, in
// that order.
func (p *pod) ready(c *corev1.Container) {
	p.t.Helper()
	for _, kind := range []string{"startupProbe", "readinessProbe", "livenessProbe"} {
		pr := probes(c)[kind]
		if pr == nil {
			continue
		}
		if err := p.waitProbe(c, pr); err != nil {
			p.t.Fatalf("container %q: %s: %v", c.Name, kind, err)
		}
	}
}

// checkGateways sends the README's Rank request through every gateway
// container, to the serve container behind it.
func checkGateways(t *testing.T, p *pod, sidecars []*corev1.Container) {
	for _, c := range sidecars {
		argv, ok := rpckitArgv(c.Command, c.Args)
		if !ok || !isRpckit(c) || len(argv) == 0 || argv[0] != "gateway" {
			continue
		}
		url := "http://" + p.addr(c, intstr.FromString(c.Ports[0].Name)) + "/v1/rank"
		var last error
		deadline := time.Now().Add(startWithin)
		for time.Now().Before(deadline) {
			if last = postRank(url); last == nil {
				break
			}
			if err := p.exited(c); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if last != nil {
			t.Fatalf("container %q: POST %s: %v", c.Name, url, last)
		}
	}
}

func postRank(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewBufferString(rankRequest))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	var out struct{ Items []json.RawMessage }
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	if err := json.Unmarshal(body, &out); err != nil || len(out.Items) != 3 {
		return fmt.Errorf("want 3 items, got %s (%v)", body, err)
	}
	return nil
}

// shutdown stops the pod as the kubelet does once preStop hooks are done:
// SIGTERM to every container. serve's readiness must fail while it drains,
// and every container must exit 0 within the grace period.
func (p *pod) shutdown(serve *corev1.Container, sidecars []*corev1.Container) {
	t := p.t
	grace := gracePeriod(p.spec)
	start := time.Now()
	errs := make(chan error, len(sidecars)+1)
	for _, c := range append([]*corev1.Container{serve}, sidecars...) {
		go func() {
			if err := p.stop(c, grace); err != nil {
				errs <- fmt.Errorf("container %q: %v", c.Name, err)
				return
			}
			errs <- nil
		}()
	}
	if err := p.waitUnready(serve); err != nil {
		t.Error(err)
	}
	for range len(sidecars) + 1 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	t.Logf("pod stopped %v after SIGTERM (grace period %v)", time.Since(start).Round(time.Millisecond), grace)
}

// waitUnready waits for serve's readiness probe to fail.
func (p *pod) waitUnready(serve *corev1.Container) error {
	delay, _ := flagValue(serve.Args, "drain-delay")
	d, _ := time.ParseDuration(delay)
	deadline := time.Now().Add(d + startWithin)
	for time.Now().Before(deadline) {
		err := p.probe(context.Background(), serve, serve.ReadinessProbe)
		if xerr := p.exited(serve); xerr != nil {
			return fmt.Errorf("readinessProbe did not fail before serve exited (%v)", xerr)
		}
		if err != nil {
			return nil // failing while serve still runs: draining
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("container %q: readinessProbe still passing after SIGTERM", serve.Name)
}
