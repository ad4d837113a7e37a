package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/gateway/internal/gwtest"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/schema"
)

// openAPIs are the documents of the test servers, read once per server.
var openAPIs sync.Map // *httptest.Server -> *gwtest.OpenAPI

// conforms checks a REST response of hs against the OpenAPI document hs
// serves, with libopenapi-validator: every REST case of the gateway's
// tests goes through it.
func conforms(t *testing.T, hs *httptest.Server, method, path string, status int, header http.Header, body []byte) {
	t.Helper()
	oa, ok := openAPIs.Load(hs)
	if !ok {
		doc := get(t, hs.URL+"/openapi.json", http.StatusOK)
		checker, err := gwtest.NewOpenAPI([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		oa, _ = openAPIs.LoadOrStore(hs, checker)
		t.Cleanup(func() { openAPIs.Delete(hs) })
	}
	if err := oa.(*gwtest.OpenAPI).CheckResponse(method, path, status, header, body); err != nil {
		t.Errorf("the response does not conform to the gateway's OpenAPI document: %v", err)
	}
}

// TestOpenAPIServed: with Options.OpenAPI the gateway serves the document
// of the routes in use, valid OpenAPI 3.1 as JSON and YAML, and writes it
// again when it loads other routes.
func TestOpenAPIServed(t *testing.T) {
	g, _ := rpctest.NewGateway(t, gateway.Options{OpenAPI: true})
	hs := httptest.NewServer(g)
	defer hs.Close()
	for _, path := range []string{"/openapi.json", "/openapi.yaml"} {
		oa, err := gwtest.NewOpenAPI([]byte(get(t, hs.URL+path, http.StatusOK)))
		if err != nil {
			t.Fatal(err)
		}
		if err := oa.Validate(); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	want, err := gateway.OpenAPIJSON(g.Routes(), gateway.OpenAPIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := get(t, hs.URL+"/openapi.json", http.StatusOK); got != string(want) {
		t.Fatalf("GET /openapi.json is not the document of the routes:\n%s", got)
	}
	dir := t.TempDir()
	proto := "syntax = \"proto3\";\npackage other.v1;\nservice Other { rpc Ping(Pong) returns (Pong); }\nmessage Pong {}\n"
	if err := os.WriteFile(filepath.Join(dir, "other.proto"), []byte(proto), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := schema.Compile(context.Background(), schema.CompileOptions{Files: []string{"other.proto"}, ImportPaths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Load(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	doc := get(t, hs.URL+"/openapi.yaml", http.StatusOK)
	if !strings.Contains(doc, "/other.v1.Other/Ping:") || strings.Contains(doc, "/v1/echo") {
		t.Fatalf("after a load, the document is not the new routes':\n%s", doc)
	}
}

func TestOpenAPIOff(t *testing.T) {
	hs := rpctest.Gateway(t, gateway.Options{})
	get(t, hs.URL+"/openapi.json", http.StatusNotFound)
}
