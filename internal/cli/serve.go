package cli

import (
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/server"
	"github.com/spf13/cobra"
)

type serveFlags struct {
	srv       server.Options
	model     ranking.Options
	certFile  string
	keyFile   string
	logLevel  string
	logText   bool
	accessLog string
	admin     httpTimeouts
	thrift    serveThriftFlags
}

func newServeCmd(stdio Stdio) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [ranking]",
		Short: "Run the real-time ranking service with the full runtime",
		Long: `Run rpckit.ranking.v1.RankingService, the built-in target of bench, gateway
and demo, on the rpckit runtime: request ids, access log (a JSON line per
call, on stderr unless --access-log sends it to a file or turns it off),
recovery, Prometheus metrics, a deadline cap, grpc.health.v1 and server
reflection (v1 and v1alpha).

The admin listener serves /metrics, /healthz, /readyz and, with --pprof,
/debug/pprof/. On SIGTERM or SIGINT, health goes NOT_SERVING, the server
waits --drain-delay for load balancers to notice, then drains in-flight
calls for at most --drain-timeout and stops; idle reflection streams, which
tools keep open, are ended rather than waited for.

With --thrift-addr the same service also answers Thrift calls
(examples/ranking/thrift/ranking.thrift: Rank, RankPage, Feedback, Record
and Autoplay; binary protocol on the framed transport unless
--thrift-transport and --thrift-protocol say otherwise). That listener
keeps serving through --drain-delay, then drains with the gRPC one.`,
		Example: `  rpckit serve
  rpckit serve --listen 127.0.0.1:50051 --admin 127.0.0.1:9090 --catalogue 200000
  rpckit serve --access-log access.log &
  rpckit serve --thrift-addr 127.0.0.1:9091
  rpckit health --plaintext 127.0.0.1:50051 rpckit.ranking.v1.RankingService`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := argsBetween(0, 1)(cmd, args); err != nil {
				return err
			}
			if len(args) == 1 && args[0] != "ranking" {
				return usagef("unknown service %q: the one built in is \"ranking\"", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, stdio, &f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.srv.Addr, "listen", "127.0.0.1:50051", "gRPC listen `address`: host:port or unix:PATH")
	fs.StringVar(&f.srv.AdminAddr, "admin", "127.0.0.1:9090", "admin HTTP listen `address` (/metrics, /healthz, /readyz); empty: none")
	fs.BoolVar(&f.srv.Pprof, "pprof", false, "serve /debug/pprof/ on the admin listener")
	f.admin.register(fs, "admin-")
	f.thrift.register(fs)
	durationVar(fs, &f.srv.ShutdownTimeout, "drain-timeout", 5*time.Second, "how long in-flight calls may run after SIGTERM")
	durationVar(fs, &f.srv.DrainDelay, "drain-delay", 0, "how long health says NOT_SERVING before draining starts")
	durationVar(fs, &f.srv.MaxDeadline, "max-deadline", 30*time.Second, "cap on every call's deadline (0: none)")
	fs.StringVar(&f.accessLog, "access-log", "stderr", "where the access log line of each call goes: stderr, a `file` (appended to) or off")
	fs.BoolVar(&f.srv.NoAccessLog, "no-access-log", false, "no access log line per call (--access-log off)")
	fs.StringVar(&f.certFile, "cert", "", "serve TLS with this certificate `file` (PEM)")
	fs.StringVar(&f.keyFile, "key", "", "the private key `file` of --cert (PEM)")
	fs.StringVar(&f.logLevel, "log-level", "info", "log `level`: debug, info, warn or error")
	fs.BoolVar(&f.logText, "log-text", false, "log as text instead of JSON")
	fs.IntVar(&f.model.CatalogueSize, "catalogue", 50_000, "titles in the synthetic catalogue")
	fs.IntVar(&f.model.EmbeddingDim, "embedding-dim", 32, "length of the title and user vectors")
	fs.IntVar(&f.model.MaxCandidates, "max-candidates", 10_000, "most candidates one request may score (more: RESOURCE_EXHAUSTED)")
	fs.IntVar(&f.model.MaxLimit, "max-limit", 1_000, "largest limit and page size of a request")
	fs.Uint64Var(&f.model.Seed, "seed", 1, "seed of the catalogue, the users and the model weights")
	return cmd
}

