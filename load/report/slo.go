package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// An SLO is a list of clauses a Result must all meet, parsed from text such
// as "p99<200ms,errors<0.1%".
type SLO []Clause

// A Clause is one condition: Metric Op Limit.
//
//	pN      corrected latency at percentile N (p50, p90, p99, p99.9, ...)
//	mean, min, max   corrected latency
//	errors  failed calls: a percentage of timed calls with "%", else a count
//	rps     calls per second achieved
//
// Latency limits are Go durations (200ms, 1.5s, 500us). Op is one of <,
// <=, >, >=.
type Clause struct {
	Text       string  // as written
	Metric     string  // "p", "mean", "min", "max", "errors", "rps"
	Percentile float64 // for "p"
	Op         string
	Limit      float64 // ms for latencies, percent or count for errors, calls/s for rps
	Percent    bool    // errors given as a percentage
}

// A Verdict is a clause checked against a Result. A latency clause on a
// Result with no successful call has nothing to measure: it fails, with
// NoData set.
type Verdict struct {
	Clause   Clause
	Measured float64 // in the unit of Clause.Limit
	Pass     bool
	NoData   bool // a latency clause, and no successful call
}

// ParseSLO reads comma-separated clauses.
func ParseSLO(s string) (SLO, error) {
	var slo SLO
	for part := range strings.SplitSeq(s, ",") {
		c, err := parseClause(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("report: slo %q: %w", s, err)
		}
		slo = append(slo, c)
	}
	return slo, nil
}

// ops in the order they are looked for, two-character ones first.
func ops() []string {
	return []string{"<=", ">=", "<", ">"}
}

func parseClause(text string) (Clause, error) {
	c := Clause{Text: text}
	for _, op := range ops() {
		if i := strings.Index(text, op); i > 0 {
			c.Op = op
			name, value := strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+len(op):])
			if err := c.parseMetric(name); err != nil {
				return c, err
			}
			return c, c.parseLimit(value)
		}
	}
	return c, fmt.Errorf("clause %q: want metric<limit (ops <, <=, >, >=)", text)
}

func (c *Clause) parseMetric(name string) error {
	switch name = strings.ToLower(name); name {
	case "mean", "min", "max", "errors", "rps":
		c.Metric = name
		return nil
	}
	if p, ok := strings.CutPrefix(name, "p"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err == nil && v > 0 && v <= 100 {
			c.Metric, c.Percentile = "p", v
			return nil
		}
	}
	return fmt.Errorf("clause %q: unknown metric %q (pN, mean, min, max, errors, rps)", c.Text, name)
}

func (c *Clause) parseLimit(value string) error {
	switch c.Metric {
	case "errors":
		return c.parseErrors(value)
	case "rps":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) {
			return fmt.Errorf("clause %q: %q is not a rate", c.Text, value)
		}
		c.Limit = v
		return nil
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return fmt.Errorf("clause %q: %q is not a duration such as 200ms", c.Text, value)
	}
	c.Limit = ms(d)
	return nil
}

func (c *Clause) parseErrors(value string) error {
	num, pct := strings.CutSuffix(value, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || (pct && v > 100) {
		return fmt.Errorf("clause %q: %q is not an error count or percentage", c.Text, value)
	}
	c.Limit, c.Percent = v, pct
	return nil
}

// Check returns a verdict per clause, in order.
func (s SLO) Check(r *load.Result) []Verdict {
	out := make([]Verdict, len(s))
	for i, c := range s {
		if c.latency() && r.Corrected.Count() == 0 {
			out[i] = Verdict{Clause: c, NoData: true}
			continue
		}
		m := c.measure(r)
		out[i] = Verdict{Clause: c, Measured: m, Pass: compare(m, c.Op, c.Limit)}
	}
	return out
}

// Met reports whether r meets every clause.
func (s SLO) Met(r *load.Result) bool {
	for _, v := range s.Check(r) {
		if !v.Pass {
			return false
		}
	}
	return true
}

// latency reports whether the clause is on the latency of successful calls.
func (c Clause) latency() bool {
	return c.Metric != "errors" && c.Metric != "rps"
}

// measure is the clause's metric of r, in the unit of Limit.
func (c Clause) measure(r *load.Result) float64 {
	h := r.Corrected
	switch c.Metric {
	case "p":
		return ms(h.Percentile(c.Percentile))
	case "mean":
		return ms(h.Mean())
	case "min":
		return ms(h.Min())
	case "max":
		return ms(h.Max())
	case "errors":
		if c.Percent {
			return 100 * r.ErrorRate()
		}
		return float64(r.Errors)
	}
	return r.Rate()
}

func compare(v float64, op string, limit float64) bool {
	switch op {
	case "<":
		return v < limit
	case "<=":
		return v <= limit
	case ">":
		return v > limit
	}
	return v >= limit
}

// String is the verdict as a report line, such as
// "p99<200ms: 123.456ms PASS".
func (v Verdict) String() string {
	word := "FAIL"
	if v.Pass {
		word = "PASS"
	}
	if v.NoData {
		return fmt.Sprintf("%s: no successful call %s", v.Clause.Text, word)
	}
	return fmt.Sprintf("%s: %s %s", v.Clause.Text, v.Clause.format(v.Measured), word)
}

// format writes a measured value in the clause's unit.
func (c Clause) format(v float64) string {
	switch c.Metric {
	case "errors":
		if c.Percent {
			return strconv.FormatFloat(v, 'f', 3, 64) + "%"
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	case "rps":
		return strconv.FormatFloat(v, 'f', 2, 64) + "/s"
	}
	return strconv.FormatFloat(v, 'f', 3, 64) + "ms"
}

// String is the SLO as written: its clauses joined by commas.
func (s SLO) String() string {
	texts := make([]string, len(s))
	for i, c := range s {
		texts[i] = c.Text
	}
	return strings.Join(texts, ",")
}
