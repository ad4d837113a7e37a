package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/loadtarget"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// benchRequest is a load test from the page: closed loop at Concurrency,
// or open loop at Rate, or a Ramp of rates; every setting within the
// handler's BenchLimits.
type benchRequest struct {
	Conn        string          `json:"conn"`
	Method      string          `json:"method"`
	Body        json.RawMessage `json:"body"` // an object; for client and bidi streams, an array of them
	Metadata    [][2]string     `json:"metadata"`
	Rate        float64         `json:"rate,omitempty"`
	Concurrency int             `json:"concurrency,omitempty"`
	DurationMS  int64           `json:"durationMs,omitempty"`
	Ramp        *rampSpec       `json:"ramp,omitempty"`
	SLO         string          `json:"slo,omitempty"`
	TimeoutMS   int64           `json:"timeoutMs,omitempty"`
	Engine      string          `json:"engine,omitempty"` // lean (the default), grpc or connect, as bench's --engine
}

type rampSpec struct {
	From   float64 `json:"from"`
	To     float64 `json:"to"`
	Step   float64 `json:"step"`
	StepMS int64   `json:"stepMs"`
}

type benchProgress struct {
	ElapsedS float64 `json:"elapsedS"`
	Warmup   bool    `json:"warmup,omitempty"`
	Calls    int64   `json:"calls"`
	Errors   int64   `json:"errors"`
	NotSent  int64   `json:"notSent"`
	Rate     float64 `json:"rate"`  // calls/s so far
	P50MS    float64 `json:"p50Ms"` // of the last second
	P99MS    float64 `json:"p99Ms"` // of the whole run so far
}

type benchEnd struct {
	Stopped  bool      `json:"stopped"`
	JSON     string    `json:"json"` // rpckit bench --format json's output (report.JSONOptions), byte for byte
	Text     string    `json:"text"` // report.WriteText's
	Verdicts []verdict `json:"verdicts,omitempty"`
}

type verdict struct {
	Clause   string  `json:"clause"`
	Measured float64 `json:"measured"`
	Pass     bool    `json:"pass"`
}

func (s *wsSession) startBench(f inFrame) {
	if f.Bench == nil {
		s.failed(f.ID, errors.New("ui: bench frame without settings"))
		return
	}
	s.mu.Lock()
	if s.benches[f.ID] != nil {
		s.mu.Unlock()
		s.failed(f.ID, errors.New("ui: a load test with this id is running"))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.benches[f.ID] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer s.endBench(f.ID)
		if err := s.runBench(ctx, f.ID, *f.Bench); err != nil {
			s.failed(f.ID, err)
			s.send(outFrame{T: "benchend", ID: f.ID})
		}
	}()
}

func (s *wsSession) stopBench(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.benches[id]; c != nil {
		c()
	}
}

func (s *wsSession) endBench(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.benches[id]; c != nil {
		c()
		delete(s.benches, id)
	}
}

func (s *wsSession) runBench(ctx context.Context, id string, req benchRequest) error {
	t, err := s.h.targets.grpc(req.Conn)
	if err != nil {
		return err
	}
	if !t.loopback {
		return fmt.Errorf("ui: load tests go only to targets on this machine (loopback); %s is not", t.req.Target)
	}
	opts, slo, err := benchOptions(req, s.h.opts.Bench)
	if err != nil {
		return err
	}
	target, err := s.h.benchTarget(ctx, t, req)
	if err != nil {
		return err
	}
	defer target.Close()
	target.Apply(&opts)
	opts.Progress = func(p load.Progress) {
		s.send(outFrame{T: "progress", ID: id, Progress: progressOf(p)})
	}
	res, err := load.Run(ctx, opts, target.Call)
	stopped := err != nil && errors.Is(err, context.Canceled)
	if err != nil && !stopped {
		return err
	}
	end, err := benchResult(res, slo, stopped)
	if err != nil {
		return err
	}
	s.send(outFrame{T: "benchend", ID: id, Result: end})
	return nil
}

