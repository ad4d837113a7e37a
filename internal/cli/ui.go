package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/rpckit/rpckit/ui"
	"github.com/spf13/cobra"
)

type uiFlags struct {
	listen   string
	opts     ui.Options
	timeouts httpTimeouts
}

func newUICmd(stdio Stdio) *cobra.Command {
	var f uiFlags
	cmd := &cobra.Command{
		Use:   "ui [TARGET]",
		Short: "Serve a web page to explore, call and load-test gRPC services",
		Long: `Serve the rpckit web page: connect to targets (plaintext or TLS, schema by
reflection or from uploaded .proto files and protosets), browse and search
their methods, call them with a JSON editor or a form, run streams live, keep
history, collections and environments, copy requests as rpckit or grpcurl
commands, and run bounded load tests of loopback targets.

The page listens on 127.0.0.1 on a free port by default and opens nothing by
itself: open the URL printed at start, which carries a random token (it is
exchanged for a cookie). Requests with a foreign Host header, from another
origin, or without the token are refused.

Listening beyond loopback (--listen 0.0.0.0:8080) needs --allow: the page then
dials only targets an allow pattern matches, checked against the resolved
address when it dials, and never link-local or cloud metadata addresses.`,
		Example: `  rpckit ui
  rpckit ui 127.0.0.1:50051
  rpckit ui --listen 0.0.0.0:8080 --allow '*.svc.cluster.local:*,10.0.0.0/8:50051'`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				f.opts.Target = args[0]
			}
			return runUI(cmd.Context(), stdio, &f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", "127.0.0.1:0", "`address` to serve the page on (beyond loopback needs --allow)")
	fs.StringArrayVar(&f.opts.Allow, "allow", nil, "targets the page may dial when listening beyond loopback: `HOST:PORT` patterns, HOST a name with * wildcards, an IP or a CIDR prefix, PORT a number or * (repeatable, comma-separated)")
	fs.StringArrayVar(&f.opts.Hosts, "host", nil, "host `name` the page is reached by, besides IP addresses and localhost (repeatable)")
	fs.StringVar(&f.opts.Token, "token", "", "the URL's token (default: random)")
	fs.BoolVar(&f.opts.TargetTLS, "tls", false, "dial TARGET with TLS (default plaintext)")
	durationVar(fs, &f.opts.DefaultTimeout, "timeout", 10*time.Second, "deadline a new request starts with")
	durationVar(fs, &f.opts.Bench.MaxDuration, "bench-max-duration", time.Minute, "longest load test the page may run")
	fs.Float64Var(&f.opts.Bench.MaxRate, "bench-max-rate", 2000, "highest rate (calls/s) a load test from the page may ask for")
	fs.IntVar(&f.opts.Bench.MaxConcurrency, "bench-max-concurrency", 64, "most calls in flight a load test from the page may ask for")
	f.timeouts.register(fs, "")
	return cmd
}

func runUI(ctx context.Context, stdio Stdio, f *uiFlags) error {
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return usagef("--listen %q: want host:port", f.listen)
	}
	f.opts.Exposed = !isLoopbackHost(host)
	if f.opts.Exposed && len(f.opts.Allow) == 0 {
		return usagef("--listen %s is beyond loopback: give --allow with the targets the page may dial", f.listen)
	}
	f.opts.BodyTimeout = offIfZero(f.timeouts.body)
	h, err := ui.New(f.opts)
	if err != nil {
		return usageError{err}
	}
	defer h.Close()
	lis, err := net.Listen("tcp", f.listen)
	if err != nil {
		return err
	}
	srv := f.timeouts.server(h)
	fmt.Fprintf(stdio.Out, "rpckit ui: open %s\n", pageURL(lis.Addr().(*net.TCPAddr), host, h.Token()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pageURL is the address to open: the listen host, or 127.0.0.1 when it
// listens on every address.
func pageURL(addr *net.TCPAddr, host, token string) string {
	if host == "" || net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified() {
		host = "127.0.0.1"
	}
	return fmt.Sprintf("http://%s/?token=%s", net.JoinHostPort(host, fmt.Sprint(addr.Port)), token)
}
