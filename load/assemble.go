package load

import "time"

// result merges the closed shards into a Result covering measured time.
func (r *run) result(measured time.Duration, series []Point) *Result {
	measured = max(measured, 0)
	steps := make([]*Result, len(r.phases))
	var lagSum time.Duration
	for k, ph := range r.phases {
		var sum time.Duration
		steps[k], sum = r.stepResult(k, ph, measured)
		steps[k].CPU = cpuWithin(series, ph)
		lagSum += sum
	}
	res := newResult()
	res.Start, res.Duration = r.measureStart, measured
	for _, st := range steps {
		res.add(st)
	}
	res.Offered = meanOffered(r.phases, measured)
	if res.Calls > 0 {
		res.MeanLag = lagSum / time.Duration(res.Calls)
	}
	r.addShardTotals(res)
	res.Series = series
	res.CPU = cpuWithin(series, Phase{})
	if len(steps) > 1 {
		res.Steps = steps
	}
	return res
}

// stepResult merges phase k of every shard; it also returns the summed lag.
func (r *run) stepResult(k int, ph Phase, measured time.Duration) (*Result, time.Duration) {
	st := newResult()
	st.Start = r.measureStart.Add(ph.Start)
	st.Duration = max(measured-ph.Start, 0)
	if ph.Length > 0 {
		st.Duration = min(st.Duration, ph.Length)
	}
	st.Offered = ph.Rate
	st.NotSent = r.notSent[k]
	var lagSum time.Duration
	for _, s := range r.shards {
		p := &s.phases[k]
		st.Calls += p.calls
		st.Errors += p.errors
		st.MaxLag = max(st.MaxLag, p.lagMax)
		lagSum += p.lagSum
		st.Corrected.Merge(p.corrected)
		st.Service.Merge(p.service)
		st.Failed.Merge(p.failed)
	}
	if st.Calls > 0 {
		st.MeanLag = lagSum / time.Duration(st.Calls)
	}
	return st, lagSum
}

// meanOffered is the offered rate over the measured time: each phase's
// rate weighted by how much of the phase was measured. One phase is its
// own rate, whatever was measured of it.
func meanOffered(phases []Phase, measured time.Duration) float64 {
	if len(phases) == 1 {
		return phases[0].Rate
	}
	if measured <= 0 {
		return 0
	}
	var calls float64
	for _, ph := range phases {
		d := max(measured-ph.Start, 0)
		if ph.Length > 0 {
			d = min(d, ph.Length)
		}
		calls += ph.Rate * d.Seconds()
	}
	return calls / measured.Seconds()
}

// addShardTotals adds what shards keep for the whole run only.
func (r *run) addShardTotals(res *Result) {
	var firstAt time.Time
	for _, s := range r.shards {
		if s.firstErr != "" && (firstAt.IsZero() || s.firstErrAt.Before(firstAt)) {
			res.FirstError, firstAt = s.firstErr, s.firstErrAt
		}
		addLabels(res.Codes, s.codes, maxCodes)
		addLabels(res.Messages, s.messages, maxMessages)
		res.CutOff += s.cutOff
		res.Extra.Merge(s.extra)
	}
}

// lastDone is when the last measured call ended, or now if none did.
func (r *run) lastDone() time.Time {
	var last time.Time
	for _, s := range r.shards {
		for k := range s.phases {
			if t := s.phases[k].lastDone; t.After(last) {
				last = t
			}
		}
	}
	if last.IsZero() {
		return time.Now()
	}
	return last
}

// cpuWithin sums the CPU time of the points that start within ph; a phase
// of zero length runs to the end.
func cpuWithin(series []Point, ph Phase) time.Duration {
	var cpu time.Duration
	for _, p := range series {
		if p.At >= ph.Start && (ph.Length <= 0 || p.At < ph.Start+ph.Length) {
			cpu += p.CPU
		}
	}
	return cpu
}
