package invoke

import (
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
