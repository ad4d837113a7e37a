package lean

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/invoke/mdvalue"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// webTrailers reads a gRPC-Web trailer frame's block, "key: value" lines
// ended by CRLF, into the stream's status and trailers as HTTP/2 trailers
// would have set them.
func (s *stream) webTrailers(block []byte) {
	for len(block) > 0 {
		line, rest, _ := bytes.Cut(block, []byte("\n"))
		block = rest
		key, value, ok := strings.Cut(strings.TrimRight(string(line), "\r"), ":")
		if !ok {
			continue
		}
		s.webTrailer1(strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value))
	}
}

func (s *stream) webTrailer1(key, value string) {
	switch key {
	case "grpc-status":
		if n, err := strconv.Atoi(value); err == nil && n >= 0 {
			s.grpcStatus = n
		} else {
			s.grpcStatus = int(codes.Unknown)
			s.grpcMessage = "malformed grpc-status: " + strconv.Quote(value)
		}
	case "grpc-message":
		s.grpcMessage = value
	case "grpc-status-details-bin":
		if d, err := mdvalue.Decode(key, value); err == nil {
			s.details = []byte(d)
		}
	default:
		if s.opts.Trailer == nil {
			return
		}
		if s.trailer == nil {
			s.trailer = metadata.MD{}
		}
		s.trailer[key] = append(s.trailer[key], mdvalue.DecodeOrKeep(key, value))
	}
}

// endWebLocked ends a gRPC-Web stream on its trailer frame, as endLocked
// does on HTTP/2 trailers.
func (t *transport) endWebLocked(s *stream) {
	if s.opts.Trailer != nil {
		*s.opts.Trailer = s.trailer
	}
	t.endLocked(s)
}

// web reports whether the stream's call is gRPC-Web.
func (s *stream) web() bool { return s.m != nil && s.m.web }
