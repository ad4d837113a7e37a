package cli

import (
	"fmt"

	"github.com/rpckit/rpckit/scaffold"
	"github.com/spf13/cobra"
)

func newNewCmd(stdio Stdio) *cobra.Command {
	var opts scaffold.Options
	cmd := &cobra.Command{
		Use:   "new DIR --proto FILE",
		Short: "Write a Go service module from .proto files",
		Long: `Write a Go module in DIR that serves the services of the .proto files on
rpckit's runtime (server.New: health, reflection, metrics, request ids,
access log, drain on SIGTERM, admin port):

  gen/       message and gRPC stubs, generated in-process (no protoc)
  handler/   one file per service, every method answering UNIMPLEMENTED
             until written, and a test of it over an in-process server
  main.go    the server, its flags and signal handling
  proto/     the .proto files the stubs come from
  deploy/    Kubernetes manifests: Deployment with gRPC probes, budget, Service;
             Grafana dashboards (grafana/), Prometheus SLO rules (prometheus/)
  Makefile, Dockerfile

The module requires github.com/rpckit/rpckit; when this rpckit is a
checkout rather than a release, point go.mod at it with
"go mod edit -replace github.com/rpckit/rpckit=PATH".

With --update, only the stubs (and the copies in proto/) are written again,
after the .proto files changed; handlers, tests and the rest stay as they
are. "make gen" in the module runs it.`,
		Example: `  rpckit new echo --proto echo/v1/echo.proto -I proto --module example.com/echo
  cd echo && go mod tidy && go test ./... && go run . --listen 127.0.0.1:50051
  rpckit new . --update -I proto --proto echo/v1/echo.proto`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("want the module's directory, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if len(opts.Protos) == 0 {
				return usagef("--proto: name the .proto file of the service")
			}
			res, err := scaffold.Generate(cmd.Context(), opts)
			if err != nil {
				return err
			}
			printResult(stdio, opts, res)
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&opts.Protos, "proto", nil, ".proto `file` whose services the module serves (repeatable)")
	fs.StringArrayVarP(&opts.ImportPaths, "import-path", "I", nil, "`dir` to search for .proto files and their imports (repeatable)")
	fs.StringVar(&opts.Module, "module", "", "Go module `path` (default: DIR's name, or with --update DIR/go.mod's)")
	fs.BoolVar(&opts.Update, "update", false, "write the stubs of an existing module again, nothing else")
	return cmd
}

func printResult(stdio Stdio, opts scaffold.Options, res *scaffold.Result) {
	for _, name := range res.Written {
		fmt.Fprintln(stdio.Out, "wrote", name)
	}
	for _, name := range res.Removed {
		fmt.Fprintln(stdio.Out, "removed", name, "(no .proto file generates it now)")
	}
	if opts.Update {
		fmt.Fprintf(stdio.Out, "%s: %d files written, %d unchanged, %d removed\n",
			res.Module, len(res.Written), len(res.Kept), len(res.Removed))
		return
	}
	fmt.Fprintf(stdio.Out, "module %s written in %s; next: cd %s && go mod tidy && go test ./...\n",
		res.Module, opts.Dir, opts.Dir)
	if res.Replace {
		fmt.Fprintln(stdio.Out, "this rpckit is no release: first point go.mod at its checkout with "+
			"go mod edit -replace github.com/rpckit/rpckit=PATH")
	}
}
