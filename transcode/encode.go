package transcode

import (
	"math"
	"strings"
	"sync"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Marshal converts wire, the protobuf binary form of a message of type t,
// to canonical proto3 JSON with the default options.
func Marshal(t *dynamic.Type, wire []byte) ([]byte, error) {
	return MarshalOptions{}.Marshal(t, wire)
}

// Marshal converts wire, the protobuf binary form of a message of type t,
// to JSON, in one allocation (see convertOut).
func (o MarshalOptions) Marshal(t *dynamic.Type, wire []byte) ([]byte, error) {
	p := planOf(t)
	return p.jsonLen.convertOut(func(dst []byte) ([]byte, error) { return o.marshal(dst, p, wire) }, hintLong)
}

// MarshalAppend is Marshal appending to dst; it allocates nothing when dst
// has room for the result. On error it returns dst unchanged.
//
// It works in the capacity of dst beyond len(dst): besides the result, up
// to 16 bytes after it may change (keys are copied as whole 16-byte words),
// and on error any of it. Pass dst[:len(dst):len(dst)] to keep bytes there.
func (o MarshalOptions) MarshalAppend(dst []byte, t *dynamic.Type, wire []byte) ([]byte, error) {
	return o.marshal(dst, planOf(t), wire)
}

func (o *MarshalOptions) marshal(dst []byte, p *plan, b []byte) ([]byte, error) {
	if o.Indent != "" && strings.Trim(o.Indent, " \t") != "" {
		return dst, &Error{Msg: "indent may only be composed of space or tab characters"}
	}
	if len(b) > math.MaxInt32 {
		return dst, &Error{Msg: "message larger than 2 GiB"}
	}
	var e encoder
	e.reset(o, b, dst)
	out, err := e.convert(p)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// convert prints the whole input as a message of p and returns the output,
// or the error.
func (e *encoder) convert(p *plan) ([]byte, error) {
	err := e.root(p)
	if e.scratch != nil {
		e.scratch.release()
		scratches.Put(e.scratch)
	}
	if err != nil {
		return nil, finish(err)
	}
	return e.out, nil
}

// scratches pools the stacks of conversions in flight.
var scratches = sync.Pool{New: func() any { return new(scratch) }}

// scratch is the stacks a conversion may need, pooled: recs holds the
// records of the messages being printed, each message above those of its
// parent; spans the byte ranges of messages (one, or several when a
// sub-message arrives split and is merged); ones the oneof winners; ents the
// entries of the maps being printed. Messages the direct path prints need
// none of it.
type scratch struct {
	recs  []rec
	spans []span
	ones  []int32
	ents  []entry
}

func (s *scratch) release() {
	s.recs, s.spans, s.ones, s.ents = s.recs[:0], s.spans[:0], s.ones[:0], s.ents[:0]
}

// need makes sure the scratch stacks are there.
func (e *encoder) need() {
	if e.scratch == nil {
		e.scratch = scratches.Get().(*scratch)
	}
}

// encoder is the state of one conversion; it lives on the stack.
type encoder struct {
	b   []byte // the wire input
	out []byte
	*scratch

	enumNums  bool
	unpop     bool
	indent    string
	compact   bool     // compact output, no unpopulated fields: the direct path may run
	names     int      // the keys printed: jsonNames or protoNames, an index of fieldPlan.keys
	level     int      // nesting of objects and arrays, for indentation
	depth     int      // messages still allowed below this one
	partial   int      // > 0 inside an Any, where required fields are not checked
	discarded int      // output the direct path printed and rolled back
	hopeful   int      // messages with sub-messages tried without a check, in flight
	res       Resolver // nil for protoregistry.GlobalTypes
}

// rec is one record of a known field (or a possible extension), with the
// span of its value: the payload of a length-delimited record, the fields of
// a group, the bytes of a varint or fixed value.
type rec struct {
	idx   int32  // field index in the plan; extIdx for extensions
	aux   uint32 // wire type in the low 3 bits, then recReset; for extensions the number above the wire type
	start int32
	end   int32
}

const (
	extIdx   = math.MaxInt32
	recReset = 8 // a oneof member after another member: earlier records are discarded
)

func (r *rec) wt() uint32 { return r.aux & 7 }

// span is a range of the wire input.
type span struct{ start, end int32 }

func (e *encoder) reset(o *MarshalOptions, b, dst []byte) {
	e.b, e.out = b, dst
	e.enumNums, e.unpop = o.UseEnumNumbers, o.EmitUnpopulated
	e.indent = o.Indent
	e.compact = o.Indent == "" && !o.EmitUnpopulated
	e.names = jsonNames
	if o.UseProtoNames {
		e.names = protoNames
	}
	e.level, e.depth, e.partial = 0, wire.DefaultMaxDepth, 0
	e.res = o.Resolver
}

func (e *encoder) resolver() Resolver {
	if e.res != nil {
		return e.res
	}
	return protoregistry.GlobalTypes
}

// root prints the whole input as a message of p.
func (e *encoder) root(p *plan) error {
	return e.messageAt(p, 0, int32(len(e.b)))
}

// setOut makes out, which appends grew from *dst, the output. While out
// is in *dst's array (the same capacity) only the length is stored: no
// pointer, so no GC write barrier.
func setOut(dst *[]byte, out []byte) {
	if cap(out) == cap(*dst) {
		*dst = (*dst)[:len(out)]
	} else {
		*dst = out
	}
}

// push appends v to *s. While *s has room only its length is stored: no
// pointer, so no GC write barrier.
func push[T any](s *[]T, v T) {
	if n := len(*s); n < cap(*s) {
		*s = (*s)[:n+1]
		(*s)[n] = v
		return
	}
	*s = append(*s, v)
}

// pushSpan adds one span and returns its index range.
func (e *encoder) pushSpan(start, end int32) (int, int) {
	e.need()
	push(&e.spans, span{start, end})
	return len(e.spans) - 1, len(e.spans)
}
