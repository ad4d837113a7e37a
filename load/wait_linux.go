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
func newWaiter(done <-chan struct{}) *waiter {
	w := &waiter{done: done}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic,
		syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		w.timer = newNapTimer()
		return w
	}
	w.fd = int(fd)
	w.file = os.NewFile(fd, "pacer timer") // nonblocking: read through the poller
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
	var expirations [8]byte
	if _, err := w.file.Read(expirations[:]); err != nil {
		// Never expected; naps go on without the timerfd.
		w.file.Close()
		w.file, w.timer = nil, newNapTimer()
	}
}

// close releases the timerfd.
func (w *waiter) close() {
	if w.file != nil {
		w.file.Close()
	}
}
