package transcode

import (
	"strconv"
	"sync/atomic"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

// plan is what conversion needs of a struct Type beyond dynamic's tables:
// each field's key as JSON text (`"name":` and `"id":`), whether its i64
// values are strings (api.js_conv), the bit of each required field, and
// the output size hints of the Type as a root. It is built on first use
// and attached to the Type (dynamic.Type.Attach), so it lives as long as
// the Type's Cache; two goroutines may build it at once, and one wins.
type plan struct {
	names, ids [][]byte
	str64      []bool
	reqBit     []uint64
	reqAll     uint64 // the bits of the first 64 required fields
	byName     map[string]*dynamic.Field
	// toJSON and toThrift are the largest ratio of output to input size
	// seen, in 1/16ths, for sizing results up front.
	toJSON, toThrift atomic.Uint32
}

func planOf(t *dynamic.Type) *plan {
	if a := t.Attached(); a != nil {
		return a.(*plan)
	}
	return t.Attach(buildPlan(t)).(*plan)
}

func buildPlan(t *dynamic.Type) *plan {
	n := len(t.Fields)
	pl := &plan{names: make([][]byte, n), ids: make([][]byte, n), str64: make([]bool, n), reqBit: make([]uint64, n)}
	for i, f := range t.Fields {
		name, _ := jsonx.AppendString(nil, []byte(f.Name))
		pl.names[i] = append(name, ':')
		pl.ids[i] = append(strconv.AppendInt([]byte{'"'}, int64(f.ID), 10), '"', ':')
		pl.str64[i] = jsConv(f.IDL)
	}
	for i, f := range t.Required {
		if i < 64 {
			pl.reqBit[f.Index] = 1 << i
			pl.reqAll |= 1 << i
		}
	}
	if n > 8 {
		pl.byName = make(map[string]*dynamic.Field, n)
		for _, f := range t.Fields {
			pl.byName[f.Name] = f
		}
	}
	return pl
}

// jsConv reports whether a field carries api.js_conv, the annotation by
// which Go Thrift gateways write an i64 field as a JSON string: written
// bare (the value "1") or with any value but "false" or "0".
func jsConv(f *idl.Field) bool {
	v, ok := f.Annotations.Get("api.js_conv")
	return ok && v != "false" && v != "0"
}

// field returns the field of t a JSON key names: its name, or else its
// id in decimal.
func (pl *plan) field(t *dynamic.Type, key []byte) *dynamic.Field {
	if pl.byName != nil {
		if f := pl.byName[string(key)]; f != nil {
			return f
		}
	} else {
		for _, f := range t.Fields {
			if f.Name == string(key) {
				return f
			}
		}
	}
	if len(key) == 0 || len(key) > 6 {
		return nil
	}
	id, err := strconv.ParseInt(string(key), 10, 16)
	if err != nil {
		return nil
	}
	return t.FieldByID(int16(id))
}

// size returns the capacity to give a result converted from n bytes by
// the ratio r, and learn records a result's size.
func size(r *atomic.Uint32, n int, first uint32) int {
	k := r.Load()
	if k == 0 {
		k = first
	}
	return n*int(k)/16 + 64
}

// maxRatio bounds the learnt ratio (8x), so that one small input with a
// large result cannot make every later result allocate far more than it
// needs; results past the hint grow by append.
const maxRatio = 8 * 16

func learn(r *atomic.Uint32, in, out int) {
	if in == 0 {
		return
	}
	k := uint32(min((out*16+in-1)/in, maxRatio))
	for {
		old := r.Load()
		if k <= old || r.CompareAndSwap(old, k) {
			return
		}
	}
}
