package interceptor

import (
	"net"
	"testing"
)

// addrText is a net.Addr the cache does not keep.
type addrText string

func (a addrText) Network() string { return "test" }
func (a addrText) String() string  { return string(a) }

func TestAddrTexts(t *testing.T) {
	var c addrTexts
	first := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4000}
	for range 3 {
		if got := c.text(first); got != "127.0.0.1:4000" {
			t.Fatalf("text = %q", got)
		}
	}
	unix := &net.UnixAddr{Name: "/run/x.sock", Net: "unix"}
	if got := c.text(unix); got != "/run/x.sock" {
		t.Errorf("unix text = %q", got)
	}
	if got := c.text(addrText("elsewhere")); got != "elsewhere" {
		t.Errorf("other text = %q", got)
	}
	// Past the bound the cache starts again, and still answers right.
	for i := range 2 * maxCached {
		a := &net.TCPAddr{IP: net.IPv4(10, 0, byte(i>>8), byte(i)), Port: i}
		if got, want := c.text(a), a.String(); got != want {
			t.Fatalf("text = %q, want %q", got, want)
		}
	}
	if n := c.c.n.Load(); n > maxCached {
		t.Errorf("cache holds %d entries, bound %d", n, maxCached)
	}
	if got := c.text(first); got != "127.0.0.1:4000" {
		t.Errorf("text after eviction = %q", got)
	}
}
