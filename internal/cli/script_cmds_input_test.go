//go:build linux

package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// signalstdin -INT|-TERM PREFIX PROG ARGS... runs PROG with its stdin a
// pipe that stays open, writes PREFIX (Go escapes allowed) to it, and once
// PROG has read all of it sends the signal. PROG's output goes to the
// script's; then "exit N" (or "killed by SIGNAL") is printed to stdout.
// PROG must end within 5 s of the signal.
func init() {
	scriptCmds["signalstdin"] = cmdSignalStdin
}

func cmdSignalStdin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: signalstdin -INT|-TERM PREFIX PROG ARGS...")
	}
	sig := map[string]syscall.Signal{"-INT": syscall.SIGINT, "-TERM": syscall.SIGTERM}[args[0]]
	prefix, err := strconv.Unquote(`"` + strings.ReplaceAll(args[1], `"`, `\"`) + `"`)
	if sig == 0 || err != nil || prefix == "" {
		ts.Fatalf("signalstdin: want -INT or -TERM and a non-empty PREFIX, got %q %q", args[0], args[1])
	}
	cmd, w := startWithPipe(ts, args[2], args[3:])
	defer w.Close()
	_, err = w.WriteString(prefix)
	ts.Check(err)
	waitDrained(ts, w)
	ts.Check(cmd.Process.Signal(sig))
	fmt.Fprintln(ts.Stdout(), endWithin(ts, cmd, 5*time.Second))
}

func startWithPipe(ts *testscript.TestScript, prog string, args []string) (*exec.Cmd, *os.File) {
	path, err := exec.LookPath(prog)
	ts.Check(err)
	r, w, err := os.Pipe()
	ts.Check(err)
	cmd := exec.Command(path, args...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, ts.Stdout(), ts.Stderr()
	ts.Check(cmd.Start())
	r.Close()
	return cmd, w
}

// waitDrained waits until the reader has taken everything written to w.
func waitDrained(ts *testscript.TestScript, w *os.File) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		n, err := unix.IoctlGetInt(int(w.Fd()), unix.TIOCINQ)
		ts.Check(err)
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("signalstdin: the program did not read its input within 20s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func endWithin(ts *testscript.TestScript, cmd *exec.Cmd, limit time.Duration) string {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		ts.Fatalf("signalstdin: the program did not end within %s of the signal", limit)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit %d", ws.ExitStatus())
}
