package gwmetrics

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A sub-millisecond request lands in a bucket under a millisecond, so a
// scrape can tell a 0.4 ms gateway from a 4 ms one.
func TestSubMillisecondBuckets(t *testing.T) {
	m := New()
	m.Observe("rest", "POST /v1/rank", "200", 400*time.Microsecond)
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", Path, nil))
	body := rec.Body.String()
	for _, want := range []string{
		`rpckit_gateway_request_duration_seconds_bucket{protocol="rest",route="POST /v1/rank",le="0.00025"} 0`,
		`rpckit_gateway_request_duration_seconds_bucket{protocol="rest",route="POST /v1/rank",le="0.0005"} 1`,
		`rpckit_gateway_request_duration_seconds_bucket{protocol="rest",route="POST /v1/rank",le="0.2"} 1`,
		`rpckit_gateway_requests_total{code="200",protocol="rest",route="POST /v1/rank"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s\n%s", want, body)
		}
	}
}

// StatusWriter keeps the first final status; none written is 200.
func TestStatusWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	s := &StatusWriter{ResponseWriter: rec}
	if s.Code() != 200 {
		t.Errorf("no status written: Code() = %d, want 200", s.Code())
	}
	s.WriteHeader(103)
	s.WriteHeader(404)
	s.WriteHeader(500)
	if s.Code() != 404 {
		t.Errorf("Code() = %d, want 404, the first final status", s.Code())
	}
}
