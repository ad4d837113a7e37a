package cli_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// flowfield FILE FLOW PATH VALUE checks a value of one flow of a
// scenario's JSON report (rpckit.bench.flows/v1): FLOW is a flow's name,
// or "total"; PATH is a dotted key path in it, such as calls, codes.OK or
// slo.met; VALUE is the JSON of the value wanted.
func init() {
	scriptCmds["flowfield"] = cmdFlowField
}

func cmdFlowField(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: flowfield FILE FLOW PATH VALUE")
	}
	var rep struct {
		Flows []map[string]any `json:"flows"`
		Total map[string]any   `json:"total"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &rep))
	flow := rep.Total
	if args[1] != "total" {
		flow = nil
		for _, f := range rep.Flows {
			if f["name"] == args[1] {
				flow = f
			}
		}
	}
	if flow == nil {
		ts.Fatalf("%s: no flow %q", args[0], args[1])
	}
	got, err := fieldAt(flow, args[2])
	if err != nil {
		ts.Fatalf("%s: flow %q: %v", args[0], args[1], err)
	}
	var want any
	ts.Check(json.Unmarshal([]byte(args[3]), &want))
	if fmt.Sprint(got) != fmt.Sprint(want) {
		ts.Fatalf("%s: flow %q: %s is %v, want %v", args[0], args[1], args[2], got, want)
	}
}

// fieldAt walks a dotted key path down nested objects.
func fieldAt(v any, path string) (any, error) {
	for key := range strings.SplitSeq(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not in an object", path, key)
		}
		if v, ok = m[key]; !ok {
			return nil, fmt.Errorf("%s: no key %q", path, key)
		}
	}
	return v, nil
}