func progressOf(p load.Progress) benchProgress {
	return benchProgress{
		ElapsedS: p.Elapsed.Seconds(), Warmup: p.Warmup, Calls: p.Calls, Errors: p.Errors,
		NotSent: p.NotSent, Rate: p.Rate, P50MS: msOf(p.Interval.P50), P99MS: msOf(p.P99),
	}
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func benchResult(res *load.Result, slo report.SLO, stopped bool) (*benchEnd, error) {
	var js, text bytes.Buffer
	if err := (report.JSONOptions{SLO: slo}).Write(&js, res); err != nil {
		return nil, err
	}
	if err := report.WriteText(&text, res, report.TextOptions{}); err != nil {
		return nil, err
	}
	end := &benchEnd{Stopped: stopped, JSON: js.String(), Text: text.String()}
	for _, v := range slo.Check(res) {
		end.Verdicts = append(end.Verdicts, verdict{Clause: v.Clause.Text, Measured: v.Measured, Pass: v.Pass})
	}
	return end, nil
}

// benchOptions turns the page's settings into load.Options, refusing any
// beyond the limits.
func benchOptions(req benchRequest, lim BenchLimits) (load.Options, report.SLO, error) {
	var opts load.Options
	var slo report.SLO
	if req.SLO != "" {
		var err error
		if slo, err = report.ParseSLO(req.SLO); err != nil {
			return opts, nil, err
		}
	}
	d := time.Duration(req.DurationMS) * time.Millisecond
	if d <= 0 && req.Ramp == nil {
		d = min(10*time.Second, lim.MaxDuration)
	}
	if d > lim.MaxDuration {
		return opts, nil, fmt.Errorf("ui: duration %s is over the limit of %s", d, lim.MaxDuration)
	}
	conc := req.Concurrency
	if conc > lim.MaxConcurrency {
		return opts, nil, fmt.Errorf("ui: concurrency %d is over the limit of %d", conc, lim.MaxConcurrency)
	}
	if conc < 0 {
		return opts, nil, fmt.Errorf("ui: concurrency %d is negative", conc)
	}
	opts = load.Options{Concurrency: conc, Duration: d, Timeout: time.Duration(req.TimeoutMS) * time.Millisecond, Drain: time.Second}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	pacer, err := benchPacer(req, lim)
	if err != nil {
		return opts, nil, err
	}
	if pacer != nil {
		opts.Pacer = pacer
		opts.MaxInFlight = lim.MaxConcurrency
		if conc > 0 {
			opts.MaxInFlight = conc
		}
	}
	return opts, slo, nil
}

func benchPacer(req benchRequest, lim BenchLimits) (load.Pacer, error) {
	if r := req.Ramp; r != nil {
		if max(r.From, r.To) > lim.MaxRate {
			return nil, fmt.Errorf("ui: ramp to %g/s is over the rate limit of %g/s", max(r.From, r.To), lim.MaxRate)
		}
		by := r.Step
		if r.To < r.From {
			by = -by
		}
		p, err := load.NewSteps(r.From, r.To, by, time.Duration(r.StepMS)*time.Millisecond)
		if err != nil {
			return nil, err
		}
		if total := p.Phases()[len(p.Phases())-1].End(); total > lim.MaxDuration {
			return nil, fmt.Errorf("ui: the ramp lasts %s, over the limit of %s", total, lim.MaxDuration)
		}
		return p, nil
	}
	if req.Rate > lim.MaxRate {
		return nil, fmt.Errorf("ui: rate %g/s is over the limit of %g/s", req.Rate, lim.MaxRate)
	}
	if req.Rate < 0 {
		return nil, fmt.Errorf("ui: rate %g/s is negative", req.Rate)
	}
	if req.Rate > 0 {
		return load.Constant{Rate: req.Rate}, nil
	}
	return nil, nil
}

// benchTarget encodes the requests once and builds the load target, on
// the engine asked for (lean by default, as in rpckit bench; connect for a
// gRPC-Web or Connect connection).
func (h *Handler) benchTarget(ctx context.Context, t *target, req benchRequest) (*loadtarget.Target, error) {
	engine, err := loadtarget.ParseEngine(req.Engine)
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	if t.conn.Protocol() != invoke.ProtocolGRPC && req.Engine == "" {
		engine = loadtarget.Connect // the one engine of gRPC-Web and Connect
	}
	md, err := t.method(ctx, req.Method)
	if err != nil {
		return nil, err
	}
	codec, err := h.codec(ctx, t)
	if err != nil {
		return nil, err
	}
	reqs, err := benchRequests(codec, md, req.Body)
	if err != nil {
		return nil, err
	}
	return loadtarget.New(ctx, loadtarget.Options{
		Engine: engine, Method: md, Requests: reqs, Metadata: metadataOf(req.Metadata),
		Address: t.addr, Lean: t.lean, Conn: t.conn,
	})
}

func benchRequests(codec invoke.JSONCodec, md protoreflect.MethodDescriptor, body json.RawMessage) ([][]byte, error) {
	bodies := []json.RawMessage{body}
	if md.IsStreamingClient() {
		var list []json.RawMessage
		if err := json.Unmarshal(body, &list); err == nil {
			bodies = list
		}
	}
	var out [][]byte
	for _, b := range bodies {
		wire, err := encode(codec, md.Input(), b)
		if err != nil {
			return nil, err
		}
		out = append(out, wire)
	}
	if len(out) == 0 {
		return nil, errors.New("ui: no request messages to send")
	}
	return out, nil
}
