package interceptor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// linkService answers by the request's ResponseSize: 0 echoes the request
// id and whether the call has a deadline, 1 fails with NOT_FOUND, 2
// panics, 3 waits for its context to end, 4 logs a line of its own.
func linkService(l *slog.Logger) *testService {
	return &testService{unary: func(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		switch req.GetResponseSize() {
		case 1:
			return nil, status.Error(codes.NotFound, "no such title")
		case 2:
			panic("model not loaded")
		case 3:
			<-ctx.Done()
			return nil, status.FromContextError(ctx.Err()).Err()
		case 4:
			l.InfoContext(ctx, "scoring", "candidates", 3)
		}
		id, _ := interceptor.RequestIDFromContext(ctx)
		_, hasDeadline := ctx.Deadline()
		return &testgrpc.SimpleResponse{Username: id, OauthScope: fmt.Sprint(hasDeadline)}, nil
	}}
}

// TestUnaryChainMatchesLinks: ServerChain runs its unary links as one
// interceptor; the same calls through the links chained one by one give
// the same replies, headers, log lines and metrics.
func TestUnaryChainMatchesLinks(t *testing.T) {
	const max = 100 * time.Millisecond
	var fusedLog, linkedLog logBuffer
	fusedMetrics := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	linkedMetrics := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})

	fl := fusedLog.logger()
	fused := serve(t, linkService(slog.New(interceptor.NewLogHandler(fl.Handler()))),
		interceptor.ServerChain(interceptor.ServerChainOptions{Logger: fl, Metrics: fusedMetrics, MaxDeadline: max})...)
	ll := linkedLog.logger()
	linked := serve(t, linkService(slog.New(interceptor.NewLogHandler(ll.Handler()))), grpc.ChainUnaryInterceptor(
		interceptor.UnaryServerRequestID(),
		linkedMetrics.UnaryServer(),
		interceptor.UnaryServerAccessLog(ll),
		interceptor.UnaryServerRecovery(ll),
		interceptor.UnaryServerMaxDeadline(max),
	))

	type reply struct {
		Code                  codes.Code
		Message, ID, Deadline string
		Header                []string
	}
	call := func(addr string, size int32, id string) reply {
		ctx := testContext(t)
		if id != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "x-request-id", id)
		}
		var header metadata.MD
		resp, err := dial(t, addr).UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseSize: size}, grpc.Header(&header))
		st := status.Convert(err)
		return reply{st.Code(), st.Message(), resp.GetUsername(), resp.GetOauthScope(), header.Get("x-request-id")}
	}
	generated := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for _, size := range []int32{0, 1, 2, 3, 4} {
		for _, id := range []string{"", "req-7"} {
			got, want := call(fused, size, id), call(linked, size, id)
			if id == "" && len(got.Header) == 1 && generated.MatchString(got.Header[0]) &&
				len(want.Header) == 1 && generated.MatchString(want.Header[0]) {
				if size == 0 || size == 4 {
					if got.ID != got.Header[0] || want.ID != want.Header[0] {
						t.Errorf("size %d: handler ids %q, %q differ from the headers %v, %v", size, got.ID, want.ID, got.Header, want.Header)
					}
					got.ID, want.ID = "", ""
				}
				got.Header, want.Header = nil, nil
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("size %d id %q: fused chain %+v, linked %+v", size, id, got, want)
			}
		}
	}

	gotLines, wantLines := normalLines(t, &fusedLog), normalLines(t, &linkedLog)
	if len(gotLines) != 2*5+2*2 { // a line per call, and a second for panics and own lines
		t.Errorf("fused chain logged %d lines:\n%s", len(gotLines), gotLines)
	}
	if fmt.Sprint(gotLines) != fmt.Sprint(wantLines) {
		t.Errorf("log lines differ\n--- fused\n%s\n--- linked\n%s", gotLines, wantLines)
	}
	got, want := scrapeText(t, fusedMetrics.Handler().ServeHTTP), scrapeText(t, linkedMetrics.Handler().ServeHTTP)
	if got != want {
		t.Errorf("metrics differ\n--- fused\n%s\n--- linked\n%s", got, want)
	}
}

// normalLines returns the log lines as JSON with what differs from call to
// call replaced by its kind: times, durations, ports, generated ids, stacks.
func normalLines(t *testing.T, b *logBuffer) []string {
	t.Helper()
	var out []string
	for _, rec := range b.lines(t) {
		rec["time"] = "T"
		if _, ok := rec["grpc.duration"].(string); ok {
			rec["grpc.duration"] = "D"
		}
		if p, ok := rec["peer.address"].(string); ok && regexp.MustCompile(`^127\.0\.0\.1:\d+$`).MatchString(p) {
			rec["peer.address"] = "127.0.0.1:P"
		}
		if id, ok := rec["request_id"].(string); ok && regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
			rec["request_id"] = "generated"
		}
		if _, ok := rec["stack"].(string); ok {
			rec["stack"] = "S"
		}
		line, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(line)+"\n")
	}
	return out
}

// TestAccessLogCodeOfContextError: a handler that returns its context's
// error is logged with the code grpc-go sends for it and the metrics count,
// DEADLINE_EXCEEDED, not UNKNOWN.
func TestAccessLogCodeOfContextError(t *testing.T) {
	var logs logBuffer
	m := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	svc := &testService{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	addr := serve(t, svc, interceptor.ServerChain(interceptor.ServerChainOptions{
		Logger: logs.logger(), Metrics: m, MaxDeadline: 20 * time.Millisecond,
	})...)
	_, err := dial(t, addr).UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("call: %v, want DEADLINE_EXCEEDED", err)
	}
	lines := withMsg(logs.lines(t), "finished call")
	if len(lines) != 1 || lines[0]["grpc.code"] != "DeadlineExceeded" || lines[0]["grpc.error"] != "context deadline exceeded" {
		t.Errorf("access log %v, want grpc.code DeadlineExceeded", lines)
	}
	if got := scrapeText(t, m.Handler().ServeHTTP); !regexp.MustCompile(`grpc_server_handled_total\{grpc_code="DeadlineExceeded",[^}]*\} 1`).MatchString(got) {
		t.Errorf("metrics do not count the DEADLINE_EXCEEDED:\n%s", got)
	}
}
