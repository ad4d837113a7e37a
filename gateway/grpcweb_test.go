package gateway_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
)

// webResponse is a gRPC-Web response taken apart by hand, as a browser
// client would: HTTP headers, data frames, and the trailer frame's block.
type webResponse struct {
	header   http.Header
	messages [][]byte
	trailer  map[string]string // from the trailer frame; nil when none
}

// status is grpc-status, from the trailer frame or, for a trailers-only
// response, from the headers.
func (r webResponse) status() string {
	if r.trailer != nil {
		return r.trailer["grpc-status"]
	}
	return r.header.Get("Grpc-Status")
}

// webFrame encodes one gRPC-Web frame.
func webFrame(flag byte, payload []byte) []byte {
	out := []byte{flag, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(out[1:], uint32(len(payload)))
	return append(out, payload...)
}

// webBody is the request body of msg; in text mode the frame is split in
// two and each part is base64-encoded on its own, padding included, as
// clients that encode chunk by chunk send it.
func webBody(t *testing.T, text bool, msg proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	frame := webFrame(0, b)
	if !text {
		return frame
	}
	cut := len(frame)/2 + 1
	return []byte(base64.StdEncoding.EncodeToString(frame[:cut]) + base64.StdEncoding.EncodeToString(frame[cut:]))
}

func postWeb(t *testing.T, hs *httptest.Server, path string, text bool, body []byte, hdr map[string]string) webResponse {
	t.Helper()
	req, err := http.NewRequest("POST", hs.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	ct := "application/grpc-web+proto"
	if text {
		ct = "application/grpc-web-text"
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-Grpc-Web", "1")
	req.Header.Set("X-Forwarded-Host", "gw.test")
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
	if resp.StatusCode != 200 {
		t.Fatalf("HTTP %d: %s", resp.StatusCode, raw)
	}
	if text {
		raw = decodeChunkedBase64(t, raw)
	}
	out := webResponse{header: resp.Header}
	parseFrames(t, raw, &out)
	return out
}

// decodeChunkedBase64 decodes base64 made of separately padded parts.
func decodeChunkedBase64(t *testing.T, s []byte) []byte {
	t.Helper()
	var out []byte
	for len(s) > 0 {
		end := bytes.IndexByte(s, '=')
		if end < 0 {
			end = len(s)
		} else {
			for end < len(s) && s[end] == '=' {
				end++
			}
		}
		part, err := base64.StdEncoding.DecodeString(string(s[:end]))
		if err != nil {
			t.Fatalf("response base64: %v", err)
		}
		out, s = append(out, part...), s[end:]
	}
	return out
}

func parseFrames(t *testing.T, b []byte, out *webResponse) {
	t.Helper()
	for len(b) > 0 {
		if len(b) < 5 {
			t.Fatalf("frame header cut short: % x", b)
		}
		n := int(binary.BigEndian.Uint32(b[1:5]))
		flag, payload := b[0], b[5:5+n]
		b = b[5+n:]
		if flag == 0x80 {
			out.trailer = map[string]string{}
			for _, line := range strings.Split(strings.TrimSuffix(string(payload), "\r\n"), "\r\n") {
				k, v, _ := strings.Cut(line, ":")
				out.trailer[strings.ToLower(k)] = strings.TrimSpace(v)
			}
			if len(b) != 0 {
				t.Fatalf("%d bytes after the trailer frame", len(b))
			}
			return
		}
		if out.trailer != nil || flag != 0 {
			t.Fatalf("frame with flags %#x", flag)
		}
		out.messages = append(out.messages, payload)
	}
}

func decodeAs[M proto.Message](t *testing.T, b []byte, m M) M {
	t.Helper()
	if err := proto.Unmarshal(b, m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGRPCWeb(t *testing.T) {
	hs := startGateway(t, gateway.Options{
		Headers: []string{"X-Tenant"},
		Mask:    map[protoreflect.FullName][]string{"rpckit.test.v1.EchoResponse": {"item.tags"}},
	})
	for _, text := range []bool{false, true} {
		t.Run(fmt.Sprintf("text=%v", text), func(t *testing.T) {
			t.Run("unary", func(t *testing.T) { testWebUnary(t, hs, text) })
			t.Run("server stream", func(t *testing.T) { testWebStream(t, hs, text) })
			t.Run("stream fails part-way", func(t *testing.T) { testWebStreamError(t, hs, text) })
			t.Run("errors", func(t *testing.T) { testWebErrors(t, hs, text) })
		})
	}
}

func testWebUnary(t *testing.T, hs *httptest.Server, text bool) {
	req := &testv1.EchoRequest{Item: &testv1.Item{Name: "a", Tags: []string{"secret"}}, Number: 3}
	resp := postWeb(t, hs, "/rpckit.test.v1.Test/Echo", text, webBody(t, text, req),
		map[string]string{"X-Echo-K": "dropped", "Grpc-Metadata-X-Echo-K": "v", "X-Tenant": "acme"})
	if len(resp.messages) != 1 || resp.status() != "0" {
		t.Fatalf("messages %d, trailer %v", len(resp.messages), resp.trailer)
	}
	got := decodeAs(t, resp.messages[0], &testv1.EchoResponse{})
	want := &testv1.EchoResponse{Item: &testv1.Item{Name: "a"}, Number: 3, Metadata: []string{"x-echo-k=v", "x-forwarded-for=127.0.0.1", "x-forwarded-host=gw.test", "x-tenant=acme"}}
	if !proto.Equal(got, want) {
		t.Errorf("response %v, want %v", got, want)
	}
	wantCT := map[bool]string{false: "application/grpc-web+proto", true: "application/grpc-web-text+proto"}[text]
	if ct := resp.header.Get("Content-Type"); ct != wantCT {
		t.Errorf("Content-Type %q, want %q", ct, wantCT)
	}
	if resp.header.Get("X-Echo-K") != "v" || resp.trailer["x-trailer-k"] != "v" {
		t.Errorf("metadata back: header %v, trailer %v", resp.header, resp.trailer)
	}
}

func testWebStream(t *testing.T, hs *httptest.Server, text bool) {
	resp := postWeb(t, hs, "/rpckit.test.v1.Test/Count", text, webBody(t, text, &testv1.CountRequest{Count: 3}), nil)
	if len(resp.messages) != 3 || resp.status() != "0" {
		t.Fatalf("messages %d, trailer %v", len(resp.messages), resp.trailer)
	}
	for i, m := range resp.messages {
		if n := decodeAs(t, m, &testv1.EchoResponse{}).GetNumber(); n != int64(i+1) {
			t.Errorf("message %d: number %d", i, n)
		}
	}
}

func testWebStreamError(t *testing.T, hs *httptest.Server, text bool) {
	req := &testv1.CountRequest{Count: 3, FailAfter: 2, FailCode: 5}
	resp := postWeb(t, hs, "/rpckit.test.v1.Test/Count", text, webBody(t, text, req), nil)
	if len(resp.messages) != 2 || resp.status() != "5" || resp.trailer["grpc-message"] != "failed after 2 messages" {
		t.Fatalf("messages %d, trailer %v", len(resp.messages), resp.trailer)
	}
	details, err := base64.RawStdEncoding.DecodeString(resp.trailer["grpc-status-details-bin"])
	if err != nil {
		t.Fatal(err)
	}
	st := decodeAs(t, details, &spb.Status{})
	if st.GetCode() != 5 || len(st.GetDetails()) != 2 {
		t.Fatalf("details: %v", st)
	}
	info := &errdetails.ErrorInfo{}
	if err := st.GetDetails()[0].UnmarshalTo(info); err != nil || info.GetReason() != "REQUESTED" {
		t.Errorf("detail 0: %v %v", info, err)
	}
}

// webError is a gRPC-Web request that fails before any message: a
// trailers-only response, status in the headers and an empty body.
type webError struct {
	name, path string
	body       []byte
	header     map[string]string
	code       string
	message    string // a substring of grpc-message
}

func testWebErrors(t *testing.T, hs *httptest.Server, text bool) {
	two := append(webBody(t, false, &testv1.EchoRequest{}), webBody(t, false, &testv1.EchoRequest{})...)
	if text {
		two = []byte(base64.StdEncoding.EncodeToString(two))
	}
	for _, tc := range []webError{
		{name: "status from the upstream", path: "/rpckit.test.v1.Test/Echo",
			body: webBody(t, text, &testv1.EchoRequest{FailCode: 5, FailMessage: "no such item: 100%"}),
			code: "5", message: "no such item: 100%25"},
		{name: "deadline", path: "/rpckit.test.v1.Test/Echo", header: map[string]string{"Grpc-Timeout": "50m"},
			body: webBody(t, text, &testv1.EchoRequest{Delay: durationpb.New(5e9)}), code: "4"},
		{name: "client stream", path: "/rpckit.test.v1.Test/Sum", body: webBody(t, text, &testv1.EchoRequest{}),
			code: "12", message: "gRPC-Web cannot carry"},
		{name: "unknown method", path: "/rpckit.test.v1.Test/Nope", body: webBody(t, text, &testv1.EchoRequest{}),
			code: "12", message: "unknown method /rpckit.test.v1.Test/Nope"},
		{name: "two messages", path: "/rpckit.test.v1.Test/Echo", body: two, code: "3", message: "has 2 messages, want 1"},
		{name: "cut short", path: "/rpckit.test.v1.Test/Echo", body: cutShort(text), code: "3", message: "cut short"},
		{name: "compressed", path: "/rpckit.test.v1.Test/Echo", body: maybeText(text, webFrame(1, []byte{8, 1})),
			code: "12", message: "compressed messages are not served"},
		{name: "frame past the limit", path: "/rpckit.test.v1.Test/Echo", body: maybeText(text, []byte{0, 0x40, 0, 0, 0, 8, 1, 0}),
			code: "8", message: "message of 1073741824 bytes, past the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := postWeb(t, hs, tc.path, text, tc.body, tc.header)
			if resp.trailer != nil || len(resp.messages) != 0 {
				t.Fatalf("want trailers-only, got %d messages, trailer %v", len(resp.messages), resp.trailer)
			}
			if resp.status() != tc.code || !strings.Contains(resp.header.Get("Grpc-Message"), tc.message) {
				t.Fatalf("status %s %q, want %s %q", resp.status(), resp.header.Get("Grpc-Message"), tc.code, tc.message)
			}
		})
	}
	if text {
		resp := postWeb(t, hs, "/rpckit.test.v1.Test/Echo", true, []byte("AAAA!AAA"), nil)
		if resp.status() != "3" || !strings.Contains(resp.header.Get("Grpc-Message"), "bad base64 at byte 4") {
			t.Fatalf("bad base64: %v", resp.header)
		}
	}
}

// maybeText is b as the body of a grpc-web-text request when text is set.
func maybeText(text bool, b []byte) []byte {
	if text {
		return []byte(base64.StdEncoding.EncodeToString(b))
	}
	return b
}

func cutShort(text bool) []byte {
	b := webFrame(0, []byte{8, 1})[:6]
	if text {
		return []byte(base64.StdEncoding.EncodeToString(b))
	}
	return b
}

func TestGRPCWebCORS(t *testing.T) {
	hs := startGateway(t, gateway.Options{CORSOrigins: []string{"https://app.example"}})
	req, _ := http.NewRequest("OPTIONS", hs.URL+"/rpckit.test.v1.Test/Echo", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "x-grpc-web,x-user-agent,content-type,grpc-timeout,x-not-forwarded")
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Headers"); resp.StatusCode != 204 || got != "x-grpc-web, x-user-agent, content-type, grpc-timeout" {
		t.Fatalf("preflight: %d, allowed headers %q", resp.StatusCode, got)
	}
	web := postWeb(t, hs, "/rpckit.test.v1.Test/Echo", false, webBody(t, false, &testv1.EchoRequest{}),
		map[string]string{"Origin": "https://app.example", "Grpc-Metadata-X-Echo-K": "v"})
	exposed := web.header.Get("Access-Control-Expose-Headers")
	for _, h := range []string{"Grpc-Status", "Grpc-Message", "x-echo-k"} {
		if !strings.Contains(exposed, h) {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, h)
		}
	}
}
