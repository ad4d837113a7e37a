package load

import (
	"context"
	"math"
	"sync/atomic"
	"time"
)

// A relay is the open loop's dispatcher: two pacer goroutines, of which
// one leads at a time. The leader waits for each call's intended start,
// then either makes the call itself or hands it to an idle worker and goes
// on to the next.
//
// It makes the call itself when calls are far apart: when the next start
// is further off than twice the longest recent call of its own plus twice
// the spin window, and the other pacer is not in a call. (Closer together,
// the other pacer would be woken about when the leader, staying on, would
// still be spinning.) It first hands the lead over by ringing the
// other pacer's waiter to wake it shortly before the next start (at most
// maxNap from now). The woken pacer leads from there whether or not the
// call has returned, so a slow call never holds the schedule up, and the
// pacer that made the call parks until it is rung in turn. At low rates a
// call then costs one wake-up, of the pacer that makes it, where a hand-off
// costs a second, of the worker. The leader also makes the call itself when
// every worker is busy, if the other pacer is free.
//
// Calls due while MaxInFlight calls are in flight are not sent: the
// workers are at most MaxInFlight-1 when the pacers make calls, as only
// one pacer is in a call at a time.
type relay struct {
	r        *run
	end      time.Duration // the measured schedule's length (schedule.end)
	stop     time.Duration // from the run's start: when to stop sending
	pacers   []*pacer      // two, or one where a waiter cannot be rung
	poolMax  int           // workers on r.work at most
	lead     atomic.Int32  // the pacer that leads, or relayDone
	longest  atomic.Int64  // a decaying maximum of the pacers' calls, in ns
	next     int64         // the next call of the schedule; the leader's
	wakeAt   time.Time     // when the pacer handed the lead should wake; the leader's
	measured time.Duration // set by the last leader, before ended is closed
	ended    chan struct{}
}

const relayDone = -1

// A pacer is one of a relay's goroutines.
type pacer struct {
	k      int32
	w      *waiter
	inCall atomic.Bool
	rec    *Recorder // for its own calls, made when it first makes one
	ctx    context.Context
}

// pace walks the schedule with a relay; it returns the measured duration,
// cut short if ctx is done first. It stops soon after the schedule's end
// (half the drain, at most a second): when it falls behind, the calls it
// has not sent by then are counted as not sent, as are calls due while
// MaxInFlight calls were in flight. Calls due together go out one after
// the other, with no wait between them.
func (r *run) pace(ctx context.Context) time.Duration {
	rl := &relay{r: r, end: r.sched.end(), ended: make(chan struct{})}
	rl.stop = r.opts.Warmup + rl.end + min(r.opts.Drain/2, time.Second)
	rl.pacers = []*pacer{{k: 0, w: newWaiter(ctx.Done())}}
	rl.poolMax = r.opts.MaxInFlight
	if w := newWaiter(ctx.Done()); rl.pacers[0].w.canRing() && w.canRing() {
		w.spin = rl.pacers[0].w.spin // one spin window: only the leader uses it
		rl.pacers = append(rl.pacers, &pacer{k: 1, w: w})
		rl.poolMax--
	} else {
		w.close()
	}
	r.workers.Add(len(rl.pacers))
	for _, p := range rl.pacers {
		go rl.run(p)
	}
	<-rl.ended
	return rl.measured
}

// run is a pacer's goroutine: pacer 0 leads first.
func (rl *relay) run(p *pacer) {
	defer rl.r.workers.Done()
	defer p.w.close()
	for leads := p.k == 0; ; leads = false {
		if !leads && !rl.follow(p) {
			return
		}
		if !rl.leadCalls(p) {
			return
		}
	}
}

// follow parks p until it is handed the lead (true) or the run ends.
func (rl *relay) follow(p *pacer) bool {
	for {
		rung := p.w.wait()
		switch rl.lead.Load() {
		case p.k:
			p.w.spin.note(time.Since(rl.wakeAt))
			return true
		case relayDone:
			return false
		}
		if !rung { // never expected: the waiter failed; poll
			p.w.timerNap(spinWindow)
		}
	}
}

// other is the pacer that is not p, or nil.
func (rl *relay) other(p *pacer) *pacer {
	if len(rl.pacers) < 2 {
		return nil
	}
	return rl.pacers[1-p.k]
}

