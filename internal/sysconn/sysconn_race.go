//go:build linux && race

package sysconn

import "syscall"

// Under the race detector, sysRead and sysWrite go through package
// syscall, whose reads and writes tell the detector that I/O orders the
// goroutines on either side, as net.Conn's do.

func sysRead(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return uintptr(max(n, 0)), errno(err)
}

func sysWrite(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	return uintptr(max(n, 0)), errno(err)
}

func errno(err error) syscall.Errno {
	e, _ := err.(syscall.Errno) // package syscall returns them as they are
	return e
}
