package thriftgw_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
)

// BenchmarkPutMedium is POST /v1/medium of the Medium specimen through the
// gateway's handler to the Apache Go server on loopback and back.
func BenchmarkPutMedium(b *testing.B) {
	e := newEnv(b, nil)
	body, err := json.Marshal(thriftfixture.Medium())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/v1/medium", bytes.NewReader(body))
		w := httptest.NewRecorder()
		e.gw.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
