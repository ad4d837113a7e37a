package lean

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/invoke/mdvalue"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// The Connect protocol's unary calls: the request message bare (no
// prefix) in a POST of application/proto, the deadline in
// connect-timeout-ms; the response message bare under HTTP 200, its
// trailers in headers named trailer-*, and a failure as a JSON error body
// under another HTTP status.

// connect reports whether the stream's call is a Connect unary call.
func (s *stream) connect() bool { return s.m != nil && s.m.connect }

// payload is what goes on the wire of a request message.
func (s *stream) payload(msg Message) []byte {
	if s.connect() {
		return msg.framed[5:]
	}
	return msg.framed
}

// connectField takes a response header of a Connect call.
func (t *transport) connectField(s *stream, name, value string) {
	switch {
	case name == ":status":
		s.httpStatus, _ = strconv.Atoi(value)
	case name == "content-type":
		s.grpcContent = value == "application/proto" || strings.HasPrefix(value, "application/proto;")
	case strings.HasPrefix(name, "trailer-"):
		s.trailer = appendMD(s.trailer, s.opts.Trailer != nil, strings.TrimPrefix(name, "trailer-"), value)
	case !strings.HasPrefix(name, ":"):
		s.header = appendMD(s.header, s.opts.Header != nil, name, value)
	}
}

func appendMD(md metadata.MD, wanted bool, key, value string) metadata.MD {
	if !wanted {
		return md
	}
	if md == nil {
		md = metadata.MD{}
	}
	md[key] = append(md[key], mdvalue.DecodeOrKeep(key, value))
	return md
}

// connectHeaders ends a Connect response's header block: the call ends
// here when it has no body.
func (t *transport) connectHeaders(s *stream, endStream bool) {
	s.gotHeaders = true
	if s.opts.Header != nil {
		*s.opts.Header = s.header
	}
	if endStream {
		t.endConnectLocked(s)
	}
}

// connectData gathers a Connect response's body, up to maxSize, and ends
// the call with its END_STREAM. It reports whether the call ended: the
// stream is then the caller's again, not to be touched.
func (t *transport) connectData(s *stream, data []byte, endStream bool, maxSize int) bool {
	if len(s.body)+len(data) > maxSize+64<<10 { // room for an error body
		t.finishLocked(s, errorf(codes.ResourceExhausted, "received message larger than max (%d vs. %d)", len(s.body)+len(data), maxSize), true)
		return true
	}
	s.body = append(s.body, data...)
	if endStream {
		t.endConnectLocked(s)
	}
	return endStream
}

// endConnectLocked ends a Connect call: the message under HTTP 200, else
// the error its JSON body gives.
func (t *transport) endConnectLocked(s *stream) {
	if s.opts.Trailer != nil {
		*s.opts.Trailer = s.trailer
	}
	if s.httpStatus == 200 && s.grpcContent {
		if len(s.body) > t.opts.MaxRecvMsgSize {
			t.finishLocked(s, errorf(codes.ResourceExhausted, "received message larger than max (%d vs. %d)", len(s.body), t.opts.MaxRecvMsgSize), false)
			return
		}
		s.grpcStatus = 0
		s.deliver(s.body)
		t.endLocked(s)
		return
	}
	t.finishLocked(s, connectError(s.httpStatus, s.body), !s.halfClosed)
}

// connectError reads a Connect error body; one that is not JSON takes its
// code from the HTTP status.
func connectError(httpStatus int, body []byte) *Error {
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details []struct {
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"details"`
	}
	if json.Unmarshal(body, &e) != nil || e.Code == "" {
		return httpError(httpStatus)
	}
	c := connectCode(e.Code)
	p := &spb.Status{Code: int32(c), Message: e.Message}
	for _, d := range e.Details {
		v, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(d.Value, "="))
		if err == nil {
			p.Details = append(p.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type, Value: v})
		}
	}
	details, _ := proto.Marshal(p)
	return &Error{Code: c, Message: e.Message, Details: details}
}

// connectCode is the code a Connect code name stands for: gRPC's name in
// snake case ("not_found"); an unknown name is Unknown.
func connectCode(name string) codes.Code {
	name = strings.ReplaceAll(name, "_", "")
	for c := codes.OK + 1; c <= codes.Unauthenticated; c++ {
		if strings.EqualFold(c.String(), name) {
			return c
		}
	}
	return codes.Unknown
}

// appendConnectTimeout appends connect-timeout-ms for d (at least 1) as an
// HPACK literal without indexing.
func appendConnectTimeout(b []byte, d time.Duration) []byte {
	ms := max((d+time.Millisecond-1)/time.Millisecond, 1)
	value := strconv.AppendInt(nil, int64(ms), 10)
	b = append(b, 0x00, byte(len("connect-timeout-ms")))
	b = append(b, "connect-timeout-ms"...)
	b = append(b, byte(len(value)))
	return append(b, value...)
}
