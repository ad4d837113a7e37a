package loadtarget

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
)

// addressCounts counts calls by the address that served them.
type addressCounts struct {
	m sync.Map // address -> *atomic.Int64
}

func (a *addressCounts) counter(addr string) *atomic.Int64 {
	if c, ok := a.m.Load(addr); ok {
		return c.(*atomic.Int64)
	}
	c, _ := a.m.LoadOrStore(addr, new(atomic.Int64))
	return c.(*atomic.Int64)
}

func (a *addressCounts) snapshot() map[string]int64 {
	out := map[string]int64{}
	a.m.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return out
}

// spread reports whether a target of these options may reach more than
// one address: addresses given, or a dns:/// target.
func (o *Options) spread() bool {
	return len(o.Addresses) > 0 || strings.HasPrefix(o.Address, "dns:")
}

// leanAddresses are the addresses the lean engine's connections spread
// over: Addresses when given, every address a dns:/// target's name
// resolves to, or Address alone.
func (o *Options) leanAddresses(ctx context.Context) ([]string, error) {
	if len(o.Addresses) > 0 {
		return o.Addresses, nil
	}
	if !strings.HasPrefix(o.Address, "dns:") {
		return []string{o.Address}, nil
	}
	server, host, port, err := dnsTarget(o.Address)
	if err != nil {
		return nil, err
	}
	ips, err := resolverOf(server).LookupHost(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("loadtarget: resolve %s: %w", o.Address, err)
	}
	addrs := make([]string, len(ips))
	for i, ip := range ips {
		addrs[i] = net.JoinHostPort(ip, port)
	}
	return addrs, nil
}

// dnsTarget reads a dns:[//server]/host[:port] target as grpc-go does:
// the port defaults to 443, and server, a DNS server's address (port 53
// when it names none), is "" for the system's resolver.
func dnsTarget(target string) (server, host, port string, err error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "dns" {
		return "", "", "", fmt.Errorf("loadtarget: target %q: want dns:///host:port", target)
	}
	if server = u.Host; server != "" && u.Port() == "" {
		server = net.JoinHostPort(strings.Trim(server, "[]"), "53")
	}
	endpoint := strings.TrimPrefix(u.Path, "/")
	if endpoint == "" {
		endpoint = u.Opaque
	}
	host, port, err = net.SplitHostPort(endpoint)
	if err != nil {
		host, port = endpoint, "443"
	}
	if host == "" {
		return "", "", "", fmt.Errorf("loadtarget: target %q: no host name", target)
	}
	return server, host, port, nil
}

// resolverOf is the resolver that asks the DNS server at addr, or the
// system's when addr is "".
func resolverOf(addr string) *net.Resolver {
	if addr == "" {
		return net.DefaultResolver
	}
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}
