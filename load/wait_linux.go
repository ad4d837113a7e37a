package load

import (
	"os"
	"runtime"
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
	w := &waiter{done: done, spin: &spin{window: spinWindow}, yield: runtime.GOMAXPROCS(0) == 1, timer: newNapTimer()}
	fd, _, errno := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic,
		syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		return w
	}
	file := os.NewFile(fd, "pacer timer") // nonblocking: read through the poller
	conn, err := file.SyscallConn()
	if err != nil {
		file.Close()
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
	if !w.ring(d) || !w.wait() {
		// Never expected; this nap goes on a runtime timer.
		w.timerNap(d)
	}
}

// canRing says whether ring and wait work: whether there is a timerfd.
func (w *waiter) canRing() bool { return w.file != nil }

// ring arms the timerfd to expire in d (at least 1 ns), waking the
// goroutine parked in wait then; another goroutine than the waiter's may
// call it. It is false where there is no timerfd or arming it failed.
func (w *waiter) ring(d time.Duration) bool {
	if w.file == nil {
		return false
	}
	spec := itimerspec{value: syscall.NsecToTimespec(int64(max(d, 1)))}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, uintptr(w.fd), 0,
		uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	return errno == 0
}

// wait parks on the poller until the timerfd expires; false if it is
// closed, or there is none.
func (w *waiter) wait() bool {
	if w.file == nil {
		return false
	}
	return w.conn.Read(w.expired) == nil && w.readErr == 0
}

// close releases the timerfd and wakes a goroutine parked in wait; the
// poller keeps the descriptor open until that goroutine has left its read.
func (w *waiter) close() {
	if w.file != nil {
		w.file.Close()
	}
}
