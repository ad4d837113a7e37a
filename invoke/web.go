package invoke

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// webClient makes the calls of a Conn whose protocol is gRPC-Web or
// Connect: connect-go clients over net/http, one per method, passing wire
// bytes through (or JSON, for Connect's json codec).
type webClient struct {
	opts    DialOptions
	target  string // what to dial: host:port or a unix socket
	http    *http.Client
	hc      connect.HTTPClient
	baseURL string
	http2   bool // known to speak HTTP/2: h2c, or TLS not held to HTTP/1.1

	mu      sync.Mutex
	clients map[protoreflect.MethodDescriptor]*connect.Client[frame, frame]
}

// frame is one message in wire form (or JSON, inside the json codec).
type frame struct{ b []byte }

func newWebClient(target string, opts DialOptions, p *probe) (*webClient, error) {
	if err := opts.HTTP.check(opts.Protocol); err != nil {
		return nil, err
	}
	dialTarget := strings.TrimPrefix(strings.TrimPrefix(target, "dns:///"), "passthrough:///")
	tr, err := webTransport(dialTarget, opts, p)
	if err != nil {
		return nil, err
	}
	scheme, host := "https", dialTarget
	if opts.Plaintext {
		scheme = "http"
	}
	if strings.HasPrefix(host, "unix:") || strings.HasPrefix(host, "\x00") {
		host = "localhost"
	}
	if opts.Authority != "" {
		host = opts.Authority
	}
	w := &webClient{
		opts:    opts,
		target:  dialTarget,
		http:    &http.Client{Transport: tr},
		baseURL: scheme + "://" + host,
		http2:   opts.HTTP.HTTP2PriorKnowledge || (!opts.Plaintext && !opts.HTTP.HTTP1),
		clients: map[protoreflect.MethodDescriptor]*connect.Client[frame, frame]{},
	}
	w.hc = agentClient{w.http, opts.UserAgent}
	return w, nil
}

// webTransport is the net/http transport the options ask for: TLS with
// ALPN (or HTTP/1.1 alone), plaintext HTTP/1.1, or h2c by prior knowledge.
// Every connection is dialled to the target, whatever the URL's host.
func webTransport(target string, opts DialOptions, p *probe) (*http.Transport, error) {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) { return p.dial(ctx, target) }
	tr := &http.Transport{
		DialContext:         dial,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
		Protocols:           new(http.Protocols),
	}
	switch {
	case opts.Plaintext && opts.HTTP.HTTP2PriorKnowledge:
		tr.Protocols.SetUnencryptedHTTP2(true)
	case opts.Plaintext:
		tr.Protocols.SetHTTP1(true)
	default:
		cfg, err := opts.TLS.Config()
		if err != nil {
			return nil, err
		}
		if cfg.ServerName == "" && opts.Authority != "" {
			cfg.ServerName, _, _ = strings.Cut(opts.Authority, ":")
		}
		tr.TLSClientConfig = cfg
		tr.Protocols.SetHTTP1(true)
		if !opts.HTTP.HTTP1 {
			tr.Protocols.SetHTTP2(true)
		}
	}
	return tr, nil
}

// agentClient names rpckit in the User-Agent header.
type agentClient struct {
	c     *http.Client
	agent string
}

func (a agentClient) Do(req *http.Request) (*http.Response, error) {
	if a.agent != "" {
		req.Header.Set("User-Agent", a.agent+" "+req.Header.Get("User-Agent"))
	}
	return a.c.Do(req)
}

// client returns the connect-go client of md, made on first use.
func (w *webClient) client(md protoreflect.MethodDescriptor) *connect.Client[frame, frame] {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.clients[md]; ok {
		return c
	}
	c := connect.NewClient[frame, frame](w.hc, w.baseURL+MethodPath(md), w.clientOptions(md)...)
	w.clients[md] = c
	return c
}

func (w *webClient) clientOptions(md protoreflect.MethodDescriptor) []connect.ClientOption {
	opts := []connect.ClientOption{connect.WithCodec(w.codec(md))}
	if w.opts.Protocol == ProtocolGRPCWeb {
		opts = append(opts, connect.WithGRPCWeb())
	}
	if w.opts.MaxMsgSize > 0 {
		opts = append(opts, connect.WithReadMaxBytes(w.opts.MaxMsgSize), connect.WithSendMaxBytes(w.opts.MaxMsgSize))
	}
	if sideEffectFree(md) && !w.opts.HTTP.NoGET {
		opts = append(opts, connect.WithIdempotency(connect.IdempotencyNoSideEffects),
			connect.WithHTTPGet(), connect.WithHTTPGetMaxURLSize(maxGETURL, true))
	}
	return opts
}

// maxGETURL is the longest URL sent as a GET; a longer request is POSTed.
const maxGETURL = 8 << 10

// sideEffectFree reports whether md's options say it has no side effects,
// which lets Connect call it with GET.
func sideEffectFree(md protoreflect.MethodDescriptor) bool {
	opts, _ := md.Options().(*descriptorpb.MethodOptions)
	return opts.GetIdempotencyLevel() == descriptorpb.MethodOptions_NO_SIDE_EFFECTS
}

func (w *webClient) codec(md protoreflect.MethodDescriptor) connect.Codec {
	if w.opts.HTTP.Codec == "json" {
		js := w.opts.HTTP.JSON
		if js == nil {
			js = Transcode{}
		}
		return jsonCodec{js: js, in: md.Input(), out: md.Output()}
	}
	return protoCodec{}
}

// checkStream refuses what the HTTP version cannot carry: a bidi call
// needs both directions open at once, which HTTP/1.1 does not give.
func (w *webClient) checkStream(md protoreflect.MethodDescriptor) error {
	if md.IsStreamingClient() && md.IsStreamingServer() && w.opts.Plaintext && !w.http2 {
		return fmt.Errorf("a bidi streaming call needs HTTP/2; plaintext %s is HTTP/1.1 unless HTTP/2 is asked for by prior knowledge",
			w.opts.Protocol)
	}
	if md.IsStreamingClient() && md.IsStreamingServer() && w.opts.HTTP.HTTP1 {
		return errors.New("a bidi streaming call needs HTTP/2, not HTTP/1.1")
	}
	return nil
}

// ready checks the target can be reached, within timeout: the web
// protocols connect on their first call, and a dial error should say so
// before it.
func (w *webClient) ready(ctx context.Context, c *Conn, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	nc, err := c.probe.dial(ctx, w.target)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("invoke: connect to %s: %w", c.target, context.Canceled)
		}
		return c.connectError(ctx, "", err)
	}
	return nc.Close()
}

func (w *webClient) close() { w.http.CloseIdleConnections() }
