package interceptor

import (
	"strings"
	"testing"
	"time"
)

func TestParseServiceConfig(t *testing.T) {
	for _, tc := range []struct{ name, json, err string }{
		{"empty", `{}`, ""},
		{"retry", `{"methodConfig":[{"name":[{"service":"a.S"}],"timeout":"1.5s","waitForReady":true,
			"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE",14]}}],
			"retryThrottling":{"maxTokens":10,"tokenRatio":0.1},"loadBalancingConfig":[{"round_robin":{}}]}`, ""},
		{"hedge", `{"methodConfig":[{"name":[{}],"hedgingPolicy":{"maxAttempts":2,"hedgingDelay":"0.01s"}}]}`, ""},
		{"syntax", "{\n  \"methodConfig\": [}", "line 2, column 20: invalid character '}'"},
		{"type", `{"methodConfig": {}}`, "methodConfig: want a []interceptor.checkedMethod, not a JSON object"},
		{"nothing", ``, "no JSON value in it"},
		{"two values", `{} {}`, "more than one JSON value"},
		{"unknown", `{"methodConfigs": []}`, `unknown field "methodConfigs"`},
		{"zero backoff", `{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2,"initialBackoff":"0s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}`,
			`methodConfig[0].retryPolicy.initialBackoff: "0s": want more than 0s`},
		{"no codes", `{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2}}]}`,
			`retryPolicy.retryableStatusCodes: want at least one code`},
		{"ok code", `{"methodConfig":[{"name":[{}],"hedgingPolicy":{"maxAttempts":2,"nonFatalStatusCodes":["OK"]}}]}`,
			`hedgingPolicy.nonFatalStatusCodes: OK is not a failure`},
		{"timeout", `{"methodConfig":[{"name":[{}],"timeout":"-1s"}]}`, `methodConfig[0].timeout: "-1s"`},
		{"throttling", `{"retryThrottling":{"maxTokens":0,"tokenRatio":0.1}}`, "retryThrottling: maxTokens must be in (0, 1000]"},
		{"duplicate", `{"methodConfig":[{"name":[{}]},{"name":[{}]}]}`, "service config: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseServiceConfig([]byte(tc.json))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("got %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("got %v, want an error with %q", err, tc.err)
			}
		})
	}
}

// The most specific method config decides, as grpc-go decides: a method
// with a config of its own that does not hedge is not hedged by its
// service's.
func TestHedgePolicyLookup(t *testing.T) {
	p, err := ParseServiceConfig([]byte(`{"methodConfig":[
		{"name":[{"service":"a.S"}],"hedgingPolicy":{"maxAttempts":3,"hedgingDelay":"0.25s"}},
		{"name":[{"service":"a.S","method":"Plain"}],"timeout":"1s"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.hedge.policy("/a.S/Other"); got == nil || got.MaxAttempts != 3 || got.Delay != 250*time.Millisecond {
		t.Errorf("a.S/Other: got %+v, want 3 attempts 250ms apart", got)
	}
	if got := p.hedge.policy("/a.S/Plain"); got != nil {
		t.Errorf("a.S/Plain: got %+v, want no hedging", got)
	}
	if got := p.hedge.policy("/b.T/M"); got != nil {
		t.Errorf("b.T/M: got %+v, want no hedging", got)
	}
}
