package load

import "time"

// Progress is what a run reports about once a second while it goes on.
type Progress struct {
	Start   time.Time     // when measuring begins, after warm-up
	Elapsed time.Duration // since the run started, warm-up included
	Warmup  bool          // still warming up: nothing is measured yet

	// Measured so far.
	Calls, Errors, NotSent int64
	Rate                   float64       // successful calls per second
	P99                    time.Duration // corrected latency of successful calls

	// Where the schedule stands: the phase the interval began in, from 0,
	// of Steps, and its offered calls per second (0 in closed loop); the
	// measured time left in that phase and in the run, 0 where no bound
	// ends them (a count) or during warm-up.
	Step, Steps       int
	Offered           float64
	StepLeft, RunLeft time.Duration

	Interval Point // the interval that just ended; zero during warm-up
	// The interval's latencies, for interval logs; the callee may keep
	// them. Corrected and Service hold successful calls, Failed the
	// corrected latency of failed ones.
	Corrected, Service, Failed *Histogram
}

// A collector takes the shards' interval stats once a second into the time
// series and reports progress. It runs in one goroutine of its own.
type collector struct {
	r          *run
	spare      []intervalStats // one empty set per shard, swapped in
	corrected  *Histogram      // the current interval, all shards
	service    *Histogram
	failed     *Histogram
	sofar      *Histogram // corrected, the whole measured run
	series     []Point
	begin      time.Time     // start of the current interval
	cpu        time.Duration // process CPU time at begin
	calls      int64
	errors     int64
	notSent    int64 // not-sent total at the last tick
	stop, done chan struct{}
}

func newCollector(r *run) *collector {
	c := &collector{
		r:         r,
		spare:     make([]intervalStats, len(r.shards)),
		corrected: NewHistogram(),
		service:   NewHistogram(),
		failed:    NewHistogram(),
		sofar:     NewHistogram(),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	for i := range c.spare {
		c.spare[i] = newIntervalStats()
	}
	return c
}

// finish stops the collector after a last collection and returns the
// series.
func (c *collector) finish() []Point {
	close(c.stop)
	<-c.done
	return c.series
}

func (c *collector) run() {
	defer close(c.done)
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	if c.warmup(t) && c.sleep(t, c.r.measureStart) {
		c.measure(t)
	}
	c.final()
}

// warmup reports progress each second until measuring starts; false if
// the collector was stopped.
func (c *collector) warmup(t *time.Timer) bool {
	for next := c.r.start.Add(time.Second); next.Before(c.r.measureStart); next = next.Add(time.Second) {
		if !c.sleep(t, next) {
			return false
		}
		c.report(Progress{Start: c.r.measureStart, Elapsed: next.Sub(c.r.start), Warmup: true})
	}
	return true
}

// measure collects an interval each second until stopped.
func (c *collector) measure(t *time.Timer) {
	c.begin, c.cpu = c.r.measureStart, processCPU()
	for next := c.begin.Add(time.Second); c.sleep(t, next); next = next.Add(time.Second) {
		c.collect(next)
	}
}

// final collects what the last tick left, if anything.
func (c *collector) final() {
	if c.begin.IsZero() {
		c.begin, c.cpu = c.r.measureStart, processCPU()
	}
	now := time.Now()
	if now.After(c.begin) {
		c.collect(now)
	}
}

// sleep waits until at; false if the collector was stopped first.
func (c *collector) sleep(t *time.Timer, at time.Time) bool {
	t.Reset(time.Until(at))
	select {
	case <-c.stop:
		return false
	case <-t.C:
		return true
	}
}

// collect ends the interval at now: the shards' stats become a Point.
func (c *collector) collect(now time.Time) {
	c.corrected.Reset()
	c.service.Reset()
	c.failed.Reset()
	var calls, errors int64
	for i, s := range c.r.shards {
		full := s.takeInterval(c.spare[i])
		c.corrected.Merge(full.corrected)
		c.service.Merge(full.service)
		c.failed.Merge(full.failed)
		calls, errors = calls+full.calls, errors+full.errors
		c.spare[i] = emptied(full)
	}
	notSent := c.r.notSentTotal.Load()
	p := c.point(now, calls, errors, notSent-c.notSent)
	c.notSent = notSent
	c.calls, c.errors = c.calls+calls, c.errors+errors
	c.sofar.Merge(c.corrected)
	c.begin = now
	if p.Calls+p.Errors+p.NotSent > 0 || p.Length >= time.Second/2 {
		c.series = append(c.series, p)
	}
	c.report(c.progress(now, p))
}

func emptied(s intervalStats) intervalStats {
	s.corrected.Reset()
	s.service.Reset()
	s.failed.Reset()
	s.calls, s.errors = 0, 0
	return s
}

func (c *collector) point(now time.Time, calls, errors, notSent int64) Point {
	cpu := processCPU()
	defer func() { c.cpu = cpu }()
	return Point{
		CPU:     cpu - c.cpu,
		At:      c.begin.Sub(c.r.measureStart),
		Length:  now.Sub(c.begin),
		Calls:   calls,
		Errors:  errors,
		NotSent: notSent,
		P50:     c.corrected.Percentile(50),
		P90:     c.corrected.Percentile(90),
		P99:     c.corrected.Percentile(99),
		Max:     c.corrected.Max(),
	}
}

func (c *collector) progress(now time.Time, p Point) Progress {
	pr := Progress{
		Start:    c.r.measureStart,
		Elapsed:  now.Sub(c.r.start),
		Calls:    c.calls,
		Errors:   c.errors,
		NotSent:  c.notSent,
		Rate:     perSecond(c.calls-c.errors, now.Sub(c.r.measureStart)),
		P99:      c.sofar.Percentile(99),
		Interval: p,
	}
	c.r.placeProgress(&pr, p.At, now.Sub(c.r.measureStart))
	return pr
}

// placeProgress fills in where an interval from measured offset from to at
// falls in the schedule.
func (r *run) placeProgress(p *Progress, from, at time.Duration) {
	k := phaseAt(r.phases, from)
	p.Step, p.Steps = k, len(r.phases)
	end := r.opts.Duration
	if r.sched != nil {
		p.Offered = r.phases[k].Rate
		end = r.sched.end()
	}
	if end > 0 {
		p.RunLeft = max(end-at, 0)
	}
	p.StepLeft = p.RunLeft
	if e := r.phases[k].End(); e > 0 && (end == 0 || e < end) {
		p.StepLeft = max(e-at, 0)
	}
}

// report hands p to the Progress callback, with copies of the interval's
// histograms.
func (c *collector) report(p Progress) {
	if c.r.opts.Progress == nil {
		return
	}
	if !p.Warmup {
		p.Corrected, p.Service, p.Failed = c.corrected.Clone(), c.service.Clone(), c.failed.Clone()
	}
	c.r.opts.Progress(p)
}
