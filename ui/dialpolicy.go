package ui

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"path"
	"strings"
)

// blockedPrefixes are never dialled from an exposed page: link-local
// (where cloud metadata services live), the metadata addresses outside it,
// unspecified, multicast and broadcast.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"),    // link-local, AWS/GCP/Azure metadata
	netip.MustParsePrefix("fe80::/10"),         // IPv6 link-local
	netip.MustParsePrefix("fd00:ec2::254/128"), // AWS metadata over IPv6
	netip.MustParsePrefix("100.100.100.200/32"),
	netip.MustParsePrefix("168.63.129.16/32"), // Azure wire server
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("ff00::/8"),
	netip.MustParsePrefix("255.255.255.255/32"),
}

func blocked(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// allowRule is one allowlist entry: a host (name glob, IP or prefix) and
// a port (or any).
type allowRule struct {
	name   string // lower-case glob; empty when prefix is set
	prefix netip.Prefix
	port   string // "*" for any
}

func parseAllowlist(patterns []string) ([]allowRule, error) {
	var rules []allowRule
	for _, p := range patterns {
		for part := range strings.SplitSeq(p, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			r, err := parseAllowRule(part)
			if err != nil {
				return nil, err
			}
			rules = append(rules, r)
		}
	}
	return rules, nil
}

func parseAllowRule(s string) (allowRule, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || strings.Count(s, ":") > 1 && !strings.Contains(s, "]") {
		return allowRule{}, fmt.Errorf("ui: allow %q: want HOST:PORT, [IPv6]:PORT or PREFIX:PORT (port may be *)", s)
	}
	host, port := strings.Trim(s[:i], "[]"), s[i+1:]
	if port == "" || port != "*" && strings.Trim(port, "0123456789") != "" {
		return allowRule{}, fmt.Errorf("ui: allow %q: port %q is not a number or *", s, port)
	}
	r := allowRule{port: port}
	if pfx, err := netip.ParsePrefix(host); err == nil {
		r.prefix = pfx.Masked()
	} else if ip, err := netip.ParseAddr(host); err == nil {
		r.prefix = netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen())
	} else if _, err := path.Match(host, ""); err != nil || host == "" {
		return allowRule{}, fmt.Errorf("ui: allow %q: bad host pattern", s)
	} else {
		r.name = strings.ToLower(host)
	}
	return r, nil
}

func (r allowRule) matches(name string, ip netip.Addr, port string) bool {
	if r.port != "*" && r.port != port {
		return false
	}
	if r.name != "" {
		ok, _ := path.Match(r.name, strings.ToLower(name))
		return ok
	}
	return r.prefix.Contains(ip.Unmap())
}

// dialPolicy decides what a page may dial. A local page dials anything;
// an exposed one only host:port targets that an allow rule matches, at an
// address resolved and checked here, which is the one then dialled.
type dialPolicy struct {
	exposed bool
	allow   []allowRule
	lookup  func(ctx context.Context, host string) ([]netip.Addr, error)
}

// resolved is what to dial for a target.
type resolved struct {
	addr      string // what to dial
	authority string // the :authority (and TLS name) when addr is an IP chosen here
	loopback  bool   // every address of the target is on this machine
}

func (p *dialPolicy) resolve(ctx context.Context, target string) (resolved, error) {
	if strings.HasPrefix(target, "unix:") {
		if p.exposed {
			return resolved{}, fmt.Errorf("ui: target %q: Unix sockets are not dialled from an exposed page", target)
		}
		return resolved{addr: target, loopback: true}, nil
	}
	host, port, err := net.SplitHostPort(target)
	if err != nil || host == "" || port == "" {
		if p.exposed {
			return resolved{}, fmt.Errorf("ui: target %q: want host:port", target)
		}
		return resolved{addr: target}, nil // another grpc-go scheme: dialled as is
	}
	if _, err := netip.ParseAddr(host); err != nil && p.exposed && !p.mayAllow(host, port) {
		// No rule could match whatever the name resolves to: no lookup.
		return resolved{}, fmt.Errorf("ui: target %q not allowed: no --allow pattern matches it", target)
	}
	ips, err := p.lookupHost(ctx, host)
	if err != nil {
		return resolved{}, fmt.Errorf("ui: target %q: %w", target, err)
	}
	if !p.exposed {
		return resolved{addr: target, loopback: allLoopback(ips)}, nil
	}
	return p.choose(target, host, port, ips)
}

func (p *dialPolicy) lookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}, nil
	}
	if p.lookup != nil {
		return p.lookup(ctx, host)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("cannot resolve %s: no addresses", host)
	}
	return addrs, nil
}

// choose picks the first resolved address that is not blocked and that a
// rule allows; the connection goes to that address, so a name that
// resolves differently later cannot lead elsewhere.
func (p *dialPolicy) choose(target, host, port string, ips []netip.Addr) (resolved, error) {
	var reason string
	for _, ip := range ips {
		ip = ip.Unmap()
		if blocked(ip) {
			reason = fmt.Sprintf("address %s is blocked (link-local or cloud metadata)", ip)
			continue
		}
		if !p.allowed(host, ip, port) {
			if reason == "" {
				reason = fmt.Sprintf("no --allow pattern matches it (address %s)", ip)
			}
			continue
		}
		r := resolved{addr: net.JoinHostPort(ip.String(), port), loopback: ip.IsLoopback()}
		if _, err := netip.ParseAddr(host); err != nil {
			r.authority = target
		}
		return r, nil
	}
	return resolved{}, fmt.Errorf("ui: target %q not allowed: %s", target, reason)
}

func (p *dialPolicy) allowed(host string, ip netip.Addr, port string) bool {
	for _, r := range p.allow {
		if r.matches(host, ip, port) {
			return true
		}
	}
	return false
}

// mayAllow says whether some rule could allow host:port once resolved:
// one with the port whose name pattern matches, or that names addresses.
func (p *dialPolicy) mayAllow(host, port string) bool {
	for _, r := range p.allow {
		if r.port != "*" && r.port != port {
			continue
		}
		if r.name == "" {
			return true
		}
		if ok, _ := path.Match(r.name, strings.ToLower(host)); ok {
			return true
		}
	}
	return false
}

func allLoopback(ips []netip.Addr) bool {
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return false
		}
	}
	return len(ips) > 0
}
