package gateway

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/mdvalue"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// connectError is a Connect error as JSON:
// {"code": "not_found", "message": ..., "details": [...]}.
type connectError struct {
	Code    string          `json:"code"`
	Message string          `json:"message,omitempty"`
	Details []connectDetail `json:"details,omitempty"`
}

// connectDetail is a status detail: its type's full name, its wire bytes
// in base64, and its JSON when the gateway knows the type.
type connectDetail struct {
	Type  string          `json:"type"`
	Value string          `json:"value"`
	Debug json.RawMessage `json:"debug,omitempty"`
}

// connectEndStream is the last message of a Connect stream.
type connectEndStream struct {
	Error    *connectError       `json:"error,omitempty"`
	Metadata map[string][]string `json:"metadata,omitempty"`
}

// connectCode is the Connect name of a code: "not_found".
func connectCode(c codes.Code) string {
	switch {
	case c == codes.Canceled:
		return "canceled" // google.rpc.Code spells it CANCELLED
	case c > codes.Unauthenticated:
		return "unknown"
	}
	return strings.ToLower(invoke.CodeName(c))
}

// newConnectError is st as a Connect error; st (the routes' state) gives
// the details' JSON when it is loaded.
func newConnectError(st *state, s *status.Status) *connectError {
	e := &connectError{Code: connectCode(s.Code()), Message: s.Message()}
	for _, d := range s.Proto().GetDetails() {
		url := d.GetTypeUrl()
		detail := connectDetail{
			Type:  url[strings.LastIndexByte(url, '/')+1:],
			Value: base64.RawStdEncoding.EncodeToString(d.GetValue()),
		}
		if st != nil {
			if mt, err := st.codec.marshal.Resolver.FindMessageByURL(url); err == nil {
				if js, err := st.codec.Decode(nil, mt.Descriptor(), d.GetValue()); err == nil {
					detail.Debug = js
				}
			}
		}
		e.Details = append(e.Details, detail)
	}
	return e
}

// connectErrorJSON is the body of a unary call's error.
func connectErrorJSON(st *state, s *status.Status) []byte {
	b, err := json.Marshal(newConnectError(st, s))
	if err != nil { // cannot happen: strings and valid JSON only
		return []byte(`{"code":"internal"}`)
	}
	return b
}

// endStreamJSON is the body of a stream's end message: its error, unless
// OK, and its trailers.
func endStreamJSON(st *state, s *status.Status, trailer metadata.MD) []byte {
	end := connectEndStream{}
	if s.Code() != codes.OK {
		end.Error = newConnectError(st, s)
	}
	for k, vs := range trailer {
		if reservedMetadata(k) {
			continue
		}
		if end.Metadata == nil {
			end.Metadata = map[string][]string{}
		}
		for _, v := range vs {
			end.Metadata[k] = append(end.Metadata[k], mdvalue.Encode(k, v))
		}
	}
	b, err := json.Marshal(end)
	if err != nil { // cannot happen: strings and valid JSON only
		return []byte(`{"error":{"code":"internal"}}`)
	}
	return b
}

// trailerHeaders sends a unary call's trailers as Trailer-* headers.
func trailerHeaders(h http.Header, md metadata.MD) {
	for k, vs := range md {
		if reservedMetadata(k) {
			continue
		}
		for _, v := range vs {
			h.Add("Trailer-"+k, mdvalue.Encode(k, v))
		}
		exposeHeader(h, "Trailer-"+k)
	}
}
