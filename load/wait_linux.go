package load

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// newWaiter makes a waiter that naps on a timerfd read through the
// runtime's poller: the kernel ends the nap on time (a timerfd has no timer
// slack) and the waiting goroutine holds no thread. Where a timerfd cannot
// be made it naps on a runtime timer.
//
// The timerfd is read with a raw read(2) inside RawConn.Read, which parks
// on the poller when the read would block. A read through os.File would
// enter the runtime's syscall path, which wakes the runtime's monitor
// thread from its deep sleep and sets it polling every 20 µs for the next
// millisecond: at a thousand naps a second that doubles the pacer's CPU
// time.
func newWaiter(done <-chan struct{}) *waiter {
	w := &waiter{done: done}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic,
		syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		w.timer = newNapTimer()
		return w
	}
	file := os.NewFile(fd, "pacer timer") // nonblocking: read through the poller
	conn, err := file.SyscallConn()
	if err != nil {
		file.Close()
		w.timer = newNapTimer()
		return w
	}
	w.fd, w.file, w.conn = int(fd), file, conn
	w.expired = func(fd uintptr) bool {
		var expirations [8]byte
		_, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd,
			uintptr(unsafe.Pointer(&expirations[0])), uintptr(len(expirations)))
		w.readErr = errno
		return errno != syscall.EAGAIN
	}
	return w
}

const clockMonotonic = 1 // CLOCK_MONOTONIC

// itimerspec is the kernel's struct itimerspec.
type itimerspec struct {
	interval, value syscall.Timespec
}

// nap sleeps for about d.
func (w *waiter) nap(d time.Duration) {
	if w.file == nil {
		w.timerNap(d)
		return
	}
	spec := itimerspec{value: syscall.NsecToTimespec(int64(d))}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, uintptr(w.fd), 0,
		uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	if errno != 0 {
		w.timerNap(d)
		return
	}
	if err := w.conn.Read(w.expired); err != nil || w.readErr != 0 {
		// Never expected; naps go on without the timerfd.
		w.close()
		w.file, w.conn, w.timer = nil, nil, newNapTimer()
	}
}

// close releases the timerfd.
func (w *waiter) close() {
	if w.file != nil {
		w.file.Close()
	}
}
