package transcode_test

import (
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/transcode"
)

// TestOneAllocation: once a Type has converted a value, converting it
// again allocates the result and nothing else, in both directions, and
// nothing at all into a buffer with room.
func TestOneAllocation(t *testing.T) {
	for _, s := range thriftfixture.Specimens {
		for _, pr := range thriftfixture.Protocols {
			typ := benchType(t, s.Type)
			data := readSpecimen(t, s.Name, pr.Ext)
			mo, uo := transcode.MarshalOptions{Protocol: pr.Proto}, transcode.UnmarshalOptions{Protocol: pr.Proto}
			j, err := mo.Marshal(typ, data)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := uo.Unmarshal(typ, j); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, 2*len(j))
			for name, f := range map[string]func(){
				"Marshal":         func() { mo.Marshal(typ, data) },
				"Unmarshal":       func() { uo.Unmarshal(typ, j) },
				"MarshalAppend":   func() { mo.MarshalAppend(buf[:0], typ, data) },
				"UnmarshalAppend": func() { uo.UnmarshalAppend(buf[:0], typ, j) },
			} {
				want := 1.0
				if name == "MarshalAppend" || name == "UnmarshalAppend" {
					want = 0
				}
				if n := testing.AllocsPerRun(20, f); n != want {
					t.Errorf("%s.%s %s: %v allocations, want %v", s.Name, pr.Ext, name, n, want)
				}
			}
		}
	}
}
