package lean

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http2"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Error is a call that ended with a status other than OK, from the server
// (grpc-status in the trailers, or an RST_STREAM) or from the client
// (deadline, cancellation, a broken connection).
type Error struct {
	Code    codes.Code
	Message string
	// Details is the grpc-status-details-bin trailer, base64-decoded: a
	// google.rpc.Status in wire form, or nil.
	Details []byte
	cause   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("lean: %s: %s", e.Code, e.Message)
}

// Unwrap returns the client-side cause (a context or network error), if
// any.
func (e *Error) Unwrap() error { return e.cause }

// GRPCStatus lets status.FromError and status.Code see the call's status,
// with its details when the server sent them.
func (e *Error) GRPCStatus() *status.Status {
	if len(e.Details) > 0 {
		var p spb.Status
		if proto.Unmarshal(e.Details, &p) == nil && codes.Code(p.GetCode()) == e.Code {
			return status.FromProto(&p)
		}
	}
	return status.New(e.Code, e.Message)
}

func errorf(code codes.Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// errRefused marks a call the server did not process (a stream past a
// GOAWAY's last stream id, or refused with REFUSED_STREAM): it is safe to
// make it again on another connection.
var errRefused = &Error{Code: codes.Unavailable, Message: "stream refused by the server before processing"}

// ctxError is the status of a call its context ended.
func ctxError(err error) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: codes.DeadlineExceeded, Message: err.Error(), cause: err}
	}
	return &Error{Code: codes.Canceled, Message: err.Error(), cause: err}
}

// connError is the status of calls on a connection that failed.
func connError(err error) *Error {
	return &Error{Code: codes.Unavailable, Message: "connection error: " + err.Error(), cause: err}
}

// rstCodes maps an RST_STREAM error code to the status the gRPC HTTP/2
// protocol gives it.
var rstCodes = map[http2.ErrCode]codes.Code{
	http2.ErrCodeNo:                 codes.Internal,
	http2.ErrCodeProtocol:           codes.Internal,
	http2.ErrCodeInternal:           codes.Internal,
	http2.ErrCodeFlowControl:        codes.ResourceExhausted,
	http2.ErrCodeSettingsTimeout:    codes.Internal,
	http2.ErrCodeStreamClosed:       codes.Internal,
	http2.ErrCodeFrameSize:          codes.Internal,
	http2.ErrCodeRefusedStream:      codes.Unavailable,
	http2.ErrCodeCancel:             codes.Canceled,
	http2.ErrCodeCompression:        codes.Internal,
	http2.ErrCodeConnect:            codes.Internal,
	http2.ErrCodeEnhanceYourCalm:    codes.ResourceExhausted,
	http2.ErrCodeInadequateSecurity: codes.PermissionDenied,
	http2.ErrCodeHTTP11Required:     codes.Internal,
}

func rstError(code http2.ErrCode) *Error {
	c, ok := rstCodes[code]
	if !ok {
		c = codes.Unknown
	}
	return errorf(c, "stream terminated by RST_STREAM with error code: %v", code)
}

// httpError is the status of a response that is not gRPC, by its HTTP
// status, as the gRPC HTTP/2 protocol maps them.
func httpError(httpStatus int) *Error {
	c := codes.Unknown
	switch httpStatus {
	case http.StatusBadRequest:
		c = codes.Internal
	case http.StatusUnauthorized:
		c = codes.Unauthenticated
	case http.StatusForbidden:
		c = codes.PermissionDenied
	case http.StatusNotFound:
		c = codes.Unimplemented
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		c = codes.Unavailable
	}
	return errorf(c, "unexpected HTTP status code received from server: %d (%s)", httpStatus, http.StatusText(httpStatus))
}

// decodeMessage undoes the percent-encoding of grpc-message.
func decodeMessage(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	return percentDecode(s, i)
}

// percentDecode decodes the %XX escapes of s from s[i] on, leaving a '%'
// that starts no escape as it is.
func percentDecode(s string, i int) string {
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if c, ok := escapeAt(s, i); ok {
			b = append(b, c)
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// escapeAt is the byte of the %XX escape at s[i], if one is there.
func escapeAt(s string, i int) (byte, bool) {
	if s[i] != '%' || i+2 >= len(s) {
		return 0, false
	}
	h, okh := unhex(s[i+1])
	l, okl := unhex(s[i+2])
	return h<<4 | l, okh && okl
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
