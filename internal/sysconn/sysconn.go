//go:build linux

package sysconn

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
)

// A sysConn reads and writes a socket with raw system calls on its
// non-blocking descriptor, waiting in the runtime's poller as net.Conn does
// when the socket is not ready. A raw call does not tell the scheduler it
// is in a system call: these return at once on a non-blocking socket, and
// for a client that makes a read and a write every few calls, announcing
// each one (and waking the runtime's monitor thread for it) costs more
// than the call. Errors are those net.Conn gives.
type sysConn struct {
	net.Conn
	rc syscall.RawConn

	// Read state, for the reader goroutine: the buffer and the result of
	// the last read, and the function passed to rc.Read, made once.
	rbuf   []byte
	rn     int
	rerrno syscall.Errno
	readFn func(fd uintptr) bool

	wmu     sync.Mutex // one Write at a time: the state below is shared
	wbuf    []byte
	wn      int
	werrno  syscall.Errno
	writeFn func(fd uintptr) bool
}

// Wrap wraps c when it is a socket that has a descriptor, and returns it
// as it is otherwise.
func Wrap(c net.Conn) net.Conn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	s := &sysConn{Conn: c, rc: rc}
	s.readFn, s.writeFn = s.read, s.write
	return s
}

func (c *sysConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.rbuf, c.rn, c.rerrno = p, 0, 0
	err := c.rc.Read(c.readFn)
	c.rbuf = nil
	switch {
	case err != nil:
	case c.rerrno != 0:
		err = os.NewSyscallError("read", c.rerrno)
	case c.rn == 0:
		return 0, io.EOF
	default:
		return c.rn, nil
	}
	return 0, c.opError("read", err)
}

// read is one read(2); false asks rc.Read to wait for the socket.
func (c *sysConn) read(fd uintptr) bool {
	for {
		n, e := sysRead(fd, c.rbuf)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			c.rn = int(n)
		default:
			c.rerrno = e
		}
		return true
	}
}

func (c *sysConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.wbuf, c.wn, c.werrno = p, 0, 0
	var err error
	if len(p) > 0 {
		err = c.rc.Write(c.writeFn)
	}
	n := c.wn
	c.wbuf = nil
	if err == nil && c.werrno != 0 {
		err = os.NewSyscallError("write", c.werrno)
	}
	if err != nil {
		return n, c.opError("write", err)
	}
	return n, nil
}

// write writes what is left of c.wbuf; false asks rc.Write to wait for the
// socket.
func (c *sysConn) write(fd uintptr) bool {
	for c.wn < len(c.wbuf) {
		n, e := sysWrite(fd, c.wbuf[c.wn:])
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			c.wn += int(n)
		default:
			c.werrno = e
			return true
		}
	}
	return true
}

func (c *sysConn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}
