package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
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
// Fields: .RequestNumber (from 0), .WorkerID, .Data (this call's row of
// --data-file, decoded, picked in the --data-order). Functions: randomInt MIN MAX (MIN <= n < MAX),
// uuid, json VALUE (JSON-encodes VALUE, for strings in a template).
type requestTemplate struct {
	tmpl  *template.Template
	codec invoke.JSONCodec
	input protoreflect.MessageDescriptor
	data  *dataSet // nil without --data-file
	calls atomic.Int64
	bufs  sync.Pool
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

func newRequestTemplate(text string, data *dataSet, codec invoke.JSONCodec, input protoreflect.MessageDescriptor) (*requestTemplate, error) {
	tmpl, err := template.New("-d").Funcs(templateFuncs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("--data-template: %w", err)
	}
	t := &requestTemplate{tmpl: tmpl, codec: codec, input: input, data: data}
	// One render up front, so a template that cannot work fails before the
	// run; its row does not count as used.
	if _, err := t.render(context.Background(), 0, 0); err != nil {
		return nil, err
	}
	if data != nil {
		data.reset()
	}
	return t, nil
}

// line picks this call's data row, or nil without a data file.
func (t *requestTemplate) line(worker int) any {
	if t.data == nil {
		return nil
	}
	return t.data.rows[t.data.pick(worker)]
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
	data := templateData{RequestNumber: number, WorkerID: worker, Data: t.line(worker)}
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
