package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"
)

// ListenAddr listens on addr: host:port for TCP, or unix:PATH (also
// unix:///abs/path, as gRPC targets write it) for a Unix socket. A socket
// file left by a server that is gone is removed first; one that a server
// still answers on is an error.
func ListenAddr(addr string) (net.Listener, error) {
	path, ok := unixPath(addr)
	if !ok {
		return net.Listen("tcp", addr)
	}
	if path == "" {
		return nil, fmt.Errorf("%q: no socket path after \"unix:\"", addr)
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	return net.Listen("unix", path)
}

// unixPath returns the socket path of a unix: address.
func unixPath(addr string) (string, bool) {
	if rest, ok := strings.CutPrefix(addr, "unix://"); ok {
		return rest, true
	}
	return strings.CutPrefix(addr, "unix:")
}

// removeStale removes the socket file at path when nothing answers on it.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("listen unix %s: the file exists and is not a socket", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("listen unix %s: address already in use", path)
	}
	return os.Remove(path)
}
