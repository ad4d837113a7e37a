package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// The exit codes of grpc_health_probe, which Kubernetes exec probes and
// scripts already know.
const (
	healthOK         = 0
	healthBadArgs    = 1
	healthConnFailed = 2
	healthRPCFailed  = 3
	healthNotServing = 4
)

func newHealthCmd(stdio Stdio) *cobra.Command {
	var cf connFlags
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "health TARGET [SERVICE]",
		Short: "Check a server's health (grpc.health.v1), for Kubernetes probes",
		Long: `Ask a server's grpc.health.v1.Health service whether SERVICE (or the whole
server, when SERVICE is omitted) is serving.

Exit codes, as grpc_health_probe's:
  0  SERVING
  1  invalid arguments
  2  connection failure
  3  RPC failure (including a service the server does not know)
  4  not SERVING`,
		Example: "  rpckit health --plaintext 127.0.0.1:50051 rpckit.ranking.v1.RankingService",
		Args: func(cmd *cobra.Command, args []string) error {
			if err := argsBetween(1, 2)(cmd, args); err != nil {
				return &exitError{healthBadArgs, err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			service := ""
			if len(args) == 2 {
				service = args[1]
			}
			return runHealth(cmd.Context(), stdio, &cf, args[0], service, timeout)
		},
	}
	cf.register(cmd.Flags())
	durationVar(cmd.Flags(), &timeout, "timeout", 5*time.Second, "deadline of the health check RPC")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &exitError{healthBadArgs, err} })
	return cmd
}

func runHealth(ctx context.Context, stdio Stdio, cf *connFlags, target, service string, timeout time.Duration) error {
	md, err := cf.callMetadata()
	if err != nil {
		return &exitError{healthBadArgs, err}
	}
	conn, err := cf.dial(ctx, target)
	if err != nil {
		return &exitError{healthConnFailed, err}
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(ctx, md), timeout)
	defer cancel()
	resp, err := healthpb.NewHealthClient(conn.ClientConn()).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		return &exitError{healthRPCFailed, healthRPCError(service, err)}
	}
	fmt.Fprintln(stdio.Out, resp.GetStatus())
	if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		return &exitError{healthNotServing, nil}
	}
	return nil
}

func healthRPCError(service string, err error) error {
	st := status.Convert(err)
	what := "server"
	if service != "" {
		what = fmt.Sprintf("service %q", service)
	}
	switch st.Code() {
	case codes.NotFound:
		return fmt.Errorf("health: %s: the server does not know this service", what)
	case codes.Unimplemented:
		return errors.New("health: the server does not implement grpc.health.v1.Health")
	}
	return fmt.Errorf("health: %s: %s: %s", what, invoke.CodeName(st.Code()), st.Message())
}
