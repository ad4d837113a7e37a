package gwtest_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/gateway/internal/gwtest"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	gwtestv1 "github.com/rpckit/rpckit/internal/gen/rpckit/gwtest/v1"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/reflection"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
)

// startGateway starts an Everything service on loopback and returns
// rpckit's gateway in front of it, with routes from reflection, and the
// service's address; both go when the test ends.
func startGateway(tb testing.TB) (*gateway.Gateway, string) {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := grpc.NewServer()
	gwtestv1.RegisterEverythingServer(srv, gwtest.Service{})
	reflection.Register(srv)
	go srv.Serve(lis)
	tb.Cleanup(srv.Stop)
	addr := lis.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := invoke.Dial(ctx, addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	tb.Cleanup(refl.Close)
	g, err := gateway.New(ctx, gateway.Options{Conn: conn, Source: refl, Timeout: 10 * time.Second, OpenAPI: true})
	if err != nil {
		tb.Fatal(err)
	}
	return g, addr
}

// pair is the same upstream behind both gateways, and the OpenAPI
// document ours serves, which each of its answers is checked against.
type pair struct {
	ours, theirs *httptest.Server
	openapi      *gwtest.OpenAPI
}

func startPair(t *testing.T) pair {
	t.Helper()
	g, addr := startGateway(t)
	// grpc-gateway forwards Grpc-Metadata-* only with its legacy matcher
	// (its default since 2.3x forwards permanent headers alone); rpckit
	// gateway forwards them as the issue asks, so the comparison uses it.
	mux := runtime.NewServeMux(runtime.WithIncomingHeaderMatcher(runtime.LegacyHeaderMatcher))
	dial := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if err := gwtestv1.RegisterEverythingHandlerFromEndpoint(context.Background(), mux, addr, dial); err != nil {
		t.Fatal(err)
	}
	p := pair{ours: httptest.NewServer(g), theirs: httptest.NewServer(mux)}
	t.Cleanup(p.ours.Close)
	t.Cleanup(p.theirs.Close)
	doc := do(t, p.ours, dcase{method: "GET", path: "/openapi.json"})
	var err error
	if p.openapi, err = gwtest.NewOpenAPI([]byte(doc.raw)); err != nil {
		t.Fatal(err)
	}
	if err := p.openapi.Validate(); err != nil {
		t.Fatal(err)
	}
	return p
}

// answer is one gateway's response, body parsed as the messages it holds.
type answer struct {
	status int
	header http.Header
	raw    string
}

func do(t *testing.T, hs *httptest.Server, c dcase) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, c.method, hs.URL+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, raw: string(b)}
}

// parsed is a body as protobuf messages: one for a unary answer (the
// response, or the google.rpc.Status of an error), one per line of a
// stream, each line's "result" or "error".
func parsed(t *testing.T, a answer, c dcase) []proto.Message {
	t.Helper()
	if !c.stream {
		return []proto.Message{unmarshal(t, a.raw, c.message(a.status))}
	}
	var out []proto.Message
	for _, line := range strings.Split(strings.TrimSpace(a.raw), "\n") {
		if line == "" {
			continue
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &env); err != nil || len(env) != 1 {
			t.Fatalf("stream line %q: want one of result or error (%v)", line, err)
		}
		if r, ok := env["result"]; ok {
			out = append(out, unmarshal(t, string(r), c.resp()))
		} else {
			out = append(out, unmarshal(t, string(env["error"]), &spb.Status{}))
		}
	}
	return out
}

func unmarshal(t *testing.T, s string, m proto.Message) proto.Message {
	t.Helper()
	if err := protojson.Unmarshal([]byte(s), m); err != nil {
		t.Fatalf("body %q is not a %s: %v", s, m.ProtoReflect().Descriptor().FullName(), err)
	}
	return m
}

