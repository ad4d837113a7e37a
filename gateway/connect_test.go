package gateway_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

// connectAnswer is a Connect response taken apart by hand.
type connectAnswer struct {
	status int
	header http.Header
	body   []byte
}

func connectDo(t *testing.T, hs *httptest.Server, method, path, ct string, body []byte, hdr map[string]string) connectAnswer {
	t.Helper()
	req, err := http.NewRequest(method, hs.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept-Encoding", "identity")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return connectAnswer{resp.StatusCode, resp.Header, raw}
}

var connectV1 = map[string]string{"Connect-Protocol-Version": "1"}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireError is a Connect error as clients read it.
type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Type  string          `json:"type"`
		Value string          `json:"value"`
		Debug json.RawMessage `json:"debug"`
	} `json:"details"`
}

func connectError(t *testing.T, a connectAnswer, httpStatus int, code string) wireError {
	t.Helper()
	if a.status != httpStatus || a.header.Get("Content-Type") != "application/json" {
		t.Fatalf("HTTP %d %s, want %d application/json: %s", a.status, a.header.Get("Content-Type"), httpStatus, a.body)
	}
	var e wireError
	if err := json.Unmarshal(a.body, &e); err != nil {
		t.Fatalf("error body %s: %v", a.body, err)
	}
	if e.Code != code {
		t.Fatalf("code %q, want %q: %s", e.Code, code, a.body)
	}
	return e
}

func TestConnectUnary(t *testing.T) {
	hs := startGateway(t, gateway.Options{Headers: []string{"X-Echo-A"}})
	req := marshal(t, &testv1.EchoRequest{Item: &testv1.Item{Name: "a"}, Number: 7})
	a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/proto", req,
		map[string]string{"Connect-Protocol-Version": "1", "X-Echo-A": "v"})
	if a.status != 200 || a.header.Get("Content-Type") != "application/proto" {
		t.Fatalf("HTTP %d %s: %s", a.status, a.header.Get("Content-Type"), a.body)
	}
	var resp testv1.EchoResponse
	if err := proto.Unmarshal(a.body, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.GetNumber() != 7 || resp.GetItem().GetName() != "a" {
		t.Errorf("response %v", &resp)
	}
	if a.header.Get("X-Echo-A") != "v" || a.header.Get("Trailer-X-Trailer-A") != "v" {
		t.Errorf("metadata headers %v, want X-Echo-A and Trailer-X-Trailer-A", a.header)
	}
	a = connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/json", []byte(`{"number":"8"}`), connectV1)
	if a.status != 200 || a.header.Get("Content-Type") != "application/json" || !strings.HasPrefix(string(a.body), `{"number":"8"`) {
		t.Fatalf("HTTP %d %s: %s", a.status, a.header.Get("Content-Type"), a.body)
	}
}

func TestConnectErrorShape(t *testing.T) {
	hs := startGateway(t, gateway.Options{})
	req := marshal(t, &testv1.EchoRequest{FailCode: 5, FailMessage: "no such thing"})
	a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/proto", req, connectV1)
	e := connectError(t, a, 404, "not_found")
	if !strings.Contains(e.Message, "no such thing") || len(e.Details) != 2 {
		t.Fatalf("error %+v", e)
	}
	d := e.Details[0]
	if d.Type != "google.rpc.ErrorInfo" || !strings.Contains(string(d.Debug), `"reason":"REQUESTED"`) {
		t.Errorf("detail %+v", d)
	}
	value, err := base64.RawStdEncoding.DecodeString(d.Value)
	var info errdetails.ErrorInfo
	if err == nil {
		err = proto.Unmarshal(value, &info)
	}
	if err != nil || info.GetReason() != "REQUESTED" {
		t.Errorf("detail value %q: %v %v", d.Value, &info, err)
	}
	// The same request without the Connect header is REST: a google.rpc.Status.
	a = connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/json", []byte(`{"failCode":5}`), nil)
	if a.status != 404 || !strings.HasPrefix(string(a.body), `{"code":5,`) {
		t.Errorf("REST: HTTP %d %s", a.status, a.body)
	}
}

