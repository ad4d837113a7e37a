package interceptor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// MetricsOptions configures Metrics. The zero value uses Prometheus's
// default latency buckets and includes the Go runtime and process
// collectors.
type MetricsOptions struct {
	// Buckets are the latency histogram bounds in seconds.
	Buckets []float64
	// NoRuntime leaves out the go_* and process_* collectors.
	NoRuntime bool
}

// Metrics holds Prometheus metrics for gRPC servers and clients in a
// registry of its own, under go-grpc-middleware's standard names, help
// texts, labels and counting rules: grpc_server_started_total,
// grpc_server_handled_total, grpc_server_msg_received_total,
// grpc_server_msg_sent_total, grpc_server_handling_seconds, and their
// grpc_client_* counterparts (a test holds them equal to
// go-grpc-middleware's provider). Handler serves them in the Prometheus
// text format.
//
// The series of a method are looked up once and kept, so a call costs a
// map lookup and a few atomic adds; go-grpc-middleware's provider hashes
// label values five times per unary call and allocates a reporter, about
// a microsecond, which is most of the server chain's cost.
type Metrics struct {
	reg    *prometheus.Registry
	server *sideMetrics
	client *sideMetrics
	policy policyMetrics
}

// NewMetrics returns metrics in a fresh registry.
func NewMetrics(opts MetricsOptions) *Metrics {
	buckets := opts.Buckets
	if len(buckets) == 0 {
		buckets = prometheus.DefBuckets
	}
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		server: newSideMetrics("server", buckets, sideHelp{
			started:  "Total number of RPCs started on the server.",
			handled:  "Total number of RPCs completed on the server, regardless of success or failure.",
			received: "Total number of RPC stream messages received on the server.",
			sent:     "Total number of gRPC stream messages sent by the server.",
			seconds:  "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.",
		}),
		client: newSideMetrics("client", buckets, sideHelp{
			started:  "Total number of RPCs started on the client.",
			handled:  "Total number of RPCs completed by the client, regardless of success or failure.",
			received: "Total number of RPC stream messages received by the client.",
			sent:     "Total number of gRPC stream messages sent by the client.",
			seconds:  "Histogram of response latency (seconds) of the gRPC until it is finished by the application.",
		}),
	}
	// MustRegister cannot fail: the registry is new and the metric names
	// are distinct.
	m.reg.MustRegister(m.server.collectors()...)
	m.reg.MustRegister(m.client.collectors()...)
	if !opts.NoRuntime {
		m.reg.MustRegister(collectors.NewGoCollector(),
			collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	return m
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// GaugeFunc adds a gauge to the registry whose value f reports at each
// scrape, for state the interceptors do not see (a server draining, say).
// It fails when the name is empty or taken.
func (m *Metrics) GaugeFunc(name, help string, f func() float64) error {
	g := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	if err := m.reg.Register(g); err != nil {
		return fmt.Errorf("interceptor: gauge %s: %w", name, err)
	}
	return nil
}

// InitializeServer creates the zero-valued series of every method
// registered on srv, every code included, so dashboards see them before
// the first call. Call it after registering the services.
func (m *Metrics) InitializeServer(srv *grpc.Server) {
	for service, info := range srv.GetServiceInfo() {
		for _, mi := range info.Methods {
			typ := typeUnary
			if mi.IsClientStream || mi.IsServerStream {
				typ = streamType(mi.IsClientStream, mi.IsServerStream)
			}
			s := m.server.series(typ, "/"+service+"/"+mi.Name)
			for c := range s.handled {
				s.handledFor(codes.Code(c))
			}
		}
	}
}

// UnaryServer counts and times unary calls on the server.
func (m *Metrics) UnaryServer() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		s := m.server.series(typeUnary, info.FullMethod)
		s.started.Inc()
		s.received.Inc()
		resp, err := handler(ctx, req)
		if err == nil {
			s.sent.Inc()
		}
		s.done(err, start)
		return resp, err
	}
}

// StreamServer counts and times streams and their messages on the server.
func (m *Metrics) StreamServer() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		s := m.server.series(streamType(info.IsClientStream, info.IsServerStream), info.FullMethod)
		s.started.Inc()
		err := handler(srv, &countedServerStream{ServerStream: ss, s: s})
		s.done(err, start)
		return err
	}
}

// UnaryClient counts and times unary calls made by a client.
func (m *Metrics) UnaryClient() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		start := time.Now()
		s := m.client.series(typeUnary, method)
		s.started.Inc()
		s.sent.Inc()
		err := invoker(ctx, method, req, reply, cc, opts...)
		if err == nil {
			s.received.Inc()
		}
		s.done(err, start)
		return err
	}
}

// StreamClient counts and times streams opened by a client. A stream is
// done when a receive fails (io.EOF counts as OK) or, for a client stream,
// when its one response has been received.
func (m *Metrics) StreamClient() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		start := time.Now()
		s := m.client.series(streamType(desc.ClientStreams, desc.ServerStreams), method)
		s.started.Inc()
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			s.done(err, start)
			return nil, err
		}
		return &countedClientStream{ClientStream: cs, s: s, start: start, serverStreams: desc.ServerStreams}, nil
	}
}

const (
	typeUnary        = "unary"
	typeClientStream = "client_stream"
	typeServerStream = "server_stream"
	typeBidiStream   = "bidi_stream"
)

// streamType names a stream's kind as the grpc_type label does.
func streamType(clientStreams, serverStreams bool) string {
	switch {
	case clientStreams && !serverStreams:
		return typeClientStream
	case !clientStreams && serverStreams:
		return typeServerStream
	}
	return typeBidiStream
}

