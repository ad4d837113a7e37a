//go:build !linux

package lean

import "net"

// newSysConn returns c: raw system calls are used on Linux only.
func newSysConn(c net.Conn) net.Conn { return c }
