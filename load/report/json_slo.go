package report

import "github.com/rpckit/rpckit/load"

// The JSON form of what the text report's SLO section shows: the verdicts
// on a result, a ramp's capacity and its knee. Steps are counted from 1,
// as the text report counts them.
type jsonSLO struct {
	Objectives string        `json:"objectives"`
	Met        bool          `json:"met"`
	Verdicts   []jsonVerdict `json:"verdicts"`
}

type jsonVerdict struct {
	Clause   string  `json:"clause"`
	Measured float64 `json:"measured"`
	Unit     string  `json:"unit"` // of measured: ms, %, calls or calls/s
	Pass     bool    `json:"pass"`
	NoData   bool    `json:"no_data,omitempty"` // a latency clause, and no successful call
}

type jsonCapacity struct {
	Found   bool    `json:"found"` // false when even the first step missed the SLO
	RateRPS float64 `json:"rate_rps"`
	Step    int     `json:"step"`
}

type jsonKnee struct {
	Step    int     `json:"step"`
	RateRPS float64 `json:"rate_rps"`
	Reason  string  `json:"reason"`
}

func sloJSON(r *load.Result, slo SLO) *jsonSLO {
	if slo == nil {
		return nil
	}
	js := &jsonSLO{Objectives: slo.String(), Met: true}
	for _, v := range slo.Check(r) {
		js.Met = js.Met && v.Pass
		js.Verdicts = append(js.Verdicts, jsonVerdict{
			Clause: v.Clause.Text, Measured: v.Measured, Unit: v.Clause.unit(), Pass: v.Pass, NoData: v.NoData,
		})
	}
	return js
}

func capacityJSON(r *load.Result, slo SLO) *jsonCapacity {
	rate, step, ok := Capacity(r, slo)
	if !ok {
		return &jsonCapacity{}
	}
	return &jsonCapacity{Found: true, RateRPS: rate, Step: step + 1}
}

func kneeJSON(r *load.Result) *jsonKnee {
	k, ok := FindKnee(r, KneeOptions{})
	if !ok {
		return nil
	}
	return &jsonKnee{Step: k.Step + 1, RateRPS: k.Rate, Reason: k.Reason}
}

// unit names the unit of the clause's Limit and measured values.
func (c Clause) unit() string {
	switch {
	case c.Metric == "errors" && c.Percent:
		return "%"
	case c.Metric == "errors":
		return "calls"
	case c.Metric == "rps":
		return "calls/s"
	}
	return "ms"
}