func TestConnectRejects(t *testing.T) {
	hs := startGateway(t, gateway.Options{MaxBodyBytes: 1 << 10})
	echo := marshal(t, &testv1.EchoRequest{})
	for _, tc := range []struct {
		name, method, path, ct string
		body                   []byte
		hdr                    map[string]string
		status                 int
		code                   string
	}{
		{"unknown method", "POST", "/rpckit.test.v1.Test/Nope", "application/proto", echo, connectV1, 404, "unimplemented"},
		{"GET of a method with side effects", "GET", "/rpckit.test.v1.Test/Echo?connect=v1&encoding=proto&message=", "", nil, nil, 405, "unimplemented"},
		{"GET without encoding", "GET", "/rpckit.test.v1.Test/Echo?connect=v1&message=", "", nil, nil, 400, "invalid_argument"},
		{"codec", "POST", "/rpckit.test.v1.Test/Echo", "application/xml", echo, connectV1, 415, "unimplemented"},
		{"stream framing for a unary method", "POST", "/rpckit.test.v1.Test/Echo", "application/connect+proto", echo, nil, 415, "unimplemented"},
		{"unary framing for a stream", "POST", "/rpckit.test.v1.Test/Count", "application/proto", echo, connectV1, 415, "unimplemented"},
		{"bidi on HTTP/1.1", "POST", "/rpckit.test.v1.Test/Chat", "application/connect+proto", nil, nil, 505, "unimplemented"},
		{"bad timeout", "POST", "/rpckit.test.v1.Test/Echo", "application/proto", echo, map[string]string{"Connect-Protocol-Version": "1", "Connect-Timeout-Ms": "12345678901"}, 400, "invalid_argument"},
		{"compression", "POST", "/rpckit.test.v1.Test/Echo", "application/proto", echo, map[string]string{"Connect-Protocol-Version": "1", "Content-Encoding": "br"}, 501, "unimplemented"},
		{"too large", "POST", "/rpckit.test.v1.Test/Echo", "application/proto", make([]byte, 2<<10), connectV1, 429, "resource_exhausted"},
		{"bad JSON", "POST", "/rpckit.test.v1.Test/Echo", "application/json", []byte(`{"numbr":1}`), connectV1, 400, "invalid_argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			connectError(t, connectDo(t, hs, tc.method, tc.path, tc.ct, tc.body, tc.hdr), tc.status, tc.code)
		})
	}
}

func TestConnectTimeout(t *testing.T) {
	hs := startGateway(t, gateway.Options{})
	req := marshal(t, &testv1.EchoRequest{Delay: durationpb.New(10e9)})
	a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/proto", req,
		map[string]string{"Connect-Protocol-Version": "1", "Connect-Timeout-Ms": "50"})
	connectError(t, a, 504, "deadline_exceeded")
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gunzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConnectGzip(t *testing.T) {
	hs := startGateway(t, gateway.Options{})
	name := strings.Repeat("n", 4<<10)
	req := gzipped(t, marshal(t, &testv1.EchoRequest{Item: &testv1.Item{Name: name}}))
	a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/proto", req,
		map[string]string{"Connect-Protocol-Version": "1", "Content-Encoding": "gzip", "Accept-Encoding": "gzip"})
	if a.status != 200 || a.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("HTTP %d %v: %s", a.status, a.header, a.body)
	}
	var resp testv1.EchoResponse
	if err := proto.Unmarshal(gunzipped(t, a.body), &resp); err != nil || resp.GetItem().GetName() != name {
		t.Fatalf("response of %d bytes: %v", len(a.body), err)
	}
	// A gzip bomb is held to the body limit once decompressed.
	hs = startGateway(t, gateway.Options{MaxBodyBytes: 1 << 10})
	a = connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Echo", "application/proto", req,
		map[string]string{"Connect-Protocol-Version": "1", "Content-Encoding": "gzip"})
	connectError(t, a, 429, "resource_exhausted")
}