// dcase is one request sent to both gateways.
type dcase struct {
	name, method, path, body string
	header                   map[string]string
	resp                     func() proto.Message // type of a 200 answer (or of a stream's results)
	stream                   bool
	status                   int // expected from both
	// own marks an error the gateways make themselves (routing, decoding):
	// status and code must agree; the message text is each one's own.
	own bool
	// headers must be the same in both answers.
	headers []string
	// differs names a deliberate difference (see the package doc of
	// gateway): grpc-gateway answers with theirStatus, ours with status,
	// and ours contains oursHas.
	differs     string
	theirStatus int
	oursHas     string
}

func (c dcase) message(httpStatus int) proto.Message {
	if httpStatus != http.StatusOK {
		return &spb.Status{}
	}
	return c.resp()
}

func item() proto.Message   { return &gwtestv1.Item{} }
func list() proto.Message   { return &gwtestv1.ListItemsResponse{} }
func file() proto.Message   { return &gwtestv1.File{} }
func lookup() proto.Message { return &gwtestv1.LookupRequest{} }
func empty() proto.Message  { return &emptypb.Empty{} }
func medium() proto.Message { return &fixturev1.Medium{} }
func hdr(kv ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

const listQuery = "page_size=10&pageToken=abc&filter.tags=a&filter.tags=b&filter.kind=KIND_BOOK" +
	"&filter.kinds=1&filter.kinds=KIND_GAME&filter.created_after=2024-01-02T03:04:05.5Z" +
	"&filter.max_ttl=1.5s&filter.min_price=2.5&filter.archived=true&filter.name_prefix=ab" +
	"&filter.min_views=-7&filter.size.unit=cm&filter.size.width=1.5&filter.token=AQID" +
	"&filter.limit=18446744073709551615&filter.ratio=0.25&filter.ids=1&filter.ids=2" +
	"&read_mask=display_name,size.unit"

const createBody = `{"displayName":"x","kind":"KIND_GAME","tags":["a","b"],"size":{"width":2,"unit":"cm"},` +
	`"createTime":"2024-01-02T03:04:05.5Z","ttl":"3s","stock":5,"price":1.25,"views":"12",` +
	`"labels":{"k":"v"},"data":"AQID","archived":false}`

var cases = []dcase{
	// Paths.
	{name: "multi-segment variable", method: "GET", path: "/v1/projects/p1/items/i1", resp: item, status: 200,
		headers: []string{"Content-Type", "Grpc-Metadata-X-Resp-H"}},
	{name: "escaped segment", method: "GET", path: "/v1/projects/p%201/items/i%3A1", resp: item, status: 200},

	{name: "deep variable", method: "GET", path: "/v1/files/a/b/c.txt", resp: file, status: 200},
	{name: "deep variable, one segment", method: "GET", path: "/v1/files/readme", resp: file, status: 200},
	{name: "nested fields from the path, query too", method: "GET", path: "/v1/regions/eu-west/keys/42?hint=h", resp: lookup, status: 200},
	{name: "additional binding", method: "GET", path: "/v1/items?parent=projects/x", resp: list, status: 200},
	// Queries.
	{name: "query parameters of every kind", method: "GET", path: "/v1/projects/p1/items?" + listQuery, resp: list, status: 200},
	{name: "enum by number, json names", method: "GET", path: "/v1/projects/p1/items?filter.kind=2&pageSize=3&filter.minPrice=1", resp: list, status: 200},
	{name: "bad number in query", method: "GET", path: "/v1/projects/p1/items?page_size=ten", resp: list, status: 400, own: true},
	{name: "bad enum in query", method: "GET", path: "/v1/projects/p1/items?filter.kind=KIND_NONE", resp: list, status: 400, own: true},
	// Bodies.
	{name: "body field and query", method: "POST", path: "/v1/projects/p1/items?item_id=i9", body: createBody, resp: item, status: 200},
	{name: "empty body field", method: "POST", path: "/v1/projects/p1/items?itemId=i8", body: `{}`, resp: item, status: 200},
	{name: "patch fills the update mask from the body", method: "PATCH", path: "/v1/projects/p1/items/i1",
		body: `{"displayName":"y","size":{"unit":"mm","width":3},"tags":["t"],"labels":{"a":"b"},"createTime":"2024-01-02T03:04:05Z"}`, resp: item, status: 200},
	{name: "patch with an update mask in the query", method: "PATCH", path: "/v1/projects/p1/items/i1?update_mask=tags",
		body: `{"displayName":"y","tags":["t"]}`, resp: item, status: 200},
	{name: "put body * with path field", method: "PUT", path: "/v2/projects/p1/items/i1",
		body: `{"item":{"displayName":"z"},"allowMissing":true}`, resp: item, status: 200},
	{name: "delete", method: "DELETE", path: "/v1/projects/p1/items/i1", resp: empty, status: 200},
	{name: "custom verb, response_body", method: "POST", path: "/v1/projects/p1/items/i1:archive", body: `{"reason":"old"}`, resp: item, status: 200},
	{name: "medium echo", method: "POST", path: "/v1/echo", body: mediumJSON, resp: medium, status: 200},
	{name: "bad JSON", method: "POST", path: "/v1/echo", body: `{"id":`, resp: medium, status: 400, own: true},
	{name: "wrong JSON type", method: "POST", path: "/v1/echo", body: `{"id":{}}`, resp: medium, status: 400, own: true},
	// Errors from the upstream, with details.
	{name: "not found", method: "GET", path: "/v1/projects/p1/items/missing", resp: item, status: 404, headers: []string{"Grpc-Metadata-X-Resp-H"}},
	{name: "permission denied", method: "GET", path: "/v1/projects/p1/items/denied", resp: item, status: 403},
	{name: "invalid argument", method: "POST", path: "/v1/projects/p1/items/invalid:archive", body: `{}`, resp: item, status: 400},
	{name: "unavailable", method: "DELETE", path: "/v1/projects/p1/items/unavailable", resp: empty, status: 503},
	// Routing.
	{name: "no route", method: "GET", path: "/v9/nothing", resp: item, status: 404, own: true},
	{name: "bad timestamp in query", method: "GET", path: "/v1/projects/p1/items?filter.created_after=yesterday", resp: list, status: 400, own: true},
	{name: "repeated value for a singular field", method: "GET", path: "/v1/projects/p1/items?page_size=1&page_size=2", resp: list, status: 400, own: true},
	// Metadata.
	{name: "forwarded metadata", method: "GET", path: "/v1/projects/p1/items/i1", resp: item, status: 200,
		header:  hdr("Authorization", "Bearer t", "Grpc-Metadata-X-Echo-A", "1", "X-Echo-B", "dropped"),
		headers: []string{"Grpc-Metadata-X-Resp-H"}},
	// Server streams.
	{name: "server stream", method: "GET", path: "/v1/projects/p1/items:watch?count=3", resp: item, stream: true, status: 200},
	{name: "empty server stream", method: "GET", path: "/v1/projects/p1/items:watch", resp: item, stream: true, status: 200},
	{name: "stream fails part-way", method: "GET", path: "/v1/projects/p1/items:watch?count=3&fail_after=2", resp: item, stream: true, status: 200},
	// Deliberate differences.
	{name: "escaped slash in a segment", method: "GET", path: "/v1/projects/p1/items/a%2Fb", status: 200,
		differs: "an escaped slash stays in its segment", theirStatus: 404, oursHas: `"name":"projects/p1/items/a%2Fb"`},
	{name: "unknown query parameter", method: "GET", path: "/v1/projects/p1/items?nope=1", status: 400,
		differs: "unknown query parameters are errors", theirStatus: 200, oursHas: `query parameter \"nope\"`},
	{name: "unknown body field", method: "POST", path: "/v1/echo", body: `{"nope":1}`, status: 400,
		differs: "unknown JSON fields are errors", theirStatus: 200, oursHas: `nope`},
	{name: "duration in Go syntax", method: "GET", path: "/v1/projects/p1/items?filter.max_ttl=90m", status: 400,
		differs: "well-known types take their JSON forms only", theirStatus: 200, oursHas: `"code":3`},
	{name: "method by name", method: "POST", path: "/rpckit.gwtest.v1.Everything/GetItem", body: `{"name":"n"}`, status: 200,
		differs: "every method at POST /pkg.Service/Method", theirStatus: 404, oursHas: `"name":"n"`},
	{name: "method not allowed", method: "PUT", path: "/v1/echo", body: `{}`, status: 405,
		differs: "a known path with another method is 405", theirStatus: 501, oursHas: `allowed: POST`},
	{name: "request id forwarded", method: "GET", path: "/v1/projects/p1/items/i1", header: hdr("X-Request-Id", "r1"), status: 200,
		differs: "X-Request-Id is forwarded", theirStatus: 200, oursHas: `"x-request-id":"r1"`},
	{name: "stream fails at once", method: "GET", path: "/v1/projects/missing/items:watch?count=3", resp: item, stream: true, status: 404},
}

// mediumJSON is a Medium with every field set.
const mediumJSON = `{"id":"7","title":"t","header":{"source":"s","created":"3","meta":{"region":"r",` +
	`"origin":{"host":"h","port":80,"latitude":1.5,"longitude":-2.5},"tags":["a"]}},` +
	`"entries":[{"id":"1","name":"n","price":2.25,"quantity":3,"status":"STATUS_ACTIVE"}],` +
	`"samples":["1","-2"],"labels":["l"],"statuses":["STATUS_PAUSED"],"attributes":{"k":"v"},` +
	`"names":{"5":"five"},"counters":{"c":"9"},"index":{"x":{"id":"2"}},"score":0.5,"archived":true}`

func TestSameAsGRPCGateway(t *testing.T) {
	p := startPair(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ours, theirs := do(t, p.ours, c), do(t, p.theirs, c)
			if err := p.openapi.CheckResponse(c.method, c.path, ours.status, ours.header, []byte(ours.raw)); err != nil {
				t.Errorf("our answer does not conform to our OpenAPI document: %v", err)
			}
			if c.differs != "" {
				if ours.status != c.status || theirs.status != c.theirStatus || !strings.Contains(ours.raw, c.oursHas) {
					t.Fatalf("%s: ours %d %s, grpc-gateway %d %s; want ours %d with %s, grpc-gateway %d",
						c.differs, ours.status, ours.raw, theirs.status, theirs.raw, c.status, c.oursHas, c.theirStatus)
				}
				return
			}
			if ours.status != c.status || theirs.status != c.status {
				t.Fatalf("status: ours %d, grpc-gateway %d, want %d\nours:   %s\ntheirs: %s", ours.status, theirs.status, c.status, ours.raw, theirs.raw)
			}
			compareBodies(t, c, ours, theirs)
			for _, h := range c.headers {
				if ours.header.Get(h) != theirs.header.Get(h) {
					t.Errorf("header %s: ours %q, grpc-gateway %q", h, ours.header.Get(h), theirs.header.Get(h))
				}
			}
		})
	}
}

func compareBodies(t *testing.T, c dcase, ours, theirs answer) {
	t.Helper()
	om, tm := parsed(t, ours, c), parsed(t, theirs, c)
	if c.own {
		oc, tc := om[0].(*spb.Status).GetCode(), tm[0].(*spb.Status).GetCode()
		if oc != tc {
			t.Errorf("code: ours %d, grpc-gateway %d\nours:   %s\ntheirs: %s", oc, tc, ours.raw, theirs.raw)
		}
		return
	}
	if len(om) != len(tm) {
		t.Fatalf("ours %d messages, grpc-gateway %d\nours:   %s\ntheirs: %s", len(om), len(tm), ours.raw, theirs.raw)
	}
	for i := range om {
		if !proto.Equal(om[i], tm[i]) {
			t.Errorf("message %d differs\nours:   %s\ntheirs: %s", i, ours.raw, theirs.raw)
		}
	}
}