type sideHelp struct{ started, handled, received, sent, seconds string }

// sideMetrics are the metric vectors of one side (server or client) and
// the series already looked up, by method.
type sideMetrics struct {
	started, handled, received, sent *prometheus.CounterVec
	seconds                          *prometheus.HistogramVec
	methods                          sync.Map // methodKey -> *methodSeries
}

type methodKey struct{ typ, fullMethod string }

func newSideMetrics(side string, buckets []float64, help sideHelp) *sideMetrics {
	labels := []string{"grpc_type", "grpc_service", "grpc_method"}
	counter := func(name, help string, labels []string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: "grpc_" + side + "_" + name, Help: help}, labels)
	}
	return &sideMetrics{
		started:  counter("started_total", help.started, labels),
		handled:  counter("handled_total", help.handled, append(labels[:3:3], "grpc_code")),
		received: counter("msg_received_total", help.received, labels),
		sent:     counter("msg_sent_total", help.sent, labels),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "grpc_" + side + "_handling_seconds", Help: help.seconds, Buckets: buckets,
		}, labels),
	}
}

func (sm *sideMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{sm.started, sm.handled, sm.received, sm.sent, sm.seconds}
}

// series returns the series of a method, creating them on first use.
func (sm *sideMetrics) series(typ, fullMethod string) *methodSeries {
	key := methodKey{typ, fullMethod}
	if s, ok := sm.methods.Load(key); ok {
		return s.(*methodSeries)
	}
	service, method := splitFirst(fullMethod)
	s := &methodSeries{
		vec:      sm.handled,
		labels:   [3]string{typ, service, method},
		started:  sm.started.WithLabelValues(typ, service, method),
		received: sm.received.WithLabelValues(typ, service, method),
		sent:     sm.sent.WithLabelValues(typ, service, method),
		seconds:  sm.seconds.WithLabelValues(typ, service, method),
	}
	actual, _ := sm.methods.LoadOrStore(key, s)
	return actual.(*methodSeries)
}

// splitFirst splits "/pkg.Service/Method" at its first slash after the
// leading one, as go-grpc-middleware labels methods.
func splitFirst(full string) (string, string) {
	if len(full) > 0 && full[0] == '/' {
		full = full[1:]
	}
	for i := 0; i < len(full); i++ {
		if full[i] == '/' {
			return full[:i], full[i+1:]
		}
	}
	return "unknown", "unknown"
}

// methodSeries are one method's series. Handled counters are made per
// code on first use, so only codes that happened are exported (all of
// them after InitializeServer).
type methodSeries struct {
	vec                     *prometheus.CounterVec
	labels                  [3]string
	started, received, sent prometheus.Counter
	seconds                 prometheus.Observer
	handled                 [codes.Unauthenticated + 1]atomic.Pointer[counterRef]
}

type counterRef struct{ c prometheus.Counter }

func (s *methodSeries) handledFor(c codes.Code) prometheus.Counter {
	if int(c) >= len(s.handled) {
		return s.vec.WithLabelValues(s.labels[0], s.labels[1], s.labels[2], c.String())
	}
	if r := s.handled[c].Load(); r != nil {
		return r.c
	}
	r := &counterRef{s.vec.WithLabelValues(s.labels[0], s.labels[1], s.labels[2], c.String())}
	s.handled[c].CompareAndSwap(nil, r)
	return r.c
}

// done counts a finished call with its code and time. Context errors
// count as the status grpc-go sends for them.
func (s *methodSeries) done(err error, start time.Time) {
	s.finish(statusOf(err).Code(), time.Since(start))
}

// finish counts a finished call that ended with code and took elapsed.
func (s *methodSeries) finish(code codes.Code, elapsed time.Duration) {
	s.handledFor(code).Inc()
	s.seconds.Observe(elapsed.Seconds())
}

// statusOf is the status grpc-go sends for a call that ended with err:
// nil is OK, and context errors become DEADLINE_EXCEEDED or CANCELLED.
func statusOf(err error) *status.Status {
	st, ok := status.FromError(err)
	if !ok {
		st = status.FromContextError(err)
	}
	return st
}

// countedServerStream counts the messages a server stream moves.
type countedServerStream struct {
	grpc.ServerStream
	s *methodSeries
}

func (c *countedServerStream) SendMsg(m any) error {
	err := c.ServerStream.SendMsg(m)
	if err == nil {
		c.s.sent.Inc()
	}
	return err
}

func (c *countedServerStream) RecvMsg(m any) error {
	err := c.ServerStream.RecvMsg(m)
	if err == nil {
		c.s.received.Inc()
	}
	return err
}

// countedClientStream counts the messages a client stream moves and ends
// the call's count when the stream is done.
type countedClientStream struct {
	grpc.ClientStream
	s             *methodSeries
	start         time.Time
	serverStreams bool
}

func (c *countedClientStream) SendMsg(m any) error {
	err := c.ClientStream.SendMsg(m)
	if err == nil {
		c.s.sent.Inc()
	}
	return err
}

func (c *countedClientStream) RecvMsg(m any) error {
	err := c.ClientStream.RecvMsg(m)
	if err == nil {
		c.s.received.Inc()
	}
	switch {
	case !c.serverStreams:
		c.s.done(err, c.start)
	case err == nil:
	case errors.Is(err, io.EOF):
		c.s.done(nil, c.start)
	default:
		c.s.done(err, c.start)
	}
	return err
}