func runServe(cmd *cobra.Command, stdio Stdio, f *serveFlags) error {
	logger, err := newLogger(stdio, f.logLevel, f.logText)
	if err != nil {
		return err
	}
	opts := f.srv
	opts.Logger = logger
	accessLog, closeAccess, err := f.openAccessLog(&opts)
	if err != nil {
		return err
	}
	defer closeAccess()
	opts.AdminIdleTimeout = offIfZero(f.admin.idle)
	opts.AdminReadHeaderTimeout = offIfZero(f.admin.readHeader)
	opts.AdminBodyTimeout = offIfZero(f.admin.body)
	if opts.TLS, err = serverTLS(f.certFile, f.keyFile); err != nil {
		return err
	}
	model := f.model
	model.Logger = logger
	svc, err := ranking.New(model)
	if err != nil {
		return err
	}
	srv, err := server.New(opts)
	if err != nil {
		return err
	}
	svc.Register(srv)
	logger.Info("rpckit serve: ranking", slog.String("service", ranking.ServiceName),
		slog.Int("catalogue", model.CatalogueSize), slog.Int("embedding_dim", model.EmbeddingDim))
	logger.Info(logPlaces(accessLog), slog.String("access_log", accessLog))
	if err := srv.Listen(); err != nil {
		return err
	}
	waitThrift, err := startThrift(cmd.Context(), svc, f, logger)
	if err != nil {
		srv.Close()
		return err
	}
	defer waitThrift()
	return srv.Serve(cmd.Context())
}

// openAccessLog points opts' access log where --access-log says, and
// returns that place (stderr, off or the file) and how to close it.
func (f *serveFlags) openAccessLog(opts *server.Options) (string, func(), error) {
	switch {
	case opts.NoAccessLog || f.accessLog == "off":
		opts.NoAccessLog = true
		return "off", func() {}, nil
	case f.accessLog == "stderr" || f.accessLog == "":
		return "stderr", func() {}, nil
	}
	file, err := os.OpenFile(f.accessLog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return "", nil, fmt.Errorf("--access-log: %w", err)
	}
	// The level was checked by newLogger.
	opts.AccessLogger, _ = newLoggerTo(file, f.logLevel, f.logText)
	return f.accessLog, func() { file.Close() }, nil
}

// logPlaces says where serve's logs go, first thing, so that a terminal
// filling with access log lines tells how to stop it.
func logPlaces(accessLog string) string {
	switch accessLog {
	case "stderr":
		return "rpckit serve: logging on stderr, the access log too (a line per call; --access-log FILE or off to change that)"
	case "off":
		return "rpckit serve: logging on stderr, no access log"
	}
	return "rpckit serve: logging on stderr, the access log to " + accessLog
}

// newLogger makes the slog logger of a long-running command, on stderr.
func newLogger(stdio Stdio, level string, text bool) (*slog.Logger, error) {
	return newLoggerTo(stdio.Err, level, text)
}

// newLoggerTo makes a logger writing to w at level, as text or JSON.
func newLoggerTo(w io.Writer, level string, text bool) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, usagef("--log-level %q: want debug, info, warn or error", level)
	}
	hopts := &slog.HandlerOptions{Level: l}
	if text {
		return slog.New(slog.NewTextHandler(w, hopts)), nil
	}
	return slog.New(slog.NewJSONHandler(w, hopts)), nil
}

// serverTLS loads a certificate pair, or returns nil for plaintext.
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, usagef("--cert and --key go together")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
