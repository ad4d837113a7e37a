package invoke

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// DialOptions says how to reach a server. The zero value dials with TLS
// and the system roots, and waits up to 10 s for the connection.
type DialOptions struct {
	// Plaintext uses h2c instead of TLS.
	Plaintext bool
	TLS       TLSOptions
	// Authority overrides the :authority header (and the TLS server name,
	// unless TLS.ServerName is set).
	Authority string
	// ConnectTimeout bounds the wait for the first connection; zero means 10 s.
	ConnectTimeout time.Duration
	// MaxMsgSize caps received messages in bytes; zero means grpc-go's 4 MiB.
	MaxMsgSize int
	// UserAgent is prepended to grpc-go's own (or connect-go's).
	UserAgent string
	// Addresses, when set, are where the target is: its name is then only
	// the authority (and TLS server name), and calls are spread over the
	// addresses round robin, through a resolver of their own.
	Addresses []string
	// Extra are more grpc-go dial options, applied after the ones above:
	// interceptors, a default service config, a resolver.
	Extra []grpc.DialOption
	// Protocol of the calls: gRPC (the zero value), gRPC-Web or Connect.
	// Reflection and health checks on the Conn stay gRPC.
	Protocol Protocol
	// HTTP configures the gRPC-Web and Connect protocols' HTTP client.
	HTTP HTTPOptions
}

// TLSOptions configures TLS. Paths are PEM files.
type TLSOptions struct {
	CACert     string // roots to trust instead of the system's
	Cert, Key  string // client certificate for mTLS
	Insecure   bool   // skip verification of the server's certificate
	ServerName string // name to verify instead of the target's host
}

