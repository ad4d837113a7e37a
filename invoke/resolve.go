package invoke

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
)

// RoundRobin is the service config that spreads calls over every address
// a target resolves to, which connections to dns:/// targets and to
// DialOptions.Addresses take by default (grpc-go's own default is
// pick_first: one address).
const RoundRobin = `{"loadBalancingConfig":[{"round_robin":{}}]}`

// addressesScheme is the scheme of targets whose addresses are given.
const addressesScheme = "rpckit-addresses"

// addressResolver resolves any target to addrs, for one connection.
func addressResolver(addrs []string) resolver.Builder {
	r := manual.NewBuilderWithScheme(addressesScheme)
	state := resolver.State{Addresses: make([]resolver.Address, len(addrs))}
	for i, a := range addrs {
		state.Addresses[i] = resolver.Address{Addr: a}
	}
	r.InitialState(state)
	return r
}

// dnsName is the name grpc-go's DNS resolver looks up for target
// (dns:///host:port, dns:host:port, or host:port with no registered
// scheme), or "" when it looks up none: IP literals, other schemes, and
// DNS servers named in the target, which the default resolver is not.
func dnsName(target string) string {
	endpoint := target
	if u, err := url.Parse(target); err == nil && resolver.Get(u.Scheme) != nil {
		if u.Scheme != "dns" || u.Host != "" {
			return ""
		}
		endpoint = u.Opaque
		if endpoint == "" {
			endpoint = strings.TrimPrefix(u.Path, "/")
		}
	}
	host, _, err := net.SplitHostPort(endpoint)
	if err != nil {
		host = endpoint // no port: the resolver's default
	}
	if host == "" || net.ParseIP(host) != nil {
		return ""
	}
	return host
}

// unresolved looks name up and, when it does not resolve, says so with
// the resolver's error. grpc-go's resolver keeps that error to itself (a
// name that does not exist resolves to no addresses), so a connection that
// failed without a dial error asks again here.
func unresolved(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := net.DefaultResolver.LookupHost(ctx, name); err != nil {
		return fmt.Errorf("name %q did not resolve: %w", name, err)
	}
	return nil
}
