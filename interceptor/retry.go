package interceptor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
)

// RetryPolicy describes retries done by grpc-go itself, from the service
// config that ServiceConfig builds: grpc-go retries a failed attempt whose
// code is retryable, with exponential backoff and jitter, only while no
// response header has arrived, and within the call's deadline. Pass the
// result to grpc.WithDefaultServiceConfig. The zero value retries
// UNAVAILABLE up to 3 attempts, backing off from 100ms to 1s, without
// throttling.
type RetryPolicy struct {
	// Services the policy applies to, by full name; empty means all.
	Services []string
	// MaxAttempts counts the first attempt; grpc-go caps it at 5.
	MaxAttempts       int
	InitialBackoff    time.Duration
	MaxBackoff        time.Duration
	BackoffMultiplier float64
	// RetryableCodes are the codes that are retried. Retry only codes that
	// mean the server did not act: UNAVAILABLE, and RESOURCE_EXHAUSTED or
	// ABORTED when the service says so.
	RetryableCodes []codes.Code
	// Timeout, when positive, is the default deadline of each call.
	Timeout time.Duration
	// ThrottleMaxTokens, when positive, turns on retry throttling: each
	// failure costs a token, each success returns ThrottleTokenRatio
	// (default 0.1), and retries stop while tokens are at or below half.
	ThrottleMaxTokens  float64
	ThrottleTokenRatio float64
}

type serviceConfig struct {
	MethodConfig    []methodConfig   `json:"methodConfig"`
	RetryThrottling *retryThrottling `json:"retryThrottling,omitempty"`
}

type methodConfig struct {
	Name        []methodName `json:"name"`
	Timeout     string       `json:"timeout,omitempty"`
	RetryPolicy *retryPolicy `json:"retryPolicy,omitempty"`
}

type methodName struct {
	Service string `json:"service,omitempty"`
}

type retryPolicy struct {
	MaxAttempts          int      `json:"maxAttempts"`
	InitialBackoff       string   `json:"initialBackoff"`
	MaxBackoff           string   `json:"maxBackoff"`
	BackoffMultiplier    float64  `json:"backoffMultiplier"`
	RetryableStatusCodes []string `json:"retryableStatusCodes"`
}

type retryThrottling struct {
	MaxTokens  float64 `json:"maxTokens"`
	TokenRatio float64 `json:"tokenRatio"`
}

// withDefaults fills the zero fields of p.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts == 0 {
		p.MaxAttempts = 3
	}
	if p.InitialBackoff == 0 {
		p.InitialBackoff = 100 * time.Millisecond
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = time.Second
	}
	if p.BackoffMultiplier == 0 {
		p.BackoffMultiplier = 2
	}
	if len(p.RetryableCodes) == 0 {
		p.RetryableCodes = []codes.Code{codes.Unavailable}
	}
	if p.ThrottleMaxTokens > 0 && p.ThrottleTokenRatio == 0 {
		p.ThrottleTokenRatio = 0.1
	}
	return p
}

func (p RetryPolicy) validate() error {
	switch {
	case p.MaxAttempts < 2:
		return errors.New("interceptor: retry policy: MaxAttempts must be at least 2")
	case p.InitialBackoff <= 0 || p.MaxBackoff < p.InitialBackoff:
		return errors.New("interceptor: retry policy: backoffs must satisfy 0 < InitialBackoff <= MaxBackoff")
	case p.BackoffMultiplier <= 0:
		return errors.New("interceptor: retry policy: BackoffMultiplier must be positive")
	case p.Timeout < 0 || p.ThrottleMaxTokens < 0 || p.ThrottleMaxTokens > 1000:
		return errors.New("interceptor: retry policy: Timeout must not be negative, ThrottleMaxTokens in [0, 1000]")
	}
	for _, c := range p.RetryableCodes {
		if c == codes.OK || c > codes.Unauthenticated {
			return fmt.Errorf("interceptor: retry policy: code %v cannot be retried", c)
		}
	}
	return nil
}

// ServiceConfig returns the JSON service config for p.
func ServiceConfig(p RetryPolicy) (string, error) {
	p = p.withDefaults()
	if err := p.validate(); err != nil {
		return "", err
	}
	mc := methodConfig{Name: names(p.Services), RetryPolicy: &retryPolicy{
		MaxAttempts:          p.MaxAttempts,
		InitialBackoff:       jsonDuration(p.InitialBackoff),
		MaxBackoff:           jsonDuration(p.MaxBackoff),
		BackoffMultiplier:    p.BackoffMultiplier,
		RetryableStatusCodes: codeNames(p.RetryableCodes),
	}}
	if p.Timeout > 0 {
		mc.Timeout = jsonDuration(p.Timeout)
	}
	sc := serviceConfig{MethodConfig: []methodConfig{mc}}
	if p.ThrottleMaxTokens > 0 {
		sc.RetryThrottling = &retryThrottling{MaxTokens: p.ThrottleMaxTokens, TokenRatio: p.ThrottleTokenRatio}
	}
	b, err := json.Marshal(sc)
	if err != nil {
		return "", fmt.Errorf("interceptor: service config: %w", err)
	}
	return string(b), nil
}

func names(services []string) []methodName {
	if len(services) == 0 {
		return []methodName{{}}
	}
	out := make([]methodName, len(services))
	for i, s := range services {
		out[i] = methodName{Service: s}
	}
	return out
}

// jsonDuration renders d the way protobuf's JSON mapping of Duration does.
func jsonDuration(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// codeNames renders codes as the service config spells them: UNAVAILABLE.
func codeNames(cs []codes.Code) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = codeName(c)
	}
	return out
}

func codeName(c codes.Code) string {
	switch c {
	case codes.Canceled:
		return "CANCELLED"
	case codes.DeadlineExceeded:
		return "DEADLINE_EXCEEDED"
	case codes.NotFound:
		return "NOT_FOUND"
	case codes.AlreadyExists:
		return "ALREADY_EXISTS"
	case codes.PermissionDenied:
		return "PERMISSION_DENIED"
	case codes.ResourceExhausted:
		return "RESOURCE_EXHAUSTED"
	case codes.FailedPrecondition:
		return "FAILED_PRECONDITION"
	case codes.OutOfRange:
		return "OUT_OF_RANGE"
	case codes.InvalidArgument:
		return "INVALID_ARGUMENT"
	case codes.DataLoss:
		return "DATA_LOSS"
	}
	return strings.ToUpper(c.String()) // one-word names: UNKNOWN, ABORTED, ...
}
