// Command cputime runs a command and writes the CPU time it used, user and
// system seconds from the kernel's accounting of the child (getrusage, to
// the microsecond), to a file, for the benchmark scripts:
//
//	cputime OUT CMD [ARGS...]
//
// OUT gets one line, "USER SYS". The command's output passes through, and
// cputime exits with its exit code.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: cputime OUT CMD [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(1)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "cputime: no resource usage on this system")
		os.Exit(1)
	}
	line := fmt.Sprintf("%.6f %.6f\n", seconds(ru.Utime), seconds(ru.Stime))
	if err := os.WriteFile(os.Args[1], []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(1)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

func seconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