// envelope frames one Connect stream message.
func envelope(flags byte, msg []byte) []byte {
	out := []byte{flags, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[1:], uint32(len(msg)))
	return append(out, msg...)
}

// envelopes splits a Connect stream response into its messages and the
// end-stream message.
func envelopes(t *testing.T, b []byte) (msgs [][]byte, end []byte) {
	t.Helper()
	for len(b) > 0 {
		if len(b) < 5 || len(b) < 5+int(binary.BigEndian.Uint32(b[1:5])) {
			t.Fatalf("envelope cut short: % x", b)
		}
		n := int(binary.BigEndian.Uint32(b[1:5]))
		flags, msg := b[0], b[5:5+n]
		b = b[5+n:]
		if flags&0x01 != 0 {
			msg = gunzipped(t, msg)
		}
		if flags&0x02 != 0 {
			if len(b) != 0 {
				t.Fatalf("%d bytes after the end-stream message", len(b))
			}
			return msgs, msg
		}
		msgs = append(msgs, msg)
	}
	t.Fatal("no end-stream message")
	return nil, nil
}

func TestConnectServerStream(t *testing.T) {
	hs := startGateway(t, gateway.Options{Headers: []string{"X-Echo-A"}})
	for _, tc := range []struct {
		name    string
		req     *testv1.CountRequest
		want    int
		wantEnd string
	}{
		{"ok", &testv1.CountRequest{Count: 3}, 3, `{"metadata":{"x-trailer-a":["v"]}}`},
		{"fails after 2", &testv1.CountRequest{Count: 3, FailAfter: 2, FailCode: 9}, 2, `"code":"failed_precondition","message":"failed after 2 messages"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := envelope(0, marshal(t, tc.req))
			a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Count", "application/connect+proto", body, map[string]string{"X-Echo-A": "v"})
			if a.status != 200 || a.header.Get("Content-Type") != "application/connect+proto" || a.header.Get("X-Echo-A") != "v" {
				t.Fatalf("HTTP %d %v", a.status, a.header)
			}
			msgs, end := envelopes(t, a.body)
			if len(msgs) != tc.want || !strings.Contains(string(end), tc.wantEnd) {
				t.Fatalf("%d messages, end %s; want %d, %s", len(msgs), end, tc.want, tc.wantEnd)
			}
			var last testv1.EchoResponse
			if err := proto.Unmarshal(msgs[len(msgs)-1], &last); err != nil || last.GetNumber() != int64(tc.want) {
				t.Errorf("last message %v: %v", &last, err)
			}
		})
	}
}

func TestConnectClientStreamJSON(t *testing.T) {
	hs := startGateway(t, gateway.Options{})
	var body []byte
	for _, n := range []string{`{"number":"1"}`, `{"number":"2"}`, `{"number":"4"}`} {
		body = append(body, envelope(0, []byte(n))...)
	}
	body = append(body, envelope(0x01, gzipped(t, []byte(`{"number":"8"}`)))...)
	a := connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Sum", "application/connect+json", body,
		map[string]string{"Connect-Content-Encoding": "gzip"})
	msgs, end := envelopes(t, a.body)
	if len(msgs) != 1 || string(msgs[0]) != `{"total":"15","messages":4}` || string(end) != `{}` {
		t.Fatalf("messages %q, end %s", msgs, end)
	}
	// Bad input in the third message ends the call with its error.
	body = append(envelope(0, []byte(`{}`)), envelope(0, []byte(`{}`))...)
	body = append(body, envelope(0, []byte(`{"numbr":1}`))...)
	a = connectDo(t, hs, "POST", "/rpckit.test.v1.Test/Sum", "application/connect+json", body, nil)
	if msgs, end = envelopes(t, a.body); len(msgs) != 0 || !strings.Contains(string(end), `"code":"invalid_argument","message":"request 3: `) {
		t.Fatalf("messages %q, end %s", msgs, end)
	}
}