// Config builds the tls.Config the options describe.
func (o TLSOptions) Config() (*tls.Config, error) {
	cfg := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: o.Insecure, //nolint:gosec // asked for by --insecure
		ServerName:         o.ServerName,
	}
	if o.CACert != "" {
		pem, err := os.ReadFile(o.CACert)
		if err != nil {
			return nil, fmt.Errorf("invoke: CA certificate: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("invoke: CA certificate %s: no PEM certificates in it", o.CACert)
		}
	}
	if (o.Cert == "") != (o.Key == "") {
		return nil, errors.New("invoke: a client certificate needs both a certificate and a key file")
	}
	if o.Cert != "" {
		pair, err := tls.LoadX509KeyPair(o.Cert, o.Key)
		if err != nil {
			return nil, fmt.Errorf("invoke: client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// Conn is a connection to one target.
type Conn struct {
	cc     *grpc.ClientConn
	target string
	dns    string // the name the target resolves by DNS, "" if none
	probe  *probe
	web    *webClient // the calls' client, for gRPC-Web and Connect
}

// ClientConn returns the underlying grpc-go connection, for generated
// clients (health, reflection) on the same connection.
func (c *Conn) ClientConn() *grpc.ClientConn { return c.cc }

// Target returns the target dialled.
func (c *Conn) Target() string { return c.target }

// Protocol returns the protocol of the Conn's calls.
func (c *Conn) Protocol() Protocol {
	if c.web != nil {
		return c.web.opts.Protocol
	}
	return ProtocolGRPC
}

// Close closes the connection.
func (c *Conn) Close() error {
	if c.web != nil {
		c.web.close()
	}
	return c.cc.Close()
}

// Dial connects to target (host:port, unix:path, or any grpc-go target
// scheme) and waits until the connection is ready. A target that cannot be
// reached gives an error naming it and the cause, within ConnectTimeout.
func Dial(ctx context.Context, target string, opts DialOptions) (*Conn, error) {
	c, err := NewConn(target, opts)
	if err != nil {
		return nil, err
	}
	if err := c.WaitReady(ctx, opts.ConnectTimeout); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// NewConn prepares a connection without dialling; the first call (or
// WaitReady) connects.
func NewConn(target string, opts DialOptions) (*Conn, error) {
	p := &probe{}
	dopts, err := dialOptions(opts, p)
	if err != nil {
		return nil, err
	}
	dialled := target
	if len(opts.Addresses) > 0 {
		dialled = addressesScheme + ":///" + target
		dopts = append([]grpc.DialOption{grpc.WithResolvers(addressResolver(opts.Addresses))}, dopts...)
	}
	if len(opts.Addresses) > 0 || strings.HasPrefix(target, "dns:") {
		// Before opts.Extra, whose service config, if any, replaces it.
		dopts = append([]grpc.DialOption{grpc.WithDefaultServiceConfig(RoundRobin)}, dopts...)
	}
	cc, err := grpc.NewClient(dialled, dopts...)
	if err != nil {
		return nil, fmt.Errorf("invoke: target %q: %w", target, err)
	}
	c := &Conn{cc: cc, target: target, probe: p}
	if len(opts.Addresses) == 0 {
		c.dns = dnsName(target)
	}
	if opts.Protocol.web() {
		if c.web, err = newWebClient(target, opts, p); err != nil {
			cc.Close()
			return nil, err
		}
	} else if opts.Protocol != "" && opts.Protocol != ProtocolGRPC {
		cc.Close()
		return nil, fmt.Errorf("invoke: unknown protocol %q", opts.Protocol)
	}
	return c, nil
}

func dialOptions(opts DialOptions, p *probe) ([]grpc.DialOption, error) {
	creds := insecure.NewCredentials()
	if !opts.Plaintext {
		cfg, err := opts.TLS.Config()
		if err != nil {
			return nil, err
		}
		// With no ServerName, grpc-go verifies the host of the authority:
		// copying it here would make the two disagree (host vs host:port).
		creds = credentials.NewTLS(cfg)
	}
	dopts := []grpc.DialOption{
		grpc.WithTransportCredentials(probeCreds{creds, p}),
		grpc.WithContextDialer(p.dial),
	}
	if opts.Authority != "" {
		dopts = append(dopts, grpc.WithAuthority(opts.Authority))
	}
	if opts.MaxMsgSize > 0 {
		dopts = append(dopts, grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(opts.MaxMsgSize), grpc.MaxCallSendMsgSize(opts.MaxMsgSize)))
	}
	if opts.UserAgent != "" {
		dopts = append(dopts, grpc.WithUserAgent(opts.UserAgent))
	}
	return append(dopts, opts.Extra...), nil
}

// WaitReady connects and waits for the connection to be ready, for at most
// timeout (zero means 10 s). For gRPC-Web and Connect, it checks the
// target takes connections.
func (c *Conn) WaitReady(ctx context.Context, timeout time.Duration) error {
	if c.web != nil {
		return c.web.ready(ctx, c, timeout)
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c.cc.Connect()
	for {
		state := c.cc.GetState()
		switch state {
		case connectivity.Ready:
			return nil
		case connectivity.TransientFailure, connectivity.Shutdown:
			return c.connectError(ctx, "", nil)
		}
		if !c.cc.WaitForStateChange(ctx, state) {
			if ctx.Err() == context.Canceled {
				return fmt.Errorf("invoke: connect to %s: %w", c.target, context.Canceled)
			}
			return c.connectError(ctx, " within "+timeout.String(), ctx.Err())
		}
	}
}

// connectError names the target and the cause: the last dial or
// handshake error, else fallback, else a name that did not resolve.
func (c *Conn) connectError(ctx context.Context, within string, fallback error) error {
	cause := c.probe.last()
	if cause == nil {
		cause = fallback
	}
	if cause == nil {
		cause = unresolved(ctx, c.dns)
	}
	if cause == nil {
		cause = errors.New("connection failed")
	}
	return &ConnectError{Target: c.target, Within: strings.TrimSpace(within), Err: cause}
}

// ConnectError reports a target that could not be reached.
type ConnectError struct {
	Target string
	Within string // "within 2s" when the wait timed out
	Err    error
}

func (e *ConnectError) Error() string {
	w := ""
	if e.Within != "" {
		w = " " + e.Within
	}
	return fmt.Sprintf("invoke: cannot connect to %s%s: %v", e.Target, w, e.Err)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// probe remembers the last dial or handshake error, which grpc-go keeps to
// itself, so connection failures can say why.
type probe struct {
	mu  sync.Mutex
	err error
}

func (p *probe) set(err error) {
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
}

func (p *probe) last() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *probe) dial(ctx context.Context, addr string) (net.Conn, error) {
	network := "tcp"
	switch {
	case strings.HasPrefix(addr, "unix://"):
		network, addr = "unix", strings.TrimPrefix(addr, "unix://")
	case strings.HasPrefix(addr, "unix:"):
		network, addr = "unix", strings.TrimPrefix(addr, "unix:")
	case strings.HasPrefix(addr, "\x00"):
		network = "unix"
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		p.set(err)
	}
	return conn, err
}

// probeCreds records handshake failures.
type probeCreds struct {
	credentials.TransportCredentials
	p *probe
}

func (c probeCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := c.TransportCredentials.ClientHandshake(ctx, authority, raw)
	if err != nil {
		c.p.set(fmt.Errorf("tls handshake: %w", err))
	}
	return conn, info, err
}

func (c probeCreds) Clone() credentials.TransportCredentials {
	return probeCreds{c.TransportCredentials.Clone(), c.p}
}
