package deploy_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// startWithin bounds how long a container may take to pass its probes.
const startWithin = 20 * time.Second

// pod runs the rpckit containers of a pod template as processes on
// loopback: every containerPort gets a free port of 127.0.0.1, and the
// addresses in args and exec probes are rewritten to it, as the pod's
// containers share one network namespace.
type pod struct {
	t     *testing.T
	spec  *corev1.PodTemplateSpec
	ports map[int32]int // containerPort -> loopback port
	procs map[string]*process
}

type process struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
	err  error // once done
}

func newPod(t *testing.T, spec *corev1.PodTemplateSpec) *pod {
	p := &pod{t: t, spec: spec, ports: map[int32]int{}, procs: map[string]*process{}}
	for _, c := range spec.Spec.Containers {
		for _, cp := range c.Ports {
			p.ports[cp.ContainerPort] = freePort(t)
		}
	}
	return p
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// addr is the loopback address of a port of c.
func (p *pod) addr(c *corev1.Container, port intstr.IntOrString) string {
	cp, ok := containerPort(c, port)
	if !ok {
		p.t.Fatalf("container %q has no port %s", c.Name, port.String())
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.ports[cp.ContainerPort]))
}

// localize rewrites an argument that is an address of one of the pod's
// ports (":50051", "0.0.0.0:50051", "127.0.0.1:50051", --flag=ADDR) to
// its loopback port.
func (p *pod) localize(arg string) string {
	prefix, value := "", arg
	if name, v, ok := strings.Cut(arg, "="); ok && len(name) > 1 && name[0] == '-' {
		prefix, value = name+"=", v
	}
	host, port, err := net.SplitHostPort(value)
	if err != nil {
		return arg
	}
	n, err := strconv.Atoi(port)
	local, ok := p.ports[int32(n)]
	if err != nil || !ok {
		return arg
	}
	switch host {
	case "", "0.0.0.0", "::", "127.0.0.1", "localhost":
		return prefix + net.JoinHostPort("127.0.0.1", strconv.Itoa(local))
	}
	return arg
}

// command makes the process of an rpckit command line from the image.
func (p *pod) command(command, args []string) *exec.Cmd {
	argv, ok := rpckitArgv(command, args)
	if !ok {
		p.t.Fatalf("%q: only rpckit runs in these tests", command)
	}
	local := make([]string, len(argv))
	for i, a := range argv {
		local[i] = p.localize(a)
	}
	return exec.Command(rpckitBin(p.t), local...)
}

// start runs container c.
func (p *pod) start(c *corev1.Container) {
	p.t.Helper()
	if !isRpckit(c) {
		p.t.Fatalf("container %q runs %s: only rpckit runs in these tests", c.Name, c.Image)
	}
	cmd := p.command(c.Command, c.Args)
	env, err := containerEnv(c)
	if err != nil {
		p.t.Fatalf("container %q: %v", c.Name, err)
	}
	cmd.Env = append(os.Environ(), env...)
	pr := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = pr.out, pr.out
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("container %q: %s", c.Name, cmd.Args)
	go func() { pr.err = cmd.Wait(); close(pr.done) }()
	p.procs[c.Name] = pr
	p.t.Cleanup(func() {
		select {
		case <-pr.done:
		default:
			cmd.Process.Kill()
			<-pr.done
		}
		if p.t.Failed() {
			p.t.Logf("container %q output:\n%s", c.Name, pr.out.String())
		}
	})
}

// containerEnv resolves c's environment the way the kubelet would, for the
// sources these manifests use.
func containerEnv(c *corev1.Container) ([]string, error) {
	var env []string
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env = append(env, e.Name+"="+e.Value)
		case e.ValueFrom.ResourceFieldRef != nil && e.ValueFrom.ResourceFieldRef.Resource == "limits.memory":
			q, ok := c.Resources.Limits[corev1.ResourceMemory]
			if !ok {
				return nil, fmt.Errorf("env %s: no memory limit", e.Name)
			}
			env = append(env, e.Name+"="+strconv.FormatInt(q.Value(), 10))
		default:
			return nil, fmt.Errorf("env %s: a source this test cannot resolve", e.Name)
		}
	}
	return env, nil
}

// stop sends SIGTERM to container c and waits for it to exit, for at most
// grace; it returns the process's error.
func (p *pod) stop(c *corev1.Container, grace time.Duration) error {
	pr := p.procs[c.Name]
	if err := pr.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-pr.done:
		return pr.err
	case <-time.After(grace):
		return fmt.Errorf("still running %v after SIGTERM (the grace period)", grace)
	}
}

// exited reports an error if container c has exited.
func (p *pod) exited(c *corev1.Container) error {
	pr := p.procs[c.Name]
	select {
	case <-pr.done:
		return fmt.Errorf("container %q exited: %v", c.Name, pr.err)
	default:
		return nil
	}
}

// probe runs one probe of c, as the kubelet does.
func (p *pod) probe(ctx context.Context, c *corev1.Container, pr *corev1.Probe) error {
	timeout := time.Duration(max(pr.TimeoutSeconds, 1)) * time.Second
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	h := pr.ProbeHandler
	switch {
	case h.GRPC != nil:
		service := ""
		if h.GRPC.Service != nil {
			service = *h.GRPC.Service
		}
		return grpcHealth(ctx, p.addr(c, intstr.FromInt32(h.GRPC.Port)), service)
	case h.HTTPGet != nil:
		return httpGet(ctx, "http://"+p.addr(c, h.HTTPGet.Port)+h.HTTPGet.Path)
	case h.TCPSocket != nil:
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", p.addr(c, h.TCPSocket.Port))
		if err == nil {
			conn.Close()
		}
		return err
	case h.Exec != nil:
		cmd := p.command(h.Exec.Command, nil)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", cmd.Args, err, bytes.TrimSpace(out))
		}
		return nil
	}
	return errors.New("probe without a handler")
}

// waitProbe runs a probe until it passes, while c runs, for at most
// startWithin.
func (p *pod) waitProbe(c *corev1.Container, pr *corev1.Probe) error {
	ctx, cancel := context.WithTimeout(context.Background(), startWithin)
	defer cancel()
	for {
		err := p.probe(ctx, c, pr)
		if err == nil {
			return nil
		}
		if xerr := p.exited(c); xerr != nil {
			return xerr
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not passing after %v: %v", startWithin, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func grpcHealth(ctx context.Context, addr, service string) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		return err
	}
	if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		return fmt.Errorf("health: %s", resp.GetStatus())
	}
	return nil
}

func httpGet(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 400 {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return nil
}

// syncBuffer is a bytes.Buffer safe for a process's stdout and stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
