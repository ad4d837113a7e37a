package interceptor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
)

// The parts of a gRPC service config (grpc/service_config.proto in its
// JSON form) that CheckServiceConfig knows; a field not among them is a
// mistake it reports rather than a policy grpc-go would silently drop.
type checkedConfig struct {
	LoadBalancingPolicy string             `json:"loadBalancingPolicy"`
	LoadBalancingConfig json.RawMessage    `json:"loadBalancingConfig"`
	MethodConfig        []checkedMethod    `json:"methodConfig"`
	RetryThrottling     *retryThrottling   `json:"retryThrottling"`
	HealthCheckConfig   *healthCheckConfig `json:"healthCheckConfig"`
}

type healthCheckConfig struct {
	ServiceName string `json:"serviceName"`
}

type checkedMethod struct {
	Name                    []checkedName `json:"name"`
	WaitForReady            *bool         `json:"waitForReady"`
	Timeout                 *string       `json:"timeout"`
	MaxRequestMessageBytes  *int64        `json:"maxRequestMessageBytes"`
	MaxResponseMessageBytes *int64        `json:"maxResponseMessageBytes"`
	RetryPolicy             *checkedRetry `json:"retryPolicy"`
	HedgingPolicy           *checkedHedge `json:"hedgingPolicy"`
}

type checkedName struct {
	Service string `json:"service"`
	Method  string `json:"method"`
}

type checkedRetry struct {
	MaxAttempts          int          `json:"maxAttempts"`
	InitialBackoff       string       `json:"initialBackoff"`
	MaxBackoff           string       `json:"maxBackoff"`
	BackoffMultiplier    float64      `json:"backoffMultiplier"`
	RetryableStatusCodes []statusCode `json:"retryableStatusCodes"`
}

type checkedHedge struct {
	MaxAttempts         int          `json:"maxAttempts"`
	HedgingDelay        *string      `json:"hedgingDelay"`
	NonFatalStatusCodes []statusCode `json:"nonFatalStatusCodes"`
}

// statusCode is a status code as a service config spells it: a name as
// UNAVAILABLE, or a number.
type statusCode codes.Code

func (c *statusCode) UnmarshalJSON(b []byte) error {
	if err := (*codes.Code)(c).UnmarshalJSON(b); err != nil {
		return fmt.Errorf("status code %s: not a gRPC code (as \"UNAVAILABLE\")", b)
	}
	return nil
}

func asCodes(cs []statusCode) []codes.Code {
	out := make([]codes.Code, len(cs))
	for i, c := range cs {
		out[i] = codes.Code(c)
	}
	return out
}

// Policies are a checked gRPC service config (grpc/service_config.proto
// in its JSON form, as grpc.WithDefaultServiceConfig takes it).
type Policies struct {
	json     string
	hedge    *hedger // nil when no method config hedges
	balanced bool    // it names a load balancing policy
}

// ParseServiceConfig reads a service config and reports what is wrong
// with it: bad JSON (with its line and column), unknown fields, and
// policies grpc-go would refuse or ignore (a retry policy of one attempt,
// a backoff that is not a duration, a status code that does not exist, a
// method naming no service, both retries and hedging for one method).
// grpc-go then parses it too, for what only it knows (the load balancing
// policies registered). The error names the field, as
// methodConfig[0].retryPolicy.maxAttempts.
func ParseServiceConfig(data []byte) (*Policies, error) {
	var sc checkedConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("interceptor: service config: %s", jsonProblem(data, err))
	}
	if dec.More() {
		return nil, errors.New("interceptor: service config: more than one JSON value")
	}
	for i, mc := range sc.MethodConfig {
		if err := mc.check(); err != nil {
			return nil, fmt.Errorf("interceptor: service config: methodConfig[%d].%w", i, err)
		}
	}
	if t := sc.RetryThrottling; t != nil && (t.MaxTokens <= 0 || t.MaxTokens > 1000 || t.TokenRatio <= 0) {
		return nil, errors.New("interceptor: service config: retryThrottling: maxTokens must be in (0, 1000] and tokenRatio positive")
	}
	if err := grpcParses(string(data)); err != nil {
		return nil, err
	}
	balanced := sc.LoadBalancingPolicy != "" || len(sc.LoadBalancingConfig) > 0
	return &Policies{json: string(data), hedge: sc.hedger(), balanced: balanced}, nil
}

// DialOptions install the config: grpc-go's default service config (its
// retries, timeouts, waitForReady, load balancing), and for the methods
// with a hedging policy, which grpc-go ignores, a unary interceptor that
// hedges them. Put them after interceptors that should see a call once
// whatever its attempts (metrics, a breaker).
func (c *Policies) DialOptions() []grpc.DialOption {
	out := []grpc.DialOption{grpc.WithDefaultServiceConfig(c.json)}
	if c.hedge != nil {
		out = append(out, grpc.WithChainUnaryInterceptor(c.hedge.intercept))
	}
	return out
}

// WithRoundRobin returns the config with grpc-go's round_robin load
// balancing when it names no policy of its own, for targets of more than
// one address: a service config given replaces the default one whole.
func (c *Policies) WithRoundRobin() *Policies {
	if c.balanced {
		return c
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(c.json), &m); err != nil || m == nil {
		m = map[string]json.RawMessage{} // "null": ParseServiceConfig took it
	}
	m["loadBalancingConfig"] = json.RawMessage(`[{"round_robin":{}}]`)
	b, _ := json.Marshal(m) // raw JSON already checked, and strings
	return &Policies{json: string(b), hedge: c.hedge, balanced: true}
}

