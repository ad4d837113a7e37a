package rpctest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Certs are a CA, a server certificate for localhost / 127.0.0.1 / ::1, and
// a client certificate, all signed by the CA and written as PEM files.
type Certs struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey string // file paths
	pool                                             *x509.CertPool
	server                                           tls.Certificate
}

// MakeCerts writes fresh certificates into dir.
func MakeCerts(dir string) (*Certs, error) {
	caKey, caCert, caDER, err := newCA()
	if err != nil {
		return nil, err
	}
	c := newCerts(dir, caCert)
	if err := c.write(caDER, caCert, caKey); err != nil {
		return nil, err
	}
	return c, nil
}

// newCerts names the files in dir and trusts ca.
func newCerts(dir string, ca *x509.Certificate) *Certs {
	c := &Certs{
		CA:         filepath.Join(dir, "ca.pem"),
		ServerCert: filepath.Join(dir, "server.pem"), ServerKey: filepath.Join(dir, "server-key.pem"),
		ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client-key.pem"),
		pool: x509.NewCertPool(),
	}
	c.pool.AddCert(ca)
	return c
}

// write writes the CA's certificate (caDER), then issues the server's
// and the client's and writes them with their keys.
func (c *Certs) write(caDER []byte, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (err error) {
	if err := writePEM(c.CA, "CERTIFICATE", caDER); err != nil {
		return err
	}
	if c.server, err = issue(serverTemplate(), ca, caKey, c.ServerCert, c.ServerKey); err != nil {
		return err
	}
	_, err = issue(clientTemplate(), ca, caKey, c.ClientCert, c.ClientKey)
	return err
}

// serverTemplate is the server certificate's: localhost, 127.0.0.1, ::1.
func serverTemplate() *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: "localhost"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
}

// clientTemplate is the client certificate's.
func clientTemplate() *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: "rpckit-test-client"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
}

// ServerTLS is the server's TLS config; with mtls, client certificates
// signed by the CA are required.
func (c *Certs) ServerTLS(mtls bool) *tls.Config {
	cfg := &tls.Config{Certificates: []tls.Certificate{c.server}, MinVersion: tls.VersionTLS12}
	if mtls {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = c.pool
	}
	return cfg
}

func template(t *x509.Certificate) *x509.Certificate {
	t.SerialNumber, _ = rand.Int(rand.Reader, big.NewInt(1<<62))
	t.NotBefore = time.Now().Add(-time.Hour)
	t.NotAfter = time.Now().Add(24 * time.Hour)
	t.KeyUsage = x509.KeyUsageDigitalSignature
	return t
}

func newCA() (*ecdsa.PrivateKey, *x509.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl := template(&x509.Certificate{Subject: pkix.Name{CommonName: "rpckit test CA"}, IsCA: true, BasicConstraintsValid: true})
	tmpl.KeyUsage = x509.KeyUsageCertSign
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return key, cert, der, err
}

// issue makes a certificate from tmpl signed by the CA, writes it and its
// key to certPath and keyPath, and loads them back.
func issue(tmpl, ca *x509.Certificate, caKey *ecdsa.PrivateKey, certPath, keyPath string) (tls.Certificate, error) {
	key, der, err := newLeaf(tmpl, ca, caKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := writeKeyPair(certPath, keyPath, der, key); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

// newLeaf makes a key and its certificate from tmpl, signed by the CA.
func newLeaf(tmpl, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.CreateCertificate(rand.Reader, template(tmpl), ca, &key.PublicKey, caKey)
	return key, der, err
}

// writeKeyPair writes a certificate (der) and its key as PEM files.
func writeKeyPair(certPath, keyPath string, der []byte, key *ecdsa.PrivateKey) error {
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := writePEM(certPath, "CERTIFICATE", der); err != nil {
		return err
	}
	return writePEM(keyPath, "EC PRIVATE KEY", keyDER)
}

func writePEM(path, kind string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}
