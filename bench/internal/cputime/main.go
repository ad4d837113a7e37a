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
	code, err := run(os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// run runs argv, writes its CPU time to out and returns its exit code.
func run(out string, argv []string) (int, error) {
	cmd, err := start(argv)
	if err != nil {
		return 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, errors.New("no resource usage on this system")
	}
	line := fmt.Sprintf("%.6f %.6f\n", seconds(ru.Utime), seconds(ru.Stime))
	return cmd.ProcessState.ExitCode(), os.WriteFile(out, []byte(line), 0o644)
}

// start runs argv to its end, its input and output passed through; a
// command that ran and failed is no error.
func start(argv []string) (*exec.Cmd, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	return cmd, nil
}

func seconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
