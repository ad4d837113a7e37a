package thriftgw_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
)

// BenchmarkPutMedium is PutMedium of the whole Medium specimen (POST
// /BenchService/PutMedium, bench.thrift's PutMedium taking every field of
// Medium) through the gateway's handler to the Apache Go server on
// loopback and back.
func BenchmarkPutMedium(b *testing.B) {
	e := newEnv(b, nil)
	if err := e.gw.Load(loadIDL(b, "../../thrift/testdata/bench.thrift")); err != nil {
		b.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{"req": thriftfixture.Medium()})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/BenchService/PutMedium", bytes.NewReader(body))
		w := httptest.NewRecorder()
		e.gw.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
