package lean

import (
	"cmp"
	"crypto/tls"
	"time"
)

// Defaults for the zero Options.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultMaxRecvMsgSize   = 4 << 20
	DefaultWindowSize       = 1 << 20 // per stream, received
	DefaultConnWindowSize   = 4 << 20 // per connection, received
	DefaultKeepaliveTimeout = 20 * time.Second
	DefaultUserAgent        = "rpckit-lean"
)

// Options say how to reach a server and how the connection behaves. The
// zero value dials with TLS and the system roots.
type Options struct {
	// Plaintext speaks h2c with prior knowledge instead of TLS.
	Plaintext bool
	// TLS configures the TLS client; nil means the system roots. Its
	// NextProtos are replaced by "h2".
	TLS *tls.Config
	// Authority is the :authority header (and the TLS server name unless
	// TLS.ServerName is set); empty means the target's host:port, or
	// "localhost" for a Unix socket.
	Authority string
	// UserAgent is the user-agent header; empty means DefaultUserAgent.
	UserAgent string
	// ConnectTimeout bounds dialling and the HTTP/2 handshake; zero means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// MaxRecvMsgSize caps a response message in bytes; zero means
	// DefaultMaxRecvMsgSize. A larger one fails the call with
	// RESOURCE_EXHAUSTED.
	MaxRecvMsgSize int
	// WindowSize is each stream's receive window in bytes (at least
	// 65535); zero means DefaultWindowSize.
	WindowSize int32
	// ConnWindowSize is the connection's receive window in bytes (at
	// least 65535); zero means DefaultConnWindowSize.
	ConnWindowSize int32
	// Keepalive, when set, sends a PING this often; a connection whose
	// PING is not answered within KeepaliveTimeout (zero means
	// DefaultKeepaliveTimeout) is closed and its calls fail.
	Keepalive        time.Duration
	KeepaliveTimeout time.Duration
}

const minWindow = 65535

// withDefaults is o with the defaults in place of zero values, and the
// windows at least minWindow.
func (o Options) withDefaults() Options {
	o.ConnectTimeout = positiveOr(o.ConnectTimeout, DefaultConnectTimeout)
	o.MaxRecvMsgSize = positiveOr(o.MaxRecvMsgSize, DefaultMaxRecvMsgSize)
	o.WindowSize = max(cmp.Or(o.WindowSize, DefaultWindowSize), minWindow)
	o.ConnWindowSize = max(cmp.Or(o.ConnWindowSize, DefaultConnWindowSize), minWindow)
	o.UserAgent = cmp.Or(o.UserAgent, DefaultUserAgent)
	o.KeepaliveTimeout = positiveOr(o.KeepaliveTimeout, DefaultKeepaliveTimeout)
	return o
}

// positiveOr is v when it is positive, else def.
func positiveOr[T ~int | ~int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
