package dynamic_test

import (
	"reflect"
	"testing"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
)

// TestRangeDiff: the Range methods visit what the generated code reads:
// Medium's fields, its items and counts in order, its labels and totals.
func TestRangeDiff(t *testing.T) {
	for _, s := range corpus(t, 25) {
		if s.name != "Medium" {
			continue
		}
		m := decode(t, s.p, s.name, s.b).(*bench.Medium)
		v := dynamic.NewValue(thriftfixture.BenchType(t, s.name), s.p, s.b)
		fields := 0
		if err := v.RangeFields(func(f *dynamic.Field, val dynamic.Value) bool {
			got, err := v.Get(dynamic.Path{dynamic.IDStep(f.ID)})
			if err != nil || !reflect.DeepEqual(got.Raw(), val.Raw()) {
				t.Fatalf("%s: RangeFields gives %s other bytes than Get", s.label, f.Name)
			}
			fields++
			return true
		}); err != nil {
			t.Fatal(err)
		}
		counts, _ := v.Get(dynamic.MustParsePath("counts"))
		var gotCounts []int32
		if err := counts.RangeElems(func(i int, e dynamic.Value) bool {
			gotCounts = append(gotCounts, int32(e.Int()))
			return true
		}); err != nil || !reflect.DeepEqual(gotCounts, m.Counts) && len(m.Counts) > 0 {
			t.Fatalf("%s: counts %v, want %v (%v)", s.label, gotCounts, m.Counts, err)
		}
		labels, _ := v.Get(dynamic.MustParsePath("labels"))
		gotLabels := map[string]string{}
		if err := labels.RangeEntries(func(k, e dynamic.Value) bool {
			gotLabels[k.String()] = e.String()
			return true
		}); err != nil || !reflect.DeepEqual(gotLabels, m.Labels) && len(m.Labels) > 0 {
			t.Fatalf("%s: labels %v, want %v (%v)", s.label, gotLabels, m.Labels, err)
		}
		if fields == 0 {
			t.Fatalf("%s: no fields", s.label)
		}
	}
}
