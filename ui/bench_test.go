package ui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
)

func TestBenchFromPage(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "bench", ID: "b1", Bench: &benchRequest{
		Conn: id, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"number":1}`),
		Rate: 200, DurationMS: 2000, SLO: "p99<500ms,errors<1%",
	}})
	progress := 0
	end := w.until("benchend", func(f frame) {
		if f.T == "progress" {
			progress++
		}
		if f.T == "error" {
			t.Fatalf("bench error: %s", f.Error)
		}
	})
	var res benchEnd
	if err := json.Unmarshal(end.Result, &res); err != nil {
		t.Fatal(err)
	}
	if progress < 1 || res.Stopped {
		t.Fatalf("progress frames %d, stopped %v", progress, res.Stopped)
	}
	// The result is rpckit bench --format json's output (with the SLO's
	// verdicts): reading it back and writing it again gives the same bytes.
	r, err := report.ReadJSON(strings.NewReader(res.JSON))
	if err != nil {
		t.Fatal(err)
	}
	slo, err := report.ParseSLO("p99<500ms,errors<1%")
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := (report.JSONOptions{SLO: slo}).Write(&again, r); err != nil {
		t.Fatal(err)
	}
	if again.String() != res.JSON {
		t.Errorf("result is not bench's JSON:\n%s\nvs\n%s", res.JSON, again.Bytes())
	}
	if r.Calls+r.NotSent != 400 || r.Errors != 0 {
		t.Errorf("calls %d + not sent %d, errors %d at 200/s for 2s", r.Calls, r.NotSent, r.Errors)
	}
	p99 := float64(r.Corrected.Percentile(99)) / 1e6
	if len(res.Verdicts) != 2 || res.Verdicts[0].Measured != p99 || res.Verdicts[0].Pass != (p99 < 500) || !strings.Contains(res.Text, "Latency") {
		t.Errorf("verdicts %+v text %q", res.Verdicts, res.Text)
	}
}

func TestBenchStop(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	w.send(inFrame{T: "bench", ID: "b", Bench: &benchRequest{Conn: id, Method: "rpckit.test.v1.Test/Chat", Body: json.RawMessage(`[{"number":1},{"number":2}]`), Concurrency: 4, DurationMS: 30000}})
	w.until("progress", nil)
	start := time.Now()
	w.send(inFrame{T: "stop", ID: "b"})
	end := w.until("benchend", nil)
	var res benchEnd
	json.Unmarshal(end.Result, &res)
	// A 30 s run stopped: well under its length, with room for a loaded
	// machine under the race detector.
	if took := time.Since(start); took > 10*time.Second || !res.Stopped {
		t.Fatalf("stop took %s, stopped %v", took, res.Stopped)
	}
	r, err := report.ReadJSON(strings.NewReader(res.JSON))
	if err != nil || r.Calls == 0 {
		t.Fatalf("partial result: %v %v", r, err)
	}
}

func TestBenchLimits(t *testing.T) {
	lim := BenchLimits{MaxDuration: 5 * time.Second, MaxRate: 100, MaxConcurrency: 8}
	p := newPage(t, Options{Bench: lim})
	id := p.plain()
	w := p.ws()
	cases := map[string]benchRequest{
		"duration over":        {DurationMS: 6000},
		"rate over":            {Rate: 101},
		"concurrency over":     {Concurrency: 9},
		"ramp over the rate":   {Ramp: &rampSpec{From: 50, To: 150, Step: 50, StepMS: 1000}},
		"ramp over the time":   {Ramp: &rampSpec{From: 10, To: 100, Step: 10, StepMS: 1000}},
		"bad slo":              {SLO: "p99<<1"},
		"negative rate":        {Rate: -1},
		"negative concurrency": {Concurrency: -2},
	}
	for name, b := range cases {
		b.Conn, b.Method = id, "rpckit.test.v1.Test/Echo"
		w.send(inFrame{T: "bench", ID: name, Bench: &b})
		f := w.until("error", nil)
		if f.ID != name || f.Error == "" {
			t.Errorf("%s: %+v", name, f)
		}
		w.until("benchend", nil)
	}
	opts, _, err := benchOptions(benchRequest{Rate: 50}, lim.withDefaults())
	if err != nil || opts.MaxInFlight != 8 || opts.Duration != 5*time.Second {
		t.Errorf("defaults under limits: %+v %v", opts, err)
	}
}

func TestBenchOnlyLoopback(t *testing.T) {
	p := newPage(t, Options{})
	tg := &target{id: "remote", req: connectRequest{Target: "192.0.2.1:443"}}
	p.h.targets.put(tg)
	w := p.ws()
	w.send(inFrame{T: "bench", ID: "r", Bench: &benchRequest{Conn: "remote", Method: "x.Y/Z"}})
	f := w.until("error", nil)
	if !strings.Contains(f.Error, "loopback") {
		t.Fatalf("remote bench: %+v", f)
	}
}

// TestBenchEngines: the page's load test runs on either engine, like
// rpckit bench (lean by default), with stream message latencies recorded
// the same way; an unknown engine is refused by name.
func TestBenchEngines(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	w := p.ws()
	for _, engine := range []string{"", "lean", "grpc"} {
		w.send(inFrame{T: "bench", ID: "e" + engine, Bench: &benchRequest{Conn: id, Method: "rpckit.test.v1.Test/Count",
			Body: json.RawMessage(`{"count":3}`), Concurrency: 2, DurationMS: 1000, Engine: engine}})
		end := w.until("benchend", func(f frame) {
			if f.T == "error" {
				t.Fatalf("engine %q: %s", engine, f.Error)
			}
		})
		var res benchEnd
		if err := json.Unmarshal(end.Result, &res); err != nil {
			t.Fatal(err)
		}
		r, err := report.ReadJSON(strings.NewReader(res.JSON))
		if err != nil || r.Calls == 0 || r.Errors != 0 || r.Extra.Count() != 3*r.Calls {
			t.Fatalf("engine %q: %v, calls %d errors %d, %d message latencies", engine, err, r.Calls, r.Errors, r.Extra.Count())
		}
	}
	w.send(inFrame{T: "bench", ID: "bad", Bench: &benchRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo", Engine: "h2load"}})
	if f := w.until("error", nil); !strings.Contains(f.Error, `engine "h2load": want lean, grpc or connect`) {
		t.Errorf("unknown engine: %+v", f)
	}
}

// TestBenchRampPacer: the page's ramp becomes load's steps, up or down.
func TestBenchRampPacer(t *testing.T) {
	lim := BenchLimits{}.withDefaults()
	for _, c := range []struct {
		ramp rampSpec
		want []float64
	}{{rampSpec{From: 50, To: 100, Step: 25, StepMS: 1000}, []float64{50, 75, 100}}, {rampSpec{From: 100, To: 50, Step: 25, StepMS: 1000}, []float64{100, 75, 50}}} {
		p, err := benchPacer(benchRequest{Ramp: &c.ramp}, lim)
		steps, ok := p.(load.Steps)
		if err != nil || !ok || !slices.Equal(steps.Rates, c.want) || steps.Step != time.Second {
			t.Errorf("ramp %+v: %+v, %v; want rates %v each 1s", c.ramp, p, err, c.want)
		}
	}
	if _, err := benchPacer(benchRequest{Ramp: &rampSpec{From: 50, To: 100, Step: 0, StepMS: 1000}}, lim); err == nil || !strings.Contains(err.Error(), "step must not be zero") {
		t.Errorf("zero step: %v", err)
	}
}

// TestBenchLeanOverTLS: the lean engine dials with the connection's TLS
// settings (CA, server name, client certificate), as grpc-go did.
func TestBenchLeanOverTLS(t *testing.T) {
	p := newPage(t, Options{})
	ca := readFile(t, fx.Certs.CA)
	for name, req := range map[string]connectRequest{
		"tls":                  {Target: fx.TLS, TLS: tlsMaterial{CA: ca}},
		"tls with server name": {Target: fx.TLS, TLS: tlsMaterial{CA: ca, ServerName: "localhost"}},
		"mtls":                 {Target: fx.MTLS, TLS: tlsMaterial{CA: ca, Cert: readFile(t, fx.Certs.ClientCert), Key: readFile(t, fx.Certs.ClientKey)}},
	} {
		id := p.connect(req).ID
		w := p.ws()
		w.send(inFrame{T: "bench", ID: "t", Bench: &benchRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo",
			Body: json.RawMessage(`{}`), Concurrency: 1, DurationMS: 300}})
		end := w.until("benchend", func(f frame) {
			if f.T == "error" {
				t.Fatalf("%s: %s", name, f.Error)
			}
		})
		var res benchEnd
		json.Unmarshal(end.Result, &res)
		r, err := report.ReadJSON(strings.NewReader(res.JSON))
		if err != nil || r.Calls == 0 || r.Errors != 0 {
			t.Errorf("%s: %v, calls %d errors %d codes %v", name, err, r.Calls, r.Errors, r.Codes)
		}
	}
}
