package invoke

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestDNSName(t *testing.T) {
	for target, want := range map[string]string{
		"dns:///no-such-name.invalid:50051": "no-such-name.invalid",
		"dns:no-such-name.invalid:50051":    "no-such-name.invalid",
		"dns:///example.test":               "example.test",
		"no-such-name.invalid:50051":        "no-such-name.invalid",
		"localhost:50051":                   "localhost",
		"dns://10.0.0.1:53/example.test:80": "", // its own DNS server
		"dns:///127.0.0.1:50051":            "",
		"127.0.0.1:50051":                   "",
		"[::1]:50051":                       "",
		"unix:///tmp/sock":                  "",
		"passthrough:///example.test:80":    "",
	} {
		if got := dnsName(target); got != want {
			t.Errorf("dnsName(%q) = %q, want %q", target, got, want)
		}
	}
}

// TestDialUnresolved: a name that does not resolve (.invalid never does,
// RFC 6761) is reported as such, with the resolver's error, not as a
// connection that failed.
func TestDialUnresolved(t *testing.T) {
	for _, target := range []string{"dns:///no-such-name.invalid:50051", "no-such-name.invalid:50051"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		c, err := Dial(ctx, target, DialOptions{Plaintext: true, ConnectTimeout: 10 * time.Second})
		cancel()
		if err == nil {
			c.Close()
			t.Fatalf("Dial(%q): no error", target)
		}
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !strings.Contains(err.Error(), `name "no-such-name.invalid" did not resolve: lookup no-such-name.invalid`) {
			t.Errorf("Dial(%q) = %v, want the name and the resolver's error", target, err)
		}
	}
}
