package transcode

import (
	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// defaultMaxDepth is protojson's recursion limit.
const defaultMaxDepth = protowire.DefaultRecursionLimit

// Unmarshal converts the JSON encoding of a message of type t to wire
// bytes, with the default options: UnmarshalOptions{}.Unmarshal.
func Unmarshal(t *dynamic.Type, json []byte) ([]byte, error) {
	return UnmarshalOptions{}.Unmarshal(t, json)
}

// Unmarshal converts the JSON encoding of a message of type t to wire
// bytes. It accepts what protojson.Unmarshal accepts and rejects what it
// rejects; the bytes are those proto.Marshal writes for the message
// protojson would build, save that fields and map entries come in the
// order of the JSON.
//
// The result is one allocation (see convertOut).
func (o UnmarshalOptions) Unmarshal(t *dynamic.Type, json []byte) ([]byte, error) {
	return planOf(t).wireLen.convertOut(func(dst []byte) ([]byte, error) { return o.UnmarshalAppend(dst, t, json) }, copyLong)
}

// UnmarshalAppend is Unmarshal appending to dst. On error it returns dst
// unchanged in length.
func (o UnmarshalOptions) UnmarshalAppend(dst []byte, t *dynamic.Type, json []byte) ([]byte, error) {
	var d decoder // set field by field: a literal would be built aside and copied
	d.in, d.out = json, dst
	d.init(o)
	out, err := d.top(t)
	if err != nil {
		return dst, d.finish(err, streamPos{})
	}
	return out, nil
}

// decoder is the state of one JSON-to-wire conversion. Messages are parsed
// by recursive descent and written straight to out; the length prefix of a
// nested message is one byte reserved before its body and widened (by
// moving the body) only when the body is 128 bytes or longer.
type decoder struct {
	in      []byte
	pos     int
	out     []byte
	depth   int // remaining nesting, protojson's RecursionLimit
	noReq   int // inside Any bodies, where required fields are not checked
	discard bool
	partial bool
	short   bool     // running out of input is shortInput{}: more may come
	res     Resolver // nil for protoregistry.GlobalTypes

	scratch []byte   // unescaped strings
	big     []int64  // frames' seen sets beyond their bit sets
	segs    []string // the path of an error, innermost first
}

// streamPos places the input in a longer stream, for error positions.
type streamPos struct {
	off, line, col int // col: runes before the input on its first line
}

func (d *decoder) init(o UnmarshalOptions) {
	d.discard, d.partial, d.res = o.DiscardUnknown, o.AllowPartial, o.Resolver
	d.depth = o.MaxDepth
	if d.depth <= 0 {
		d.depth = defaultMaxDepth
	}
}

// resolver returns the Resolver of the options.
func (d *decoder) resolver() Resolver {
	if d.res == nil {
		return protoregistry.GlobalTypes
	}
	return d.res
}

// top converts one whole input holding one value of type t. Its errors
// are for finish to complete.
func (d *decoder) top(t *dynamic.Type) ([]byte, error) {
	start := len(d.out)
	err := d.message(t, false)
	if err == nil {
		if d.skipWS(); d.pos < len(d.in) {
			err = d.errUnexpected(d.pos)
		}
	}
	if err != nil {
		d.out = d.out[:start]
		return nil, err
	}
	return d.out, nil
}

// frame tracks the fields of one JSON object: which were seen (for
// duplicates), which were set (for required fields) and which oneofs are
// set. Numbers and oneofs beyond the bit sets go to decoder.big.
type frame struct {
	seen, set [4]uint64
	oneofs    uint64
	big       int // start of this frame's entries in decoder.big
}

const (
	bigSeen   = 1
	bigSet    = 2
	bigOneof  = 3
	bigShift  = 2
	frameBits = 256
)

// see marks the field numbered n seen and reports whether it was already.
func (d *decoder) see(fr *frame, n protowire.Number) bool {
	if n < frameBits {
		return fr.seeBit(n)
	}
	return d.bigMark(fr, int64(n)<<bigShift|bigSeen)
}

// seeBit is see for n < frameBits.
func (fr *frame) seeBit(n protowire.Number) bool {
	w, b := &fr.seen[uint(n)>>6&3], uint64(1)<<(n&63)
	dup := *w&b != 0
	*w |= b
	return dup
}

// markSet records that the field numbered n, a required one, holds a
// value.
func (d *decoder) markSet(fr *frame, n protowire.Number) {
	if n < frameBits {
		fr.set[n>>6] |= 1 << (n & 63)
		return
	}
	d.bigMark(fr, int64(n)<<bigShift|bigSet)
}

func (d *decoder) isSet(fr *frame, n protowire.Number) bool {
	if n < frameBits {
		return fr.set[n>>6]&(1<<(n&63)) != 0
	}
	return d.bigHas(fr, int64(n)<<bigShift|bigSet)
}

// setOneof marks oneof i set and reports whether it already was.
func (d *decoder) setOneof(fr *frame, i int) bool {
	if i < 64 {
		dup := fr.oneofs&(1<<i) != 0
		fr.oneofs |= 1 << i
		return dup
	}
	return d.bigMark(fr, int64(i)<<bigShift|bigOneof)
}

func (d *decoder) bigHas(fr *frame, v int64) bool {
	for _, x := range d.big[fr.big:] {
		if x == v {
			return true
		}
	}
	return false
}

func (d *decoder) bigMark(fr *frame, v int64) bool {
	if d.bigHas(fr, v) {
		return true
	}
	d.big = append(d.big, v)
	return false
}
