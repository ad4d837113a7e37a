package lean

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/invoke/mdvalue"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/metadata"
)

// A Method is a method to call with its request metadata, prepared once and
// used for any number of calls on any Conn.
type Method struct {
	path          string
	serverStreams bool
	web           bool // gRPC-Web
	connect       bool // Connect, unary
	md            []hpack.HeaderField
}

// MethodOptions describe a Method beyond its path.
type MethodOptions struct {
	// ServerStreams says the method returns a stream of messages; without
	// it a call that succeeds must return exactly one.
	ServerStreams bool
	// Metadata is sent with every call. Keys ending in "-bin" carry binary
	// values, sent base64-encoded.
	Metadata metadata.MD
	// GRPCWeb makes the calls gRPC-Web over HTTP/2: content type
	// application/grpc-web+proto, the same message framing, and the status
	// in a trailer frame at the end of the body instead of HTTP trailers.
	GRPCWeb bool
	// Connect makes the calls the Connect protocol's unary ones over
	// HTTP/2: the message bare, application/proto, connect-timeout-ms, the
	// status from the HTTP one and a JSON error body. Unary methods only.
	Connect bool
}

// NewMethod prepares a method by its HTTP/2 path, /package.Service/Method.
func NewMethod(path string, opts MethodOptions) (*Method, error) {
	if !strings.HasPrefix(path, "/") || strings.Count(path, "/") != 2 || strings.HasSuffix(path, "/") {
		return nil, fmt.Errorf("lean: method path %q: want /package.Service/Method", path)
	}
	if opts.Connect && (opts.ServerStreams || opts.GRPCWeb) {
		return nil, fmt.Errorf("lean: method %s: Connect calls are unary and not gRPC-Web", path)
	}
	m := &Method{path: path, serverStreams: opts.ServerStreams, web: opts.GRPCWeb, connect: opts.Connect}
	for key, values := range opts.Metadata {
		if err := checkMetadataKey(key); err != nil {
			return nil, err
		}
		key = strings.ToLower(key)
		for _, v := range values {
			m.md = append(m.md, hpack.HeaderField{Name: key, Value: mdvalue.Encode(key, v)})
		}
	}
	return m, nil
}

// Path returns the method's HTTP/2 path.
func (m *Method) Path() string { return m.path }

// reserved are the headers the transport sets itself.
var reserved = map[string]bool{
	"content-type": true, "te": true, "user-agent": true, "grpc-timeout": true,
	"grpc-encoding": true, "grpc-accept-encoding": true, "connection": true,
	"host": true, "transfer-encoding": true, "upgrade": true,
}

func checkMetadataKey(key string) error {
	if key == "" || strings.HasPrefix(key, ":") || reserved[strings.ToLower(key)] {
		return fmt.Errorf("lean: metadata key %q is reserved or empty", key)
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("lean: metadata key %q: byte %d (%q) is not allowed in a header name", key, i, c)
		}
	}
	return nil
}

// A Message is a request message framed for gRPC once: the 5-byte prefix
// (not compressed, length) followed by the message's wire bytes.
type Message struct {
	framed []byte
}

// NewMessage frames the wire form of a request message; it copies wire.
func NewMessage(wire []byte) Message {
	b := make([]byte, 5+len(wire))
	binary.BigEndian.PutUint32(b[1:5], uint32(len(wire)))
	copy(b[5:], wire)
	return Message{framed: b}
}

// Len is the message's length without the prefix.
func (m Message) Len() int { return max(len(m.framed)-5, 0) }