// hedger gathers the method configs' hedging policies by the method
// paths they name; nil when none hedges.
func (sc *checkedConfig) hedger() *hedger {
	h := &hedger{policies: map[string]*HedgePolicy{}}
	hedges := false
	for _, mc := range sc.MethodConfig {
		p := mc.HedgingPolicy.policy()
		hedges = hedges || p != nil
		for _, n := range mc.Name {
			key := ""
			if n.Service != "" {
				key = "/" + n.Service + "/" + n.Method
			}
			h.policies[key] = p
		}
	}
	if !hedges {
		return nil
	}
	return h
}

// policy is the checked policy as a HedgePolicy; nil for none.
func (hp *checkedHedge) policy() *HedgePolicy {
	if hp == nil {
		return nil
	}
	p := &HedgePolicy{MaxAttempts: hp.MaxAttempts, NonFatalCodes: asCodes(hp.NonFatalStatusCodes)}
	if hp.HedgingDelay != nil {
		secs, _ := strconv.ParseFloat(strings.TrimSuffix(*hp.HedgingDelay, "s"), 64) // checked
		p.Delay = time.Duration(secs * float64(time.Second))
	}
	return p
}

// grpcParses has grpc-go parse the config, without connecting anywhere.
func grpcParses(sc string) error {
	cc, err := grpc.NewClient("passthrough:///service-config-check",
		grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(sc))
	if err != nil {
		return fmt.Errorf("interceptor: service config: %s", strings.TrimPrefix(err.Error(), "grpc: "))
	}
	return cc.Close()
}

// jsonProblem says where in data a decoding error is.
func jsonProblem(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return lineCol(data, se.Offset-1) + ": " + se.Error() // Offset is just past the byte
	case errors.As(err, &te):
		return fmt.Sprintf("%s: %s: want a %s, not a JSON %s", lineCol(data, te.Offset), te.Field, te.Type, te.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "no JSON value in it, or only part of one"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineCol renders a byte offset as "line L, column C".
func lineCol(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
}

func (mc checkedMethod) check() error {
	for j, n := range mc.Name {
		if n.Service == "" && n.Method != "" {
			return fmt.Errorf("name[%d]: method %q needs its service", j, n.Method)
		}
	}
	if mc.Timeout != nil {
		if err := checkDuration(*mc.Timeout); err != nil {
			return fmt.Errorf("timeout: %w", err)
		}
	}
	if mc.RetryPolicy != nil && mc.HedgingPolicy != nil {
		return errors.New("retryPolicy and hedgingPolicy: a method has one or the other")
	}
	if mc.RetryPolicy != nil {
		if err := mc.RetryPolicy.check(); err != nil {
			return fmt.Errorf("retryPolicy.%w", err)
		}
	}
	if mc.HedgingPolicy != nil {
		if err := mc.HedgingPolicy.check(); err != nil {
			return fmt.Errorf("hedgingPolicy.%w", err)
		}
	}
	return nil
}

func (r *checkedRetry) check() error {
	if r.MaxAttempts < 2 {
		return fmt.Errorf("maxAttempts: %d, want at least 2 (grpc-go caps it at 5)", r.MaxAttempts)
	}
	for _, d := range []struct{ name, v string }{{"initialBackoff", r.InitialBackoff}, {"maxBackoff", r.MaxBackoff}} {
		if err := checkPositive(d.v); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
	}
	if r.BackoffMultiplier <= 0 {
		return fmt.Errorf("backoffMultiplier: %v, want a positive number", r.BackoffMultiplier)
	}
	if len(r.RetryableStatusCodes) == 0 {
		return errors.New("retryableStatusCodes: want at least one code, as UNAVAILABLE")
	}
	return checkCodes("retryableStatusCodes", r.RetryableStatusCodes)
}

func (h *checkedHedge) check() error {
	if h.MaxAttempts < 2 {
		return fmt.Errorf("maxAttempts: %d, want at least 2 (grpc-go caps it at 5)", h.MaxAttempts)
	}
	if h.HedgingDelay != nil {
		if err := checkDuration(*h.HedgingDelay); err != nil {
			return fmt.Errorf("hedgingDelay: %w", err)
		}
	}
	return checkCodes("nonFatalStatusCodes", h.NonFatalStatusCodes)
}

func checkCodes(field string, cs []statusCode) error {
	for _, c := range cs {
		if codes.Code(c) == codes.OK {
			return fmt.Errorf("%s: OK is not a failure", field)
		}
	}
	return nil
}

// checkPositive checks a duration that must be above zero.
func checkPositive(s string) error {
	if err := checkDuration(s); err != nil {
		return err
	}
	if strings.Trim(strings.TrimSuffix(s, "s"), "0.") == "" {
		return fmt.Errorf("%q: want more than 0s", s)
	}
	return nil
}

// checkDuration checks the JSON form of a protobuf Duration: seconds with
// up to nine decimals and an "s", as "0.25s".
func checkDuration(s string) error {
	num, ok := strings.CutSuffix(s, "s")
	if !ok || num == "" {
		return fmt.Errorf("%q: want seconds with an s, as \"0.5s\"", s)
	}
	whole, frac, _ := strings.Cut(num, ".")
	if len(frac) > 9 || strings.HasPrefix(whole, "-") {
		return fmt.Errorf("%q: want a positive number of seconds with at most 9 decimals", s)
	}
	if _, err := strconv.ParseUint(whole, 10, 63); err != nil || strings.Trim(frac, "0123456789") != "" {
		return fmt.Errorf("%q: want seconds with an s, as \"0.5s\"", s)
	}
	return nil
}
