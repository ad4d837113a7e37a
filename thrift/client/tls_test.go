package client_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// selfSigned returns a server certificate for 127.0.0.1 and a pool
// trusting it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "rpckit test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// TestTLS: calls over TLS, the server name taken from Addr; an untrusted
// server fails the handshake with a clear error.
func TestTLS(t *testing.T) {
	cert, roots := selfSigned(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := thrifttest.Setup{Protocol: wire.Compact}
	thrifttest.ServeOn(t, tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}}), s, thrifttest.NewHandler())
	c := newClient(t, s, ln.Addr().String(), func(o *client.Options) { o.TLS = &tls.Config{RootCAs: roots} })
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Compact), nil); err != nil {
		t.Fatal(err)
	}
	bad := newClient(t, s, ln.Addr().String(), func(o *client.Options) { o.TLS = &tls.Config{} })
	_, err = bad.Call(context.Background(), "Echo", echoArgs(wire.Compact), nil)
	if err == nil || !strings.Contains(err.Error(), "tls handshake with 127.0.0.1") {
		t.Fatalf("Call to an untrusted server = %v, want a handshake error", err)
	}
}

func TestUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	s := thrifttest.Setup{Transport: client.Header}
	thrifttest.ServeOn(t, ln, s, thrifttest.NewHandler())
	c := newClient(t, s, "unix:"+path, nil)
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); err != nil {
		t.Fatal(err)
	}
}
