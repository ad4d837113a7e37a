package cli_test

import (
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["nest"] = cmdNest
}

// cmdNest writes deeply nested input too big to keep in a script:
//
//	nest FILE N OPEN INNER CLOSE   writes OPEN N times, INNER, CLOSE N times
func cmdNest(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: nest FILE N OPEN INNER CLOSE")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	s := strings.Repeat(args[2], n) + args[3] + strings.Repeat(args[4], n)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s), 0o644))
}
