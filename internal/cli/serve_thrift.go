package cli

import (
	"context"
	"log/slog"
	"net"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/spf13/pflag"
)

// serveThriftFlags are serve's flags of the Thrift listener.
type serveThriftFlags struct {
	addr      string
	transport string
	protocol  string
}

func (f *serveThriftFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "thrift-addr", "", "also serve the ranking service over Thrift (examples/ranking/thrift/ranking.thrift) on this `host:port`")
	fs.StringVar(&f.transport, "thrift-transport", "framed", "Thrift `transport`: framed, buffered or header (which also answers framed and buffered calls)")
	fs.StringVar(&f.protocol, "thrift-protocol", "binary", "Thrift `protocol`: binary or compact")
}

// startThrift starts the Thrift listener of --thrift-addr, if any, and
// returns the function that waits for it to stop. The listener keeps
// serving through --drain-delay after ctx ends, then drains its calls for
// at most --drain-timeout, alongside the gRPC server.
func startThrift(ctx context.Context, svc *ranking.Service, f *serveFlags, logger *slog.Logger) (wait func(), err error) {
	t := f.thrift
	if t.addr == "" {
		return func() {}, nil
	}
	ts, err := svc.ThriftServer(ranking.ThriftOptions{Transport: t.transport, Protocol: t.protocol, DrainTimeout: f.srv.ShutdownTimeout})
	if err != nil {
		return nil, usagef("--thrift-transport %q, --thrift-protocol %q: want framed, buffered or header, and binary or compact", t.transport, t.protocol)
	}
	ln, err := net.Listen("tcp", t.addr)
	if err != nil {
		return nil, err
	}
	thriftCtx, stop := context.WithCancel(context.Background())
	stopAfterDelay := context.AfterFunc(ctx, func() {
		select {
		case <-time.After(f.srv.DrainDelay):
		case <-thriftCtx.Done():
		}
		stop()
	})
	restoreLog := defaultLogger(logger)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := ts.Serve(thriftCtx, ln); err != nil {
			logger.Error("rpckit serve: thrift", slog.Any("error", err))
		}
	}()
	logger.Info("rpckit serve: thrift", slog.String("addr", ln.Addr().String()),
		slog.String("transport", t.transport), slog.String("protocol", t.protocol))
	return func() {
		stopAfterDelay()
		stop()
		<-done
		restoreLog()
		logger.Info("rpckit serve: thrift stopped")
	}, nil
}

// defaultLogger makes logger slog's default until the returned func. The
// Apache Thrift server logs what it cannot serve (a frame over its limit,
// a connection that fails mid-call) through the default logger: so its
// lines come in serve's format, at serve's level, on serve's stderr.
func defaultLogger(logger *slog.Logger) (restore func()) {
	prev := slog.Default()
	slog.SetDefault(logger)
	return func() { slog.SetDefault(prev) }
}
