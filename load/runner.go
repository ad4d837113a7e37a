package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// A Target is the work to time: one call. It should return soon after ctx
// is done. The ctx carries a Recorder for extra latencies (RecorderFrom).
type Target func(ctx context.Context) error

// cutGrace is how long Run waits for calls to return once it cancels them.
const cutGrace = 500 * time.Millisecond

// Run calls target as opts say and returns what it measured.
//
// In open loop Result.Duration is the measured schedule: from the end of
// warm-up to the end the bounds set (the intended start of the first call
// past them), so Rate tracks the offered rate when the target keeps up. In
// closed loop it runs to the end of the last measured call.
//
// When ctx is done Run stops at once, cancels the calls in flight, and
// returns the result so far together with an error wrapping ctx's cause.
// Calls that end because Run cancelled them are counted in CutOff, not as
// errors. A target that ignores its ctx may outlive Run; what it records
// then is dropped.
func Run(ctx context.Context, opts Options, target Target) (*Result, error) {
	if target == nil {
		return nil, fmt.Errorf("load: nil target")
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	r := newRun(ctx, opts, target)
	defer r.cutCalls()
	col := newCollector(r)
	go col.run()
	measured := r.drive(ctx)
	res := r.result(measured, col.finish())
	if ctx.Err() != nil {
		return res, fmt.Errorf("load: run stopped early: %w", context.Cause(ctx))
	}
	return res, nil
}

// A run is the state of one Run.
type run struct {
	opts         Options
	target       Target
	sched        *schedule // open loop only
	phases       []Phase
	shards       []*shard
	start        time.Time
	measureStart time.Time

	callCtx  context.Context // cancelled to cut calls off at the end
	cutCalls context.CancelFunc

	work     chan job // open loop: due calls for idle workers
	nworkers int      // open loop: worker numbers given so far; the leader's
	npool    int      // open loop: workers started on r.work; the leader's
	workers  sync.WaitGroup

	notSent      []int64 // by phase; the dispatcher's own
	notSentTotal atomic.Int64
	issued       atomic.Int64 // closed loop: measured calls begun
}

// A job is one call to make: when it was due and its phase (-1 during
// warm-up). Closed-loop jobs have no due time.
type job struct {
	intended time.Time
	phase    int
}

func newRun(ctx context.Context, opts Options, target Target) *run {
	r := &run{opts: opts, target: target, work: make(chan job)}
	r.phases = []Phase{{Length: opts.Duration}}
	if opts.Pacer != nil {
		r.sched = newSchedule(opts.Pacer, opts.Warmup, opts.Count, opts.Duration)
		r.phases = r.sched.phases
	}
	r.notSent = make([]int64, len(r.phases))
	r.shards = make([]*shard, opts.shards())
	for i := range r.shards {
		r.shards[i] = newShard(len(r.phases))
	}
	r.callCtx, r.cutCalls = context.WithCancel(ctx)
	r.start = time.Now()
	r.measureStart = r.start.Add(opts.Warmup)
	return r
}

// drive makes the calls, waits for them and closes the shards; it returns
// the measured duration.
func (r *run) drive(ctx context.Context) time.Duration {
	if r.sched != nil {
		measured := r.openLoop(ctx)
		r.closeShards()
		return measured
	}
	r.closedLoop(ctx)
	r.closeShards()
	return r.lastDone().Sub(r.measureStart)
}

func (r *run) closeShards() {
	for _, s := range r.shards {
		s.close()
	}
}

// openLoop dispatches each call at its intended time, then drains until
// Drain past the schedule's end, so that a dispatcher that fell behind
// does not make the run longer.
func (r *run) openLoop(ctx context.Context) time.Duration {
	measured := r.pace(ctx)
	close(r.work)
	deadline := time.Now().Add(r.opts.Drain)
	if end := r.sched.end(); end > 0 {
		deadline = r.measureStart.Add(end + r.opts.Drain)
	}
	r.wait(ctx, deadline)
	return measured
}

// skip counts the measured calls i to j-1 of the schedule as not sent, by
// phase, without walking them one by one.
func (r *run) skip(i, j int64) {
	i = max(i, r.sched.warmCalls)
	for i < j {
		at, _, ok := r.sched.slot(i)
		if !ok {
			return
		}
		k := r.phaseOf(at, true)
		next := j
		if k+1 < len(r.phases) {
			next = min(j, r.sched.search(i, r.opts.Warmup+r.phases[k+1].Start))
		}
		r.notSent[k] += next - i
		r.notSentTotal.Add(next - i)
		i = next
	}
}

func (r *run) phaseOf(at time.Duration, measured bool) int {
	if !measured {
		return -1
	}
	return phaseAt(r.phases, at-r.opts.Warmup)
}

// sleepUntil waits for due on t, a runtime timer, with the runtime's
// precision; false if ctx is done first.
func sleepUntil(ctx context.Context, t *time.Timer, due time.Time) bool {
	d := time.Until(due)
	if d <= 0 {
		return ctx.Err() == nil
	}
	t.Reset(d)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// recorder makes worker id's Recorder and the ctx its calls get.
func (r *run) recorder(id int) (*Recorder, context.Context) {
	rec := &Recorder{shard: r.shards[id%len(r.shards)], worker: id}
	return rec, context.WithValue(r.callCtx, recorderKey{}, rec)
}

// closedLoop runs Concurrency workers back to back until the bounds, or
// as many as the ramp of Callers has at each moment.
func (r *run) closedLoop(ctx context.Context) {
	for w := range r.opts.callers() {
		r.workers.Add(1)
		go r.closedWorker(w)
	}
	var deadline time.Time
	if r.opts.Duration > 0 {
		deadline = r.measureStart.Add(r.opts.Duration + r.opts.Drain)
	}
	r.wait(ctx, deadline)
}

func (r *run) closedWorker(id int) {
	defer r.workers.Done()
	rec, ctx := r.recorder(id)
	for {
		now := r.now()
		if !r.awaitTurn(id, now) {
			return
		}
		now = r.now()
		j, ok := r.nextClosed(now)
		if !ok {
			return
		}
		r.call(ctx, rec, j, now)
	}
}

// nextClosed decides whether a closed-loop worker makes another call now.
func (r *run) nextClosed(now time.Time) (job, bool) {
	if r.callCtx.Err() != nil {
		return job{}, false
	}
	if now.Before(r.measureStart) {
		return job{phase: -1}, true
	}
	if r.opts.Duration > 0 && now.Sub(r.measureStart) >= r.opts.Duration {
		return job{}, false
	}
	if r.opts.Count > 0 && r.issued.Add(1) > r.opts.Count {
		return job{}, false
	}
	return job{phase: 0}, true
}

// wait returns when the workers are done. From deadline (none if zero), or
// at once when ctx is done, it cancels the calls in flight and waits at
// most cutGrace more.
func (r *run) wait(ctx context.Context, deadline time.Time) {
	done := make(chan struct{})
	go func() {
		r.workers.Wait()
		close(done)
	}()
	var expired <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-done:
		return
	case <-ctx.Done():
	case <-expired:
	}
	r.cutCalls()
	t := time.NewTimer(cutGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// now reads the clock as the time since the run started: one monotonic
// reading where time.Now makes two, and times that compare and subtract
// exactly as time.Now's.
func (r *run) now() time.Time {
	return r.start.Add(time.Since(r.start))
}

// call makes one call, sent now, and records it.
func (r *run) call(ctx context.Context, rec *Recorder, j job, now time.Time) {
	measured := j.phase >= 0
	rec.measured.Store(measured)
	if measured {
		rec.shard.begin()
	}
	c := sample{phase: j.phase, intended: j.intended, sent: now}
	if c.intended.IsZero() {
		c.intended = c.sent
	}
	err := r.invoke(ctx)
	c.done = r.now()
	if measured {
		r.finish(rec.shard, &c, err)
	}
}

func (r *run) invoke(ctx context.Context) error {
	if r.opts.Timeout <= 0 {
		return r.target(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	return r.target(ctx)
}

// finish records a measured call, unless the run's end cut it off.
func (r *run) finish(s *shard, c *sample, err error) {
	if err != nil && r.callCtx.Err() != nil {
		s.cut()
		return
	}
	c.code = r.opts.Code(err)
	if err != nil {
		c.failed = true
		c.message = err.Error()
	}
	s.record(c)
}
