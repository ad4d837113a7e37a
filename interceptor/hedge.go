package interceptor

import (
	"context"
	"reflect"
	"slices"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// HedgePolicy is a service config's hedgingPolicy: send the call again
// every Delay, up to MaxAttempts in flight, and take the first answer.
// grpc-go parses no hedging policy, so UnaryClientHedging does it.
type HedgePolicy struct {
	// MaxAttempts counts the first attempt; it is capped at 5, as grpc-go
	// caps retries.
	MaxAttempts int
	// Delay is the wait before the next attempt; zero sends them all at
	// once.
	Delay time.Duration
	// NonFatalCodes are the codes after which the next attempt is sent at
	// once instead of the call failing.
	NonFatalCodes []codes.Code
}

// maxHedges caps MaxAttempts as grpc-go caps retries' maxAttempts.
const maxHedges = 5

// hedger hedges the unary calls its policies name, by method path
// ("/pkg.Service/Method"), service ("/pkg.Service/") or for all ("").
type hedger struct {
	policies map[string]*HedgePolicy // nil: a config that does not hedge
}

// policy finds the most specific method config naming method and returns
// its hedging policy, as grpc-go finds a method's config.
func (h *hedger) policy(method string) *HedgePolicy {
	if p, ok := h.policies[method]; ok {
		return p
	}
	service, _ := splitFirst(method)
	if p, ok := h.policies["/"+service+"/"]; ok {
		return p
	}
	return h.policies[""]
}

// attempt is one finished attempt of a hedged call.
type attempt struct {
	reply           any
	header, trailer metadata.MD
	err             error
}

func (h *hedger) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	p := h.policy(method)
	if p == nil {
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // the attempts still in flight
	limit := min(p.MaxAttempts, maxHedges)
	done := make(chan attempt, limit)
	send := func() {
		a := attempt{reply: reflect.New(reflect.TypeOf(reply).Elem()).Interface()}
		aopts := attemptOptions(opts, &a.header, &a.trailer)
		go func() {
			a.err = invoker(ctx, method, req, a.reply, cc, aopts...)
			done <- a
		}()
	}
	send()
	sent, pending := 1, 1
	timer := time.NewTimer(p.Delay)
	defer timer.Stop()
	var last attempt
	for pending > 0 {
		select {
		case <-timer.C:
			if sent < limit {
				send()
				sent, pending = sent+1, pending+1
				timer.Reset(p.Delay)
			}
		case last = <-done:
			pending--
			if last.err == nil || !slices.Contains(p.NonFatalCodes, status.Code(last.err)) {
				return finish(last, reply, opts)
			}
			if sent < limit {
				send()
				sent, pending = sent+1, pending+1
				timer.Reset(p.Delay)
			}
		}
	}
	return finish(last, reply, opts)
}

// attemptOptions are opts with the header and trailer an attempt fills
// in its own, so attempts in flight together write to no shared place.
func attemptOptions(opts []grpc.CallOption, header, trailer *metadata.MD) []grpc.CallOption {
	out := make([]grpc.CallOption, 0, len(opts))
	for _, o := range opts {
		switch o.(type) {
		case grpc.HeaderCallOption:
			o = grpc.Header(header)
		case grpc.TrailerCallOption:
			o = grpc.Trailer(trailer)
		}
		out = append(out, o)
	}
	return out
}

// finish gives the caller the attempt that decided the call: its reply,
// header and trailer.
func finish(a attempt, reply any, opts []grpc.CallOption) error {
	for _, o := range opts {
		switch o := o.(type) {
		case grpc.HeaderCallOption:
			*o.HeaderAddr = a.header
		case grpc.TrailerCallOption:
			*o.TrailerAddr = a.trailer
		}
	}
	if a.err != nil {
		return a.err
	}
	if m, ok := reply.(proto.Message); ok {
		proto.Reset(m)
		proto.Merge(m, a.reply.(proto.Message))
		return nil
	}
	reflect.ValueOf(reply).Elem().Set(reflect.ValueOf(a.reply).Elem())
	return nil
}
