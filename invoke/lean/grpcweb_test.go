package lean

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// TestWebTrailerFrame: a gRPC-Web body's trailer frame (flag 0x80), cut
// into DATA frames anywhere, ends the messages and gives the status and
// the trailers; for a gRPC call the same flag is not a trailer frame.
func TestWebTrailerFrame(t *testing.T) {
	block := "grpc-status: 5\r\ngrpc-message: no%20such\r\nX-Extra: a\r\nx-b-bin: AP8\r\n"
	body := append([]byte{0, 0, 0, 0, 2, 8, 1}, 0x80, 0, 0, 0, byte(len(block)))
	body = append(body, block...)
	for cut := 1; cut <= len(body); cut++ {
		var trailer metadata.MD
		var got int
		s := &stream{m: &Method{web: true}, grpcStatus: -1,
			opts: &CallOptions{OnMessage: func([]byte) { got++ }, Trailer: &trailer}}
		for p := body; len(p) > 0; {
			n := min(len(p), cut)
			if err := s.deframe(p[:n], 200); err != nil {
				t.Fatalf("cut %d: %v", cut, err)
			}
			p = p[n:]
		}
		st := s.status()
		if !s.webEnded || got != 1 || s.msgs != 1 || st == nil || st.Code != 5 || st.Message != "no such" {
			t.Fatalf("cut %d: ended %v, %d messages, status %v", cut, s.webEnded, got, st)
		}
		if s.trailer.Get("x-extra")[0] != "a" || s.trailer.Get("x-b-bin")[0] != "\x00\xff" {
			t.Fatalf("cut %d: trailers %v", cut, s.trailer)
		}
		if err := s.deframe([]byte{0, 0, 0, 0, 0}, 200); err == nil {
			t.Fatalf("cut %d: data after the trailer frame taken", cut)
		}
	}
	s := &stream{m: &Method{}, grpcStatus: -1, opts: &CallOptions{}}
	if err := s.deframe([]byte{0x80, 0, 0, 0, 0}, 200); err != nil || s.webEnded || s.msgs != 1 {
		t.Errorf("gRPC: %v, ended %v, %d messages", err, s.webEnded, s.msgs)
	}
}

// TestConnectErrorBody: a Connect error body gives the code, the message
// and the details; a body that is not one, the HTTP status's code.
func TestConnectErrorBody(t *testing.T) {
	body := `{"code":"failed_precondition","message":"not yet","details":[{"type":"google.rpc.ErrorInfo","value":"CgNXSFk"}]}`
	e := connectError(400, []byte(body))
	st := e.GRPCStatus()
	if e.Code != codes.FailedPrecondition || st.Message() != "not yet" || len(st.Proto().GetDetails()) != 1 ||
		st.Proto().GetDetails()[0].GetTypeUrl() != "type.googleapis.com/google.rpc.ErrorInfo" || string(st.Proto().GetDetails()[0].GetValue()) != "\n\x03WHY" {
		t.Errorf("error %v, status %v", e, st.Proto())
	}
	if e := connectError(503, []byte("<html>")); e.Code != codes.Unavailable {
		t.Errorf("not JSON: %v", e)
	}
	if c := connectCode("deadline_exceeded"); c != codes.DeadlineExceeded {
		t.Errorf("deadline_exceeded: %v", c)
	}
	if c := connectCode("nope"); c != codes.Unknown {
		t.Errorf("nope: %v", c)
	}
}
