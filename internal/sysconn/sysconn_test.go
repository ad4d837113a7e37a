//go:build linux

package sysconn

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A sysConn moves the same bytes as the net.Conn it wraps, waits as it
// does when the socket is not ready (a write larger than the socket's
// buffers, a read with nothing to read), and fails with the same errors:
// end of file, deadlines, a closed connection.
func TestSysConn(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			client, server := socketPair(t, network)
			sc := Wrap(client)
			if _, ok := sc.(*sysConn); !ok {
				t.Fatalf("Wrap(%T) did not wrap it", client)
			}

			// Large both ways: the writer waits for the reader.
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
			done := make(chan error, 1)
			go func() {
				_, err := server.Write(big)
				done <- err
			}()
			got := make([]byte, len(big))
			if _, err := io.ReadFull(sc, got); err != nil || !bytes.Equal(got, big) {
				t.Fatalf("read %d bytes: %v", len(got), err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			go func() {
				_, err := io.ReadFull(server, got)
				done <- err
			}()
			if n, err := sc.Write(big); n != len(big) || err != nil {
				t.Fatalf("write: %d, %v", n, err)
			}
			if err := <-done; err != nil || !bytes.Equal(got, big) {
				t.Fatalf("the peer read: %v", err)
			}
			if n, err := sc.Write(nil); n != 0 || err != nil {
				t.Fatalf("empty write: %d, %v", n, err)
			}

			// A read deadline: the error net.Conn gives.
			sc.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			_, err := sc.Read(got[:1])
			if !errors.Is(err, os.ErrDeadlineExceeded) || !sameError(err, "read", client) {
				t.Fatalf("read past the deadline: %v", err)
			}
			sc.SetReadDeadline(time.Time{})

			// The peer closes: end of file, after the bytes it sent.
			server.Write([]byte("bye"))
			server.Close()
			if b, err := io.ReadAll(sc); string(b) != "bye" || err != nil {
				t.Fatalf("read to the end: %q, %v", b, err)
			}
			if n, err := sc.Read(got[:1]); n != 0 || err != io.EOF {
				t.Fatalf("read at the end: %d, %v", n, err)
			}

			// Closed here: the error net.Conn gives.
			sc.Close()
			if _, err := sc.Read(got[:1]); !errors.Is(err, net.ErrClosed) || !sameError(err, "read", client) {
				t.Fatalf("read when closed: %v", err)
			}
			if _, err := sc.Write(got[:1]); !errors.Is(err, net.ErrClosed) || !sameError(err, "write", client) {
				t.Fatalf("write when closed: %v", err)
			}
		})
	}
}

// sameError reports whether err reads as net.Conn's own error for op would:
// "op network local->remote: cause".
func sameError(err error, op string, c net.Conn) bool {
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != op {
		return false
	}
	prefix := op + " " + c.LocalAddr().Network() + " "
	return strings.HasPrefix(err.Error(), prefix)
}

func socketPair(t *testing.T, network string) (client, server net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial(network, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}
