package cli_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["exits"] = cmdExits
	scriptCmds["bodyserver"] = cmdBodyServer
}

// cmdBodyServer starts an HTTP server on loopback for the rest of the
// script, and sets NAME to its http://127.0.0.1:port URL:
//
//	bodyserver NAME
//
// It answers 200 to a request with a body and 411 Length Required to one
// without.
func cmdBodyServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: bodyserver NAME")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		if n == 0 {
			w.WriteHeader(http.StatusLengthRequired)
			return
		}
		fmt.Fprintf(w, "%d bytes\n", n)
	})
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	ts.Defer(func() { srv.Close() })
	ts.Setenv(args[0], "http://"+lis.Addr().String())
}

// cmdExits runs a program and checks its exit code:
//
//	exits CODE [-within DURATION] PROG ARG...
//
// The program sees the script's servers' variables (PLAIN, HTTP ...).
// Its stdout and stderr become the script's, for stdout and
// stderr to check. It is killed, and the script fails, if it has not
// exited within DURATION (default 60s): a generous bound for a command
// that must not hang, not a timing assertion.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE [-within DURATION] PROG ARG...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	args, limit := args[1:], time.Minute
	if args[0] == "-within" && len(args) > 2 {
		limit, err = time.ParseDuration(args[1])
		ts.Check(err)
		args = args[2:]
	}
	path, err := lookPath(ts, args[0])
	ts.Check(err)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"))
	for _, k := range []string{"PLAIN", "ALPHA", "NOREFL", "TLS", "MTLS", "UNIX", "HTTP"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k)) // the servers, for files that name them
	}
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		ts.Fatalf("%s did not exit within %s", args[0], limit)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		ts.Check(err)
	}
	ts.Logf("%s exited %d after %s", args[0], code, time.Since(start).Round(time.Millisecond))
	if code != want {
		ts.Fatalf("%s exited %d, want %d", args[0], code, want)
	}
}

// lookPath finds prog in the script's PATH, where its own commands are.
func lookPath(ts *testscript.TestScript, prog string) (string, error) {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", prog, exec.ErrNotFound)
}
