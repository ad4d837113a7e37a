package load

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds on the distinct labels kept, so memory does not grow with a run
// whose errors all differ. Further labels are counted under OtherLabel.
const (
	maxCodes    = 64
	maxMessages = 64
	// OtherLabel counts codes and error messages past the distinct ones kept.
	OtherLabel = "(other)"
)

// A shard holds the measurements of a group of workers. Workers of a shard
// share its lock; shards share nothing, so recording takes no global lock.
type shard struct {
	mu       sync.Mutex
	closed   bool          // the run is over; late records are dropped
	phases   []phaseStats  // by phase; histograms made on first use
	interval intervalStats // since the collector last took it
	extra    *Histogram    // latencies a target records through a Recorder
	codes    map[string]int64
	messages map[string]int64
	cutOff   int64
	pending  atomic.Int64 // measured calls begun and not yet recorded

	firstErr   string    // the text of the shard's first failed call
	firstErrAt time.Time // when it ended
}

// phaseStats are the measurements of one phase. Successful calls go in
// corrected and service, failed ones in failed only.
type phaseStats struct {
	corrected, service *Histogram
	failed             *Histogram
	calls, errors      int64
	lagMax, lagSum     time.Duration
	lastDone           time.Time
}

// intervalStats are measurements since the last tick of the collector:
// successful calls in corrected and service, failed ones in failed.
type intervalStats struct {
	corrected, service, failed *Histogram
	calls, errors              int64
}

func newIntervalStats() intervalStats {
	return intervalStats{corrected: NewHistogram(), service: NewHistogram(), failed: NewHistogram()}
}

func newShard(phases int) *shard {
	return &shard{
		phases:   make([]phaseStats, phases),
		interval: newIntervalStats(),
		codes:    make(map[string]int64),
		messages: make(map[string]int64),
	}
}

// A sample is one measured call.
type sample struct {
	phase          int
	intended, sent time.Time
	done           time.Time
	code, message  string
	failed         bool
}

// record adds one call: a successful one to the latency histograms, a
// failed one to the failed-call histogram only. It takes the shard's lock
// and, once each label and phase has been seen, does not allocate.
func (s *shard) record(c *sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.pending.Add(-1)
	corrected, service := c.done.Sub(c.intended), c.done.Sub(c.sent)
	s.recordPhase(c, corrected, service)
	s.interval.calls++
	countLabel(s.codes, c.code, maxCodes)
	if !c.failed {
		s.interval.corrected.Record(corrected)
		s.interval.service.Record(service)
		return
	}
	s.interval.errors++
	s.interval.failed.Record(corrected)
	countLabel(s.messages, c.message, maxMessages)
	if s.firstErrAt.IsZero() || c.done.Before(s.firstErrAt) {
		s.firstErr, s.firstErrAt = c.message, c.done
	}
}

func (s *shard) recordPhase(c *sample, corrected, service time.Duration) {
	p := &s.phases[c.phase]
	p.calls++
	if c.failed {
		p.errors++
		if p.failed == nil {
			p.failed = NewHistogram()
		}
		p.failed.Record(corrected)
	} else {
		if p.corrected == nil {
			p.corrected, p.service = NewHistogram(), NewHistogram()
		}
		p.corrected.Record(corrected)
		p.service.Record(service)
	}
	lag := max(c.sent.Sub(c.intended), 0)
	p.lagMax = max(p.lagMax, lag)
	p.lagSum += lag
	if c.done.After(p.lastDone) {
		p.lastDone = c.done
	}
}

// countLabel adds one to m[label], or to m[OtherLabel] once m holds limit
// labels.
func countLabel(m map[string]int64, label string, limit int) {
	if _, ok := m[label]; !ok && len(m) >= limit {
		label = OtherLabel
	}
	m[label]++
}

// begin notes a measured call about to start.
func (s *shard) begin() {
	s.pending.Add(1)
}

// cut counts a call the run's end cancelled.
func (s *shard) cut() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.pending.Add(-1)
		s.cutOff++
	}
}

// close ends recording: calls still pending are cut off, and any record
// made later is dropped.
func (s *shard) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.cutOff += s.pending.Load()
	}
}

// takeInterval swaps the shard's interval stats for the empty spare ones
// and returns the full ones. Swapping keeps the lock short.
func (s *shard) takeInterval(spare intervalStats) intervalStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	full := s.interval
	s.interval = spare
	return full
}

func (s *shard) recordExtra(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.extra == nil {
		s.extra = NewHistogram()
	}
	s.extra.Record(d)
}

// A Recorder takes extra latencies from inside a target, such as the time
// to each message of a stream. A target gets it with RecorderFrom; values
// recorded during warm-up are dropped. It is safe for concurrent use.
type Recorder struct {
	shard    *shard
	worker   int
	measured atomic.Bool
}

// Worker numbers the worker making the call, from 0: closed-loop workers
// are 0 to Concurrency-1; open-loop workers are numbered as they start.
func (r *Recorder) Worker() int {
	if r == nil {
		return 0
	}
	return r.worker
}

type recorderKey struct{}

// RecorderFrom returns the Recorder of the call ctx belongs to, or nil when
// ctx is not a call's. A nil Recorder records nothing.
func RecorderFrom(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

// Measured reports whether the call is measured: false during warm-up,
// and for a nil Recorder.
func (r *Recorder) Measured() bool {
	return r != nil && r.measured.Load()
}

// Record adds d to the run's extra latencies (Result.Extra).
func (r *Recorder) Record(d time.Duration) {
	if r == nil || !r.measured.Load() {
		return
	}
	r.shard.recordExtra(d)
}
