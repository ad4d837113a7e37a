// Package cli implements the rpckit command line: one file per subcommand,
// flags bound into the library packages' Options structs. Commands return
// errors; Main turns them into messages and exit codes. Only cmd/rpckit
// imports this package.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Stdio is where a command reads and writes.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

const exitCodesHelp = `Exit codes:
  0          success
  1          error: bad input, unknown method, unreachable target, ...
  2          usage: unknown flag, wrong arguments
  64+N       the RPC failed with gRPC status code N (e.g. 69 = NOT_FOUND,
             68 = DEADLINE_EXCEEDED, 78 = UNAVAILABLE)
  96         call --idl: the Thrift method threw an exception its IDL declares
  100+T      call --idl: the server answered with an application exception of
             type T (101 UNKNOWN_METHOD, 106 INTERNAL_ERROR, 107 PROTOCOL_ERROR)
  130, 143   ended by SIGINT (Ctrl-C), SIGTERM
  rpckit health uses grpc_health_probe's codes instead; see rpckit health -h.`

// Main runs the rpckit command line with args (without the program name)
// and returns the process exit code. A command that fails because ctx was
// cancelled by a signal (see NotifyContext) exits 128+N silently; one that
// stops cleanly on it, as the servers do, exits 0. Reads of stdio.In end
// when ctx is done.
func Main(ctx context.Context, args []string, stdio Stdio) int {
	stdio.In = interruptible(ctx, stdio.In)
	root := newRoot(stdio)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	if code := signalCode(ctx); code != 0 {
		return code
	}
	return reportError(stdio.Err, err)
}

func newRoot(stdio Stdio) *cobra.Command {
	root := &cobra.Command{
		Use:   "rpckit",
		Short: "Call, inspect, convert, load-test and front gRPC services",
		Long: `rpckit calls and inspects any gRPC service from server reflection, .proto
files or protosets, converts between JSON and protobuf, load-tests gRPC and
HTTP services, and fronts gRPC services with REST/JSON.

Targets are host:port, [::1]:port, unix:path or unix:///abs/path; an argument
with a colon in it is a target, one without is a service or symbol name.

` + exitCodesHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionText(), // cobra adds --version
	}
	root.SetVersionTemplate("{{.Version}}")
	root.Flags().Bool("version", false, "print rpckit's version, source revision and Go version")
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newCallCmd(stdio),
		newListCmd(stdio),
		newDescribeCmd(stdio),
		newHealthCmd(stdio),
		newBenchCmd(stdio),
		newConvertCmd(stdio),
		newGatewayCmd(stdio),
		newOpenAPICmd(stdio),
		newServeCmd(stdio),
		newDemoCmd(stdio),
		newUICmd(stdio),
		newVersionCmd(stdio),
		newNewCmd(stdio),
	)
	return root
}

// usageError is a mistake in the command line itself: exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries an exit code chosen by the command; its message, when
// not empty, has already been printed or is printed as is.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func reportError(w io.Writer, err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printError(w, ee.err)
		}
		return ee.code
	}
	printError(w, err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintln(w, "Run 'rpckit help' for usage.")
		return 2
	}
	return 1
}

func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "rpckit: %s\n", userMessage(err))
}

// isCobraUsage recognises the errors cobra returns for unknown commands.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command") ||
		strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.HasPrefix(err.Error(), "unknown shorthand flag")
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
