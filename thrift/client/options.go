package client

import (
	"crypto/tls"
	"strconv"
	"time"

	"github.com/rpckit/rpckit/thrift/wire"
)

// Transport is how messages are delimited on a connection.
type Transport uint8

// The transports. The zero value is [Framed].
const (
	// Framed prefixes each message with its length, a 4-byte big-endian
	// word (TFramedTransport).
	Framed Transport = iota
	// Buffered sends messages back to back, unframed; a reply's end is
	// found by skipping it (TBufferedTransport, TSocket).
	Buffered
	// Header is Apache Thrift's THeader transport: a framed header with
	// the protocol id and info key/value headers before each message.
	Header
)

func (t Transport) String() string {
	switch t {
	case Framed:
		return "framed"
	case Buffered:
		return "buffered"
	case Header:
		return "header"
	}
	return "transport(" + strconv.Itoa(int(t)) + ")"
}

// TransportNamed is the transport String names; "" is Framed, the
// default.
func TransportNamed(name string) (Transport, bool) {
	switch name {
	case "", "framed":
		return Framed, true
	case "buffered":
		return Buffered, true
	case "header":
		return Header, true
	}
	return 0, false
}

// Options configure a [Client]. The zero value of each field is its
// default; only Addr is required.
type Options struct {
	// Addr is host:port for TCP, or unix:path for a unix socket.
	Addr string
	// Transport delimits messages: Framed (default), Buffered or Header.
	Transport Transport
	// Protocol encodes messages: wire.Binary (default) or wire.Compact.
	// The args given to Call and the replies it returns are in it.
	Protocol wire.Protocol
	// NonStrict writes binary message headers in the old form without a
	// version word. Replies are read in either form.
	NonStrict bool
	// Multiplexed is the service name a TMultiplexedProcessor routes by:
	// method names go out as "Multiplexed:method".
	Multiplexed string
	// Headers are info headers sent with every call on the Header
	// transport (see also [WithHeader]).
	Headers map[string]string
	// TLS, if set, wraps each connection in TLS; a missing ServerName is
	// taken from Addr's host.
	TLS *tls.Config
	// DialTimeout bounds connecting (and the TLS handshake). Default 5s.
	DialTimeout time.Duration
	// Timeout bounds a call whose context has no deadline. Default 1
	// minute; negative means no bound but the context's.
	Timeout time.Duration
	// MaxConns is the pool's cap on open connections. Default 1.
	MaxConns int
	// MaxFrameSize bounds a reply's size in bytes, on every transport.
	// Default 16 MiB.
	MaxFrameSize int
}

const (
	defaultDialTimeout  = 5 * time.Second
	defaultTimeout      = time.Minute
	defaultMaxFrameSize = 16 << 20
)

func (o Options) withDefaults() Options {
	if o.DialTimeout <= 0 {
		o.DialTimeout = defaultDialTimeout
	}
	if o.Timeout == 0 {
		o.Timeout = defaultTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 1
	}
	if o.MaxFrameSize <= 0 {
		o.MaxFrameSize = defaultMaxFrameSize
	}
	return o
}
