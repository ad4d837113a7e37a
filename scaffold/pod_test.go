package scaffold

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// TestManifestPod builds the written module offline and runs its binary
// with the Deployment's args, the ports moved to loopback, as the kubelet
// would: the gRPC startup and readiness probes pass, and on SIGTERM
// readiness fails while it drains and the process exits 0 within the
// grace period left after preStop.
func TestManifestPod(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	bin := buildOffline(t, dir)
	d := loadDeployment(t, dir, "echo")
	c := d.Spec.Template.Spec.Containers[0]
	grpcPort, admin := freePort(t), freePort(t)
	args := append(append([]string(nil), c.Args...), "--listen=127.0.0.1:"+grpcPort, "--admin=127.0.0.1:"+admin, "--no-access-log")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	addr := "127.0.0.1:" + grpcPort
	probe := c.StartupProbe
	if err := waitHealth(addr, healthpb.HealthCheckResponse_SERVING, time.Duration(probe.PeriodSeconds*probe.FailureThreshold)*time.Second); err != nil {
		t.Fatalf("startupProbe: %v\n%s", err, stderr.Bytes())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	delay := durationFlag(t, c.Args, "drain-delay")
	if err := waitHealth(addr, healthpb.HealthCheckResponse_NOT_SERVING, delay); err != nil {
		t.Errorf("readinessProbe after SIGTERM: %v", err)
	}
	grace := time.Duration(*d.Spec.Template.Spec.TerminationGracePeriodSeconds)*time.Second -
		time.Duration(c.Lifecycle.PreStop.Sleep.Seconds)*time.Second
	select {
	case err := <-done:
		done <- err
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, stderr.Bytes())
		}
	case <-time.After(grace):
		t.Fatalf("still running %v after SIGTERM\n%s", grace, stderr.Bytes())
	}
}

// buildOffline builds the module in dir with rpckit from this checkout
// and the other modules from the module cache only, and returns the
// binary.
func buildOffline(t *testing.T, dir string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin", "echo")
	for _, args := range [][]string{{"mod", "edit", "-replace", rpckitModule + "=" + root}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
	return bin
}

func freePort(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return strconv.Itoa(lis.Addr().(*net.TCPAddr).Port)
}

// waitHealth polls grpc.health.v1 at addr, as a gRPC probe does, until it
// answers want, for at most within.
func waitHealth(addr string, want healthpb.HealthCheckResponse_ServingStatus, within time.Duration) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	deadline := time.Now().Add(within)
	var last string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && resp.GetStatus() == want {
			return nil
		}
		last = fmt.Sprint(resp.GetStatus(), " ", err)
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("no %v within %v (last: %s)", want, within, last)
}