// leadCalls dispatches calls while p leads. It returns true when p has
// made a call itself after handing the lead over, false at the end.
func (rl *relay) leadCalls(p *pacer) bool {
	r := rl.r
	for {
		i := rl.next
		at, measured, ok := r.sched.slot(i)
		if !ok {
			return rl.finish(rl.end)
		}
		if rl.end > 0 && time.Since(r.start) >= rl.stop {
			r.skip(i, r.sched.search(i, math.MaxInt64))
			return rl.finish(rl.end)
		}
		due := r.start.Add(at)
		if !p.w.until(due) {
			return rl.finish(min(max(time.Since(r.measureStart), 0), rl.end))
		}
		j := job{intended: due, phase: r.phaseOf(at, measured)}
		rl.next = i + 1
		ring, far := rl.untilNext(p)
		if far && rl.callItself(p, j, ring) {
			return true
		}
		rl.forget()
		if rl.handOff(j) {
			continue
		}
		if rl.callItself(p, j, ring) {
			return true
		}
		// MaxInFlight calls are in flight: the calls already due are not
		// sent either.
		rl.next = max(r.sched.search(i+1, time.Since(r.start)), i+1)
		r.skip(i, rl.next)
	}
}

// untilNext says when to ring the other pacer to lead on to the next call
// (the spin window before it, at most maxNap from now), and whether the
// next call is far enough off for the leader to make this one itself.
func (rl *relay) untilNext(p *pacer) (ring time.Duration, far bool) {
	at, _, ok := rl.r.sched.slot(rl.next)
	if !ok {
		return maxNap, false
	}
	left := time.Until(rl.r.start.Add(at))
	spin := p.w.spin.window
	return min(left-spin, maxNap), left > 2*(time.Duration(rl.longest.Load())+spin)
}

// callItself hands the lead to the other pacer, to be taken in ring, and
// makes call j; false, with nothing done, if the other pacer is busy.
func (rl *relay) callItself(p *pacer, j job, ring time.Duration) bool {
	o := rl.other(p)
	if o == nil || o.inCall.Load() {
		return false
	}
	r := rl.r
	if p.rec == nil {
		p.rec, p.ctx = r.recorder(r.nworkers)
		r.nworkers++
	}
	p.inCall.Store(true)
	rl.wakeAt = time.Now().Add(max(ring, 0))
	rl.lead.Store(o.k)
	if !o.w.ring(ring) { // never expected
		rl.lead.Store(p.k)
		p.inCall.Store(false)
		return false
	}
	// From here the other pacer leads.
	sent := r.now()
	r.call(p.ctx, p.rec, j, sent)
	rl.noteCall(r.now().Sub(sent))
	p.inCall.Store(false)
	return true
}

// noteCall keeps longest a maximum of the pacers' calls that halves in
// about six calls, made or handed off: one call stalled by the system does
// not keep the pacers from making calls for long.
func (rl *relay) noteCall(d time.Duration) {
	for l := rl.longest.Load(); !rl.longest.CompareAndSwap(l, max(int64(d), l-l/8)); l = rl.longest.Load() {
	}
}

// forget lets longest decay for a call the pacers do not make.
func (rl *relay) forget() {
	for l := rl.longest.Load(); l > 0 && !rl.longest.CompareAndSwap(l, l-l/8); l = rl.longest.Load() {
	}
}

// finish ends the run: the other pacer is woken to leave; false.
func (rl *relay) finish(measured time.Duration) bool {
	rl.measured = measured
	rl.lead.Store(relayDone)
	for _, p := range rl.pacers {
		p.w.close()
	}
	close(rl.ended)
	return false
}

// handOff gives j to an idle worker, or starts one; false with poolMax
// workers all busy. It never waits.
func (rl *relay) handOff(j job) bool {
	r := rl.r
	select {
	case r.work <- j:
		return true
	default:
	}
	if r.npool >= rl.poolMax {
		return false
	}
	id := r.nworkers
	r.nworkers++
	r.npool++
	r.workers.Add(1)
	go r.openWorker(id, j)
	return true
}

func (r *run) openWorker(id int, first job) {
	defer r.workers.Done()
	rec, ctx := r.recorder(id)
	r.call(ctx, rec, first, r.now())
	for j := range r.work {
		r.call(ctx, rec, j, r.now())
	}
}
