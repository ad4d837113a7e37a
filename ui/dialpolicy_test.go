package ui

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/rpckit/rpckit/internal/rpctest"
)

func fakeLookup(m map[string][]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, s := range m[host] {
			out = append(out, netip.MustParseAddr(s))
		}
		if len(out) == 0 {
			return nil, errors.New("no such host")
		}
		return out, nil
	}
}

func TestDialPolicyExposed(t *testing.T) {
	allow, err := parseAllowlist([]string{"*.svc.internal:443,10.0.0.0/8:*", "api.example.com:8443", "[fd12::1]:50051"})
	if err != nil {
		t.Fatal(err)
	}
	p := &dialPolicy{exposed: true, allow: allow, lookup: fakeLookup(map[string][]string{
		"users.svc.internal":  {"10.1.2.3"},
		"rebind.svc.internal": {"169.254.169.254", "10.9.9.9"},
		"meta.svc.internal":   {"169.254.169.254"},
		"api.example.com":     {"203.0.113.7"},
		"evil.example.com":    {"10.0.0.5"},
	})}
	cases := []struct {
		target, addr, authority, err string
	}{
		{"users.svc.internal:443", "10.1.2.3:443", "users.svc.internal:443", ""},
		{"rebind.svc.internal:443", "10.9.9.9:443", "rebind.svc.internal:443", ""}, // the blocked address is skipped
		{"meta.svc.internal:443", "", "", "blocked"},
		{"169.254.169.254:80", "", "", "blocked"},
		{"[fd00:ec2::254]:80", "", "", "blocked"},
		{"[::ffff:169.254.169.254]:80", "", "", "blocked"},
		{"100.100.100.200:80", "", "", "blocked"},
		{"users.svc.internal:444", "10.1.2.3:444", "users.svc.internal:444", ""}, // by its address
		{"api.example.com:8443", "203.0.113.7:8443", "api.example.com:8443", ""},
		{"api.example.com:443", "", "", "no --allow pattern"},
		{"evil.example.com:50051", "10.0.0.5:50051", "evil.example.com:50051", ""}, // the prefix rule matches its address
		{"10.3.4.5:9000", "10.3.4.5:9000", "", ""},
		{"[fd12::1]:50051", "[fd12::1]:50051", "", ""},
		{"127.0.0.1:50051", "", "", "no --allow pattern"},
		{"unix:/tmp/x.sock", "", "", "Unix sockets"},
		{"dns:///users.svc.internal:443", "", "", "want host:port"},
		{"nowhere.svc.internal:443", "", "", "no such host"},
	}
	for _, c := range cases {
		r, err := p.resolve(context.Background(), c.target)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.target, err, c.err)
			}
			continue
		}
		if err != nil || r.addr != c.addr || r.authority != c.authority {
			t.Errorf("%s: %+v %v, want %s authority %q", c.target, r, err, c.addr, c.authority)
		}
	}
}

// A target no rule could allow is refused before its name is looked up.
func TestDialPolicyNoLookupWhenNothingMatches(t *testing.T) {
	allow, err := parseAllowlist([]string{"*.svc.internal:443", "10.0.0.0/8:50051"})
	if err != nil {
		t.Fatal(err)
	}
	var looked []string
	p := &dialPolicy{exposed: true, allow: allow, lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
		looked = append(looked, host)
		return []netip.Addr{netip.MustParseAddr("10.1.1.1")}, nil
	}}
	for _, target := range []string{"metadata.google.internal:80", "users.svc.internal:80", "other.example:443"} {
		if _, err := p.resolve(context.Background(), target); err == nil || !strings.Contains(err.Error(), "no --allow pattern matches it") {
			t.Errorf("%s: %v", target, err)
		}
	}
	if len(looked) != 0 {
		t.Errorf("looked up %v", looked)
	}
	// A name on a port some address rule has is looked up and checked.
	if r, err := p.resolve(context.Background(), "anything.example:50051"); err != nil || r.addr != "10.1.1.1:50051" {
		t.Errorf("anything.example:50051: %+v %v", r, err)
	}
}

func TestDialPolicyLocal(t *testing.T) {
	p := &dialPolicy{lookup: fakeLookup(map[string][]string{"localhost": {"127.0.0.1", "::1"}, "far": {"192.0.2.1"}})}
	for target, loop := range map[string]bool{"localhost:1": true, "127.0.0.1:1": true, "far:1": false, "unix:/x": true, "169.254.169.254:80": false} {
		r, err := p.resolve(context.Background(), target)
		if err != nil || r.loopback != loop || r.addr != target {
			t.Errorf("%s: %+v %v", target, r, err)
		}
	}
}

func TestAllowlistErrors(t *testing.T) {
	for _, bad := range []string{"host", "host:", "host:http", "[:1", ":80"} {
		if _, err := parseAllowlist([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// An exposed page refuses a target the allowlist does not match, when it
// dials, with the reason.
func TestExposedConnect(t *testing.T) {
	port := fx.Plain[strings.LastIndexByte(fx.Plain, ':')+1:]
	p := newPage(t, Options{Exposed: true, Allow: []string{"127.0.0.1:" + port}})
	p.connect(connectRequest{Target: fx.Plain, Plaintext: true})
	var e apiError
	if code := p.post("/api/connect", connectRequest{Target: fx.TLS, Plaintext: true}, &e); code != 200 || !strings.Contains(e.Error, "not allowed") {
		t.Errorf("unlisted target: %d %s", code, e.Error)
	}
	if code := p.post("/api/connect", connectRequest{Target: "169.254.169.254:80", Plaintext: true}, &e); code != 200 || !strings.Contains(e.Error, "blocked") {
		t.Errorf("metadata address: %d %s", code, e.Error)
	}
}

// An exposed page reaches a TLS target by its name: it dials the address
// it checked, with the name kept as :authority and TLS server name.
func TestExposedConnectTLSByName(t *testing.T) {
	var mu sync.Mutex
	var sni []string
	cfg := fx.Certs.ServerTLS(false)
	cfg.GetConfigForClient = func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		mu.Lock()
		defer mu.Unlock()
		sni = append(sni, h.ServerName)
		return nil, nil
	}
	srv, err := rpctest.Start(rpctest.Options{TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	target := "localhost:" + srv.Addr[strings.LastIndexByte(srv.Addr, ':')+1:]
	p := newPage(t, Options{Exposed: true, Allow: []string{target}})
	p.h.targets.policy.lookup = fakeLookup(map[string][]string{"localhost": {"127.0.0.1"}})
	ca := readFile(t, fx.Certs.CA)
	for _, m := range []tlsMaterial{{CA: ca}, {CA: ca, ServerName: "localhost"}} {
		resp := p.connect(connectRequest{Target: target, TLS: m})
		var out callResult
		p.post("/api/call", callRequest{Conn: resp.ID, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"number":"7"}`)}, &out)
		if out.CodeName != "OK" {
			t.Fatalf("server name %q: call %+v", m.ServerName, out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, name := range sni {
		if name != "localhost" {
			t.Fatalf("TLS server names sent %q, want localhost each time", sni)
		}
	}
}
