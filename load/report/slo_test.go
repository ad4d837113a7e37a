package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestParseSLO(t *testing.T) {
	tests := []struct {
		in   string
		want []Clause
		err  string
	}{
		{in: "p99<200ms,errors<0.1%", want: []Clause{
			{Text: "p99<200ms", Metric: "p", Percentile: 99, Op: "<", Limit: 200},
			{Text: "errors<0.1%", Metric: "errors", Op: "<", Limit: 0.1, Percent: true},
		}},
		{in: " p99.9 <= 1.5s , mean<20ms, max<1s, min>=0s", want: []Clause{
			{Text: "p99.9 <= 1.5s", Metric: "p", Percentile: 99.9, Op: "<=", Limit: 1500},
			{Text: "mean<20ms", Metric: "mean", Op: "<", Limit: 20},
			{Text: "max<1s", Metric: "max", Op: "<", Limit: 1000},
			{Text: "min>=0s", Metric: "min", Op: ">=", Limit: 0},
		}},
		{in: "rps>500,errors<=3,P50<500us", want: []Clause{
			{Text: "rps>500", Metric: "rps", Op: ">", Limit: 500},
			{Text: "errors<=3", Metric: "errors", Op: "<=", Limit: 3},
			{Text: "P50<500us", Metric: "p", Percentile: 50, Op: "<", Limit: 0.5},
		}},
		{in: "", err: "want metric<limit"},
		{in: "p99", err: "want metric<limit"},
		{in: "latency<2ms", err: "unknown metric"},
		{in: "p0<2ms", err: "unknown metric"},
		{in: "p101<2ms", err: "unknown metric"},
		{in: "p99<200", err: "not a duration"},
		{in: "errors<abc", err: "not an error count"},
		{in: "errors<200%", err: "not an error count"},
		{in: "rps>fast", err: "not a rate"},
		{in: "p99<200ms,", err: "want metric<limit"},
	}
	for _, tt := range tests {
		got, err := ParseSLO(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "report: slo ") {
				t.Errorf("ParseSLO(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSLO(%q): %v", tt.in, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("ParseSLO(%q) = %+v", tt.in, got)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ParseSLO(%q)[%d] = %+v, want %+v", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

func TestSLOVerdicts(t *testing.T) {
	// Step 1: p99 2.981ms, no errors, 100/s. Step 2: p99 23.695ms,
	// 1% errors, 148.5/s of 200 offered (failed calls count in neither).
	r := ramp()
	s1, s2 := r.Steps[0], r.Steps[1]
	tests := []struct {
		slo      string
		pass1    []bool
		pass2    []bool
		measured []string // verdict strings on step 2
	}{
		{"p99<10ms,errors<0.1%", []bool{true, true}, []bool{false, false},
			[]string{"p99<10ms: 23.695ms FAIL", "errors<0.1%: 1.000% FAIL"}},
		{"p50<=20ms,errors<=15,rps>=148", []bool{true, true, false}, []bool{true, true, true},
			[]string{"p50<=20ms: 15.847ms PASS", "errors<=15: 15 PASS", "rps>=148: 148.50/s PASS"}},
		{"rps>=150", []bool{false}, []bool{false}, []string{"rps>=150: 148.50/s FAIL"}},
		{"max<100ms,mean<10ms,min>2ms", []bool{true, true, false}, []bool{false, false, true},
			[]string{"max<100ms: 160.127ms FAIL", "mean<10ms: 16.137ms FAIL", "min>2ms: 8.000ms PASS"}},
	}
	for _, tt := range tests {
		slo, err := ParseSLO(tt.slo)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range slo.Check(s1) {
			if v.Pass != tt.pass1[i] {
				t.Errorf("%s on step 1: %v", tt.slo, v)
			}
		}
		for i, v := range slo.Check(s2) {
			if v.Pass != tt.pass2[i] || v.String() != tt.measured[i] {
				t.Errorf("%s on step 2: %q, want %q", tt.slo, v, tt.measured[i])
			}
		}
	}
}

func TestCapacityAndKnee(t *testing.T) {
	r := ramp()
	tests := []struct {
		slo  string
		rate float64
		step int
		ok   bool
	}{
		{"p99<10ms", 100, 0, true},
		{"p99<100ms", 200, 1, true},
		{"p99<1ms", 0, -1, false},
	}
	for _, tt := range tests {
		slo, _ := ParseSLO(tt.slo)
		rate, step, ok := Capacity(r, slo)
		if rate != tt.rate || step != tt.step || ok != tt.ok {
			t.Errorf("Capacity(%s) = %v, %d, %v; want %v, %d, %v", tt.slo, rate, step, ok, tt.rate, tt.step, tt.ok)
		}
	}
	k, ok := FindKnee(r, KneeOptions{})
	if !ok || k.Step != 1 || k.Rate != 200 || !strings.Contains(k.Reason, "achieved 148.50/s") {
		t.Errorf("knee = %+v, %v", k, ok)
	}
	// With throughput tracking off, the p99 jump gives the knee away.
	k, ok = FindKnee(r, KneeOptions{Track: 0.5})
	if !ok || k.Step != 1 || !strings.Contains(k.Reason, "7.9x") {
		t.Errorf("knee by p99 = %+v, %v", k, ok)
	}
	if _, ok := FindKnee(r, KneeOptions{Track: 0.5, Jump: 10}); ok {
		t.Error("knee found with a 10x jump threshold")
	}
	one := stepResult(t0, 100, 100, time.Millisecond, 0)
	if rate, _, ok := Capacity(one, SLO{}); !ok || rate != 100 {
		t.Errorf("capacity of a single step = %v, %v", rate, ok)
	}
}

func TestVerdictsGolden(t *testing.T) {
	slo, err := ParseSLO("p99<10ms,errors<0.1%")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteVerdicts(&b, ramp(), slo); err != nil {
		t.Fatal(err)
	}
	golden(t, "verdicts.txt", b.Bytes())
}

// A latency clause has nothing to measure when every call failed: it
// fails rather than passing on an empty histogram.
func TestSLONoSuccessfulCall(t *testing.T) {
	r := stepResult(t0, 100, 100, time.Millisecond, 1)
	if r.Corrected.Count() != 0 || r.Errors != 100 {
		t.Fatalf("fixture: %d successful calls, %d errors", r.Corrected.Count(), r.Errors)
	}
	slo, err := ParseSLO("p99<200ms,max<1s,errors<=100")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"p99<200ms: no successful call FAIL", "max<1s: no successful call FAIL", "errors<=100: 100 PASS"}
	for i, v := range slo.Check(r) {
		if v.String() != want[i] {
			t.Errorf("verdict %d: %q, want %q", i, v, want[i])
		}
	}
	if slo.Met(r) {
		t.Error("an SLO on latency met by a run with no successful call")
	}
}
