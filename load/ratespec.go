package load

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxSteps bounds the steps a rate spec may expand to.
const maxSteps = 10000

// ParseRate reads a rate spec, as the --rate flag takes it:
//
//	N        a constant N calls per second (Constant)
//	A:B:+S   steps of S calls per second from A up to B, each lasting step
//	A:B:-S   the same going down from A to B
//
// Rates are decimal numbers; N, A and S must be positive, B non-negative.
// Steps run A, A±S, A±2S, ... and stop at the last one not past B, so
// "50:400:+50" is the eight steps 50, 100, ... 400. A step spec needs a
// positive step duration.
func ParseRate(spec string, step time.Duration) (Pacer, error) {
	parts := strings.Split(strings.TrimSpace(spec), ":")
	switch len(parts) {
	case 1:
		r, err := parseRateNumber(spec, parts[0])
		if err != nil {
			return nil, err
		}
		if r == 0 {
			return nil, fmt.Errorf("load: rate %q: must be positive", spec)
		}
		return Constant{Rate: r}, nil
	case 3:
		return parseSteps(spec, parts, step)
	}
	return nil, fmt.Errorf("load: rate %q: want N or A:B:+S", spec)
}

func parseSteps(spec string, parts []string, step time.Duration) (Pacer, error) {
	from, err := parseRateNumber(spec, parts[0])
	if err != nil {
		return nil, err
	}
	to, err := parseRateNumber(spec, parts[1])
	if err != nil {
		return nil, err
	}
	by, err := parseIncrement(spec, parts[2])
	if err != nil {
		return nil, err
	}
	steps, err := newSteps(spec, from, to, by, step)
	if err != nil {
		return nil, err
	}
	return steps, nil
}

// NewSteps returns the steps of a ramp from from to to calls per second
// by by (negative going down), each lasting step: what ParseRate makes of
// "from:to:+by" (or "from:to:-by" for a negative by).
func NewSteps(from, to, by float64, step time.Duration) (Steps, error) {
	spec := fmt.Sprintf("%g:%g:%+g", from, to, by)
	for _, r := range []float64{from, to, by} {
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return Steps{}, fmt.Errorf("load: rate %q: %g is not a rate (calls per second)", spec, r)
		}
	}
	if from < 0 || to < 0 {
		return Steps{}, fmt.Errorf("load: rate %q: rates must not be negative", spec)
	}
	if by == 0 {
		return Steps{}, fmt.Errorf("load: rate %q: step must not be zero", spec)
	}
	return newSteps(spec, from, to, by, step)
}

func newSteps(spec string, from, to, by float64, step time.Duration) (Steps, error) {
	if step <= 0 {
		return Steps{}, fmt.Errorf("load: rate %q: steps need a positive step duration", spec)
	}
	rates, err := stepRates(spec, from, to, by)
	if err != nil {
		return Steps{}, err
	}
	return Steps{Rates: rates, Step: step}, nil
}

func parseRateNumber(spec, s string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsInf(r, 0) || math.IsNaN(r) || r < 0 {
		return 0, fmt.Errorf("load: rate %q: %q is not a rate (calls per second)", spec, s)
	}
	return r, nil
}

// parseIncrement reads "+S" or "-S" as a signed step.
func parseIncrement(spec, s string) (float64, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, fmt.Errorf("load: rate %q: step %q must be +S or -S", spec, s)
	}
	by, err := parseRateNumber(spec, s[1:])
	if err != nil {
		return 0, err
	}
	if by == 0 {
		return 0, fmt.Errorf("load: rate %q: step must not be zero", spec)
	}
	if s[0] == '-' {
		by = -by
	}
	return by, nil
}

// stepRates expands from, from+by, ... up to to (inclusive).
func stepRates(spec string, from, to, by float64) ([]float64, error) {
	if from == 0 {
		return nil, fmt.Errorf("load: rate %q: the first step must be positive", spec)
	}
	if (to-from)*by < 0 {
		return nil, fmt.Errorf("load: rate %q: step %g moves away from %g", spec, by, to)
	}
	steps := math.Floor((to-from)/by+1e-9) + 1
	if !(steps <= maxSteps) {
		return nil, fmt.Errorf("load: rate %q: %g steps, more than %d", spec, steps, maxSteps)
	}
	n := int(steps)
	rates := make([]float64, 0, n)
	for k := range n {
		if r := from + float64(k)*by; r > 0 {
			rates = append(rates, r)
		}
	}
	return rates, nil
}
