package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"text/template"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// requestTemplate renders -d as a Go template for each call, when
// --data-template asks for it; the template is parsed once.
//
// Fields: .RequestNumber (from 0), .WorkerID, .Data (this call's line of
// --data-file, decoded). Functions: randomInt MIN MAX (MIN <= n < MAX),
// uuid, json VALUE (JSON-encodes VALUE, for strings in a template).
type requestTemplate struct {
	tmpl    *template.Template
	codec   invoke.JSONCodec
	input   protoreflect.MessageDescriptor
	lines   []any
	workers int // lines are partitioned over this many workers; 0: shared
	calls   atomic.Int64
	perW    []atomic.Int64
	bufs    sync.Pool
}

type templateData struct {
	RequestNumber int64
	WorkerID      int
	Data          any
}

var templateFuncs = template.FuncMap{
	"randomInt": func(lo, hi int) int {
		if hi <= lo {
			return lo
		}
		return lo + mrand.IntN(hi-lo)
	},
	"uuid": newUUID,
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
}

func newRequestTemplate(text, dataFile string, workers int, codec invoke.JSONCodec, input protoreflect.MessageDescriptor) (*requestTemplate, error) {
	tmpl, err := template.New("-d").Funcs(templateFuncs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("--data-template: %w", err)
	}
	t := &requestTemplate{tmpl: tmpl, codec: codec, input: input, workers: workers}
	t.perW = make([]atomic.Int64, max(workers, 1))
	if dataFile != "" {
		if t.lines, err = readJSONLines(dataFile); err != nil {
			return nil, err
		}
	}
	// One render up front, so a template that cannot work fails before the run.
	if _, err := t.render(context.Background(), 0, 0); err != nil {
		return nil, err
	}
	t.perW[0].Store(0)
	return t, nil
}

func readJSONLines(path string) ([]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--data-file: %w", err)
	}
	defer f.Close()
	var out []any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("--data-file %s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--data-file: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--data-file %s: no lines", path)
	}
	return out, nil
}

// line picks this call's data line: workers of a closed loop each cycle
// through their own share of the lines; otherwise calls take them in turn.
func (t *requestTemplate) line(worker int, number int64) any {
	if len(t.lines) == 0 {
		return nil
	}
	if t.workers > 1 && worker < t.workers && len(t.lines) >= t.workers {
		k := t.perW[worker].Add(1) - 1
		share := (len(t.lines) - worker + t.workers - 1) / t.workers
		return t.lines[worker+t.workers*int(k%int64(share))]
	}
	return t.lines[number%int64(len(t.lines))]
}

// requests renders the template for one call and encodes its messages.
func (t *requestTemplate) requests(ctx context.Context) ([][]byte, error) {
	worker := load.RecorderFrom(ctx).Worker()
	return t.render(ctx, worker, t.calls.Add(1)-1)
}

func (t *requestTemplate) render(_ context.Context, worker int, number int64) ([][]byte, error) {
	buf, _ := t.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer t.bufs.Put(buf)
	buf.Reset()
	data := templateData{RequestNumber: number, WorkerID: worker, Data: t.line(worker, number)}
	if err := t.tmpl.Execute(buf, data); err != nil {
		return nil, fmt.Errorf("--data-template: %w", err)
	}
	in := newMessageReader(bytes.NewReader(buf.Bytes()))
	in.convert = func(js []byte) ([]byte, error) { return t.codec.Encode(nil, t.input, js) }
	var reqs [][]byte
	for {
		wire, err := in.next()
		if err == io.EOF {
			return reqs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("rendered template: %w", err)
		}
		reqs = append(reqs, wire)
	}
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
