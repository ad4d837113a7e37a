package loadtarget

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rpckit/rpckit/invoke/lean"
)

func TestDNSTarget(t *testing.T) {
	for _, tc := range []struct{ target, server, host, port, err string }{
		{"dns:///localhost:50051", "", "localhost", "50051", ""},
		{"dns:///example.test", "", "example.test", "443", ""},
		{"dns:localhost:8080", "", "localhost", "8080", ""},
		{"dns:///[::1]:9000", "", "::1", "9000", ""},
		{"dns://8.8.8.8/example.test:443", "8.8.8.8:53", "example.test", "443", ""},
		{"dns://127.0.0.1:5353/example.test", "127.0.0.1:5353", "example.test", "443", ""},
		{"dns://[::1]/example.test:1", "[::1]:53", "example.test", "1", ""},
		{"dns:///:443", "", "", "", "no host name"},
		{"dns:///", "", "", "", "no host name"},
	} {
		server, host, port, err := dnsTarget(tc.target)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want an error with %q", tc.target, err, tc.err)
			}
			continue
		}
		if err != nil || server != tc.server || host != tc.host || port != tc.port {
			t.Errorf("%s: got %q %q %q %v, want %q %q %q", tc.target, server, host, port, err, tc.server, tc.host, tc.port)
		}
	}
}

// TestInterleave: connections opened per address in groups are reordered
// so that taking them in turn goes round the addresses.
func TestInterleave(t *testing.T) {
	const addrs, per = 3, 2
	conns := make([]*lean.Conn, addrs*per)
	counts := make([]*atomic.Int64, addrs*per)
	owner := map[*atomic.Int64]int{}
	for a := range addrs {
		c := new(atomic.Int64)
		owner[c] = a
		for k := range per {
			conns[a*per+k] = new(lean.Conn)
			counts[a*per+k] = c
		}
	}
	pairs := map[*lean.Conn]*atomic.Int64{}
	for i := range conns {
		pairs[conns[i]] = counts[i]
	}
	interleave(conns, counts, per)
	for i := range conns {
		if got := owner[counts[i]]; got != i%addrs {
			t.Errorf("position %d: address %d, want %d", i, got, i%addrs)
		}
		if pairs[conns[i]] != counts[i] {
			t.Errorf("position %d: connection and counter split up", i)
		}
	}
}
