package load

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	step := 30 * time.Second
	tests := []struct {
		spec string
		step time.Duration
		want Pacer
		err  string
	}{
		{spec: "100", want: Constant{Rate: 100}},
		{spec: " 2.5 ", want: Constant{Rate: 2.5}},
		{spec: "50:400:+50", step: step, want: Steps{Rates: []float64{50, 100, 150, 200, 250, 300, 350, 400}, Step: step}},
		{spec: "50:420:+50", step: step, want: Steps{Rates: []float64{50, 100, 150, 200, 250, 300, 350, 400}, Step: step}},
		{spec: "10:10:+5", step: step, want: Steps{Rates: []float64{10}, Step: step}},
		{spec: "300:100:-100", step: step, want: Steps{Rates: []float64{300, 200, 100}, Step: step}},
		{spec: "0.1:0.3:+0.1", step: step, want: Steps{Rates: []float64{0.1, 0.2, 0.30000000000000004}, Step: step}},
		{spec: "", err: "is not a rate"},
		{spec: "0", err: "must be positive"},
		{spec: "-5", err: "is not a rate"},
		{spec: "abc", err: "is not a rate"},
		{spec: "NaN", err: "is not a rate"},
		{spec: "1:2", err: "want N or A:B:+S"},
		{spec: "50:400:+50", err: "positive step duration"},
		{spec: "50:400:50", step: step, err: "must be +S or -S"},
		{spec: "50:400:+0", step: step, err: "must not be zero"},
		{spec: "50:400:-50", step: step, err: "moves away"},
		{spec: "0:400:+50", step: step, err: "first step must be positive"},
		{spec: "1:1000000:+1", step: step, err: "more than"},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.spec, tt.step)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "load: ") {
				t.Errorf("ParseRate(%q) error = %v, want one containing %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRate(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseRate(%q) = %#v, want %#v", tt.spec, got, tt.want)
		}
	}
}
