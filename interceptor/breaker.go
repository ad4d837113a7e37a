package interceptor

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/sony/gobreaker/v2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// BreakerOptions configures a circuit breaker. The zero value opens after
// 5 consecutive failures, stays open 30s, then lets one trial call through.
type BreakerOptions struct {
	// Name appears in errors and state changes.
	Name string
	// Failures is how many consecutive failures open the breaker.
	Failures uint32
	// OpenFor is how long the breaker stays open before it half-opens.
	OpenFor time.Duration
	// HalfOpenCalls is how many trial calls a half-open breaker lets
	// through; that many successes close it, one failure reopens it.
	HalfOpenCalls uint32
	// FailureCodes are the codes that count as failures. The default is
	// UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, UNKNOWN
	// and DATA_LOSS; other codes are the caller's problem and count as
	// successes. CANCELED never counts.
	FailureCodes []codes.Code
	// OnStateChange, when set, is told of every transition, with the
	// states named "closed", "half-open" and "open".
	OnStateChange func(name, from, to string)
}

var defaultFailureCodes = []codes.Code{
	codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted,
	codes.Internal, codes.Unknown, codes.DataLoss,
}

// Breaker is a client-side circuit breaker (sony/gobreaker). While it is
// open, calls fail at once with UNAVAILABLE without reaching the network.
// One Breaker guards everything its interceptors are installed on,
// typically one ClientConn: one upstream.
type Breaker struct {
	name string
	cb   *gobreaker.TwoStepCircuitBreaker[struct{}]
}

// NewBreaker returns a closed breaker.
func NewBreaker(opts BreakerOptions) *Breaker {
	failures := opts.Failures
	if failures == 0 {
		failures = 5
	}
	failureCodes := opts.FailureCodes
	if len(failureCodes) == 0 {
		failureCodes = defaultFailureCodes
	}
	openFor := opts.OpenFor
	if openFor <= 0 {
		openFor = 30 * time.Second
	}
	st := gobreaker.Settings{
		Name:        opts.Name,
		MaxRequests: opts.HalfOpenCalls,
		Timeout:     openFor,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= failures },
		IsSuccessful: func(err error) bool {
			return !slices.Contains(failureCodes, status.Code(err))
		},
		IsExcluded: func(err error) bool {
			return status.Code(err) == codes.Canceled || errors.Is(err, context.Canceled)
		},
	}
	if f := opts.OnStateChange; f != nil {
		st.OnStateChange = func(name string, from, to gobreaker.State) { f(name, from.String(), to.String()) }
	}
	return &Breaker{name: opts.Name, cb: gobreaker.NewTwoStepCircuitBreaker[struct{}](st)}
}

// State returns "closed", "half-open" or "open".
func (b *Breaker) State() string { return b.cb.State().String() }

// allow asks the breaker for a call; the error, when not nil, is the
// UNAVAILABLE status to fail with.
func (b *Breaker) allow() (func(error), error) {
	done, err := b.cb.Allow()
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "interceptor: circuit breaker %q: %v", b.name, err)
	}
	return done, nil
}

// UnaryClient guards unary calls.
func (b *Breaker) UnaryClient() grpc.UnaryClientInterceptor { return b.unary }

func (b *Breaker) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	done, err := b.allow()
	if err != nil {
		return err
	}
	err = invoker(ctx, method, req, reply, cc, opts...)
	done(err)
	return err
}

// StreamClient guards streams: opening one needs the breaker's leave, and
// the stream's final status counts as its outcome.
func (b *Breaker) StreamClient() grpc.StreamClientInterceptor { return b.stream }

func (b *Breaker) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	done, err := b.allow()
	if err != nil {
		return nil, err
	}
	cs, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		done(err)
		return nil, err
	}
	return onStreamEnd(cs, desc, done), nil
}
