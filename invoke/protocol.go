package invoke

import (
	"fmt"
	"strings"
)

// Protocol is the wire protocol a Conn's calls use.
type Protocol string

// The protocols a Conn speaks. Reflection and health checks are gRPC
// whatever the protocol of the calls.
const (
	// ProtocolGRPC is gRPC over HTTP/2 through grpc-go (the zero value).
	ProtocolGRPC Protocol = "grpc"
	// ProtocolGRPCWeb is gRPC-Web over HTTP/1.1 or HTTP/2.
	ProtocolGRPCWeb Protocol = "grpc-web"
	// ProtocolConnect is the Connect protocol over HTTP/1.1 or HTTP/2.
	ProtocolConnect Protocol = "connect"
)

// ParseProtocol reads a protocol name: grpc, grpc-web (or grpcweb), connect.
func ParseProtocol(s string) (Protocol, error) {
	switch strings.ToLower(s) {
	case "", "grpc":
		return ProtocolGRPC, nil
	case "grpc-web", "grpcweb":
		return ProtocolGRPCWeb, nil
	case "connect":
		return ProtocolConnect, nil
	}
	return "", fmt.Errorf("invoke: unknown protocol %q (want grpc, grpc-web or connect)", s)
}

// web reports whether the protocol goes through the HTTP client rather
// than grpc-go.
func (p Protocol) web() bool { return p == ProtocolGRPCWeb || p == ProtocolConnect }

// HTTPOptions configure the HTTP client of the gRPC-Web and Connect
// protocols. The zero value speaks HTTP/1.1 in plaintext and lets TLS
// negotiate HTTP/2 or HTTP/1.1, sends binary protobuf, and makes Connect
// calls of methods without side effects (idempotency_level
// NO_SIDE_EFFECTS) as GET requests.
type HTTPOptions struct {
	// Codec is the Connect message encoding: "proto" (the default) or
	// "json". gRPC-Web is always proto.
	Codec string
	// JSON converts messages for the json codec; nil means Transcode{}.
	JSON JSONCodec
	// HTTP1 keeps to HTTP/1.1, over TLS too.
	HTTP1 bool
	// HTTP2PriorKnowledge speaks HTTP/2 in plaintext without an upgrade
	// (h2c), as gRPC does.
	HTTP2PriorKnowledge bool
	// NoGET sends every Connect call as a POST.
	NoGET bool
}

func (o HTTPOptions) check(p Protocol) error {
	switch o.Codec {
	case "", "proto":
	case "json":
		if p != ProtocolConnect {
			return fmt.Errorf("invoke: the json codec needs the connect protocol, not %s", p)
		}
	default:
		return fmt.Errorf("invoke: unknown codec %q (want proto or json)", o.Codec)
	}
	if o.HTTP1 && o.HTTP2PriorKnowledge {
		return fmt.Errorf("invoke: HTTP/1.1 and HTTP/2 prior knowledge exclude each other")
	}
	return nil
}
