package cli_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Commands for processes started in the background that the scripts
// cannot watch otherwise:
//
//	waitstatus URL STATUS   polls GET URL until it answers with the status
//	                        code STATUS (at most 20 s)
//	waitfile FILE REGEXP    polls FILE until it matches REGEXP (at most 20 s)
//	hup PIDFILE             sends SIGHUP to the process whose pid is in PIDFILE
func init() {
	scriptCmds["waitstatus"] = cmdWaitStatus
	scriptCmds["waitfile"] = cmdWaitFile
	scriptCmds["hup"] = cmdHup
}

const scriptWait = 20 * time.Second

func cmdWaitStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitstatus URL STATUS")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	client := &http.Client{Timeout: 2 * time.Second}
	last := "no answer"
	for deadline := time.Now().Add(scriptWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := client.Get(args[0])
		if err != nil {
			last = err.Error()
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == want {
			return
		}
		last = resp.Status
	}
	ts.Fatalf("waitstatus %s: no %d within %s (last: %s)", args[0], want, scriptWait, last)
}

func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfile FILE REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	for deadline := time.Now().Add(scriptWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(b) {
			return
		}
	}
	b, _ := os.ReadFile(ts.MkAbs(args[0]))
	ts.Fatalf("waitfile %s: no match for %q within %s; it holds:\n%s", filepath.Base(args[0]), args[1], scriptWait, b)
}

func cmdHup(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hup PIDFILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	ts.Check(err)
	ts.Check(syscall.Kill(pid, syscall.SIGHUP))
}
