//go:build linux && !race

package sysconn

import (
	"syscall"
	"unsafe"
)

// sysRead and sysWrite are read(2) and write(2) of a non-empty p, not
// announced to the scheduler.
func sysRead(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return n, e
}

func sysWrite(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return n, e
}
