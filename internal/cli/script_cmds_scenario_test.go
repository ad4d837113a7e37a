package cli_test

import (
	"encoding/json"
	"math"
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["flowratio"] = cmdFlowRatio
}

// cmdFlowRatio checks the calls of two flows in a JSON report of several
// flows (bench --scenario --format json):
//
//	flowratio FILE FLOW_A FLOW_B RATIO TOLERANCE
//
// It fails unless calls(A)/calls(B) is within TOLERANCE (a fraction, such
// as 0.02) of RATIO, and each flow made at least one call.
func cmdFlowRatio(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: flowratio FILE FLOW_A FLOW_B RATIO TOLERANCE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var rep struct {
		Flows []struct {
			Name  string `json:"name"`
			Calls int64  `json:"calls"`
		} `json:"flows"`
	}
	ts.Check(json.Unmarshal(data, &rep))
	calls := map[string]int64{}
	for _, f := range rep.Flows {
		calls[f.Name] = f.Calls
	}
	ratio, err := strconv.ParseFloat(args[3], 64)
	ts.Check(err)
	tol, err := strconv.ParseFloat(args[4], 64)
	ts.Check(err)
	a, b := calls[args[1]], calls[args[2]]
	if a == 0 || b == 0 {
		ts.Fatalf("flows %s and %s made %d and %d calls", args[1], args[2], a, b)
	}
	got := float64(a) / float64(b)
	ts.Logf("%s/%s: %d/%d calls = %.4f", args[1], args[2], a, b, got)
	if math.Abs(got/ratio-1) > tol {
		ts.Fatalf("%s/%s = %d/%d = %.4f, want %g within %g", args[1], args[2], a, b, got, ratio, tol)
	}
}
