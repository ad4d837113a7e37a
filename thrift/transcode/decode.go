package transcode

import (
	"encoding/binary"
	"errors"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Unmarshal converts the JSON object json to a Thrift struct of type t in
// the binary protocol, with the zero UnmarshalOptions.
func Unmarshal(t *dynamic.Type, json []byte) ([]byte, error) {
	return UnmarshalOptions{}.Unmarshal(t, json)
}

// Unmarshal converts the JSON object json to the Thrift bytes of a struct
// of type t. Fields are written in the order of their keys; defaults the
// IDL declares are not filled in. The result is allocated once, at a size
// learnt from the Type's earlier results.
func (o UnmarshalOptions) Unmarshal(t *dynamic.Type, json []byte) ([]byte, error) {
	return o.UnmarshalAppend(nil, t, json)
}

// UnmarshalAppend is Unmarshal appending to dst; it allocates only when
// dst lacks the room. On error dst is returned as it was.
func (o UnmarshalOptions) UnmarshalAppend(dst []byte, t *dynamic.Type, json []byte) ([]byte, error) {
	if !t.IsStruct() {
		return dst, errors.New("thrift/transcode: " + t.Name() + " is not a struct")
	}
	pl := planOf(t)
	out := dst
	if n := size(&pl.toThrift, len(json), 16); cap(dst)-len(dst) < n {
		out = append(make([]byte, 0, len(dst)+n), dst...)
	}
	d := decoder{p: o.Protocol, in: json, out: out, o: o, depth: maxDepth(o.MaxDepth)}
	if err := d.top(t); err != nil {
		return dst, err
	}
	learn(&pl.toThrift, len(json), len(d.out)-len(dst))
	return d.out, nil
}

// decoder writes Thrift bytes as it reads the JSON text, in one pass.
type decoder struct {
	p       wire.Protocol
	in      []byte
	pos     int
	out     []byte
	o       UnmarshalOptions
	depth   int    // levels left
	scratch []byte // unescaped keys and base64 text
}

func (d *decoder) top(t *dynamic.Type) error {
	if d.skipWS() != '{' {
		return d.errUnexpected("'{'")
	}
	if err := d.structValue(t); err != nil {
		return err
	}
	if d.skipWS(); d.pos < len(d.in) {
		return d.errAt(d.pos, "text after the JSON object")
	}
	return nil
}

// errAt returns an Error at offset off of the input.
func (d *decoder) errAt(off int, msg string) error {
	line, col := jsonx.LineCol(d.in, off)
	return &Error{Line: line, Col: col, Offset: off, Msg: msg}
}

// errUnexpected reports the token at d.pos where want was expected.
func (d *decoder) errUnexpected(want string) error {
	if d.pos >= len(d.in) {
		return d.errAt(d.pos, "unexpected end of input, expected "+want)
	}
	end := d.pos + 1
	for end < len(d.in) && end-d.pos < 24 && jsonx.IsNotDelim(d.in[end]) && jsonx.IsNotDelim(d.in[d.pos]) {
		end++
	}
	return d.errAt(d.pos, "unexpected "+quoteBytes(d.in[d.pos:end])+", expected "+want)
}

func (d *decoder) enter() error {
	if d.depth--; d.depth < 0 {
		return d.errAt(d.pos, "nesting too deep")
	}
	return nil
}

// structValue converts the JSON object at d.pos to a struct of type t.
func (d *decoder) structValue(t *dynamic.Type) error {
	if err := d.enter(); err != nil {
		return err
	}
	start := d.pos
	pl := planOf(t)
	d.pos++
	var st structState
	if d.skipWS() == '}' {
		d.pos++
	} else if err := d.members(t, pl, &st); err != nil {
		return err
	}
	if err := d.checkStruct(t, pl, start, &st); err != nil {
		return err
	}
	d.set(append(d.out, 0)) // Stop, in both protocols
	d.depth++
	return nil
}

// structState is what a struct's conversion keeps track of: the last id
// written (compact ids are deltas), the members, the required fields seen
// and the fields seen, for duplicates (the first 256 in declaration order).
type structState struct {
	last int16
	n    int
	req  uint64
	seen [4]uint64
	next int // the declaration index after the last field named, the likely next key
}

func (d *decoder) members(t *dynamic.Type, pl *plan, st *structState) error {
	for {
		if d.skipWS() != '"' {
			return d.errUnexpected("a field name")
		}
		keyOff := d.pos
		s, err := d.scanString()
		if err != nil {
			return err
		}
		key := d.stringValue(s)
		if err := d.colon(); err != nil {
			return err
		}
		f := st.guess(t, key)
		if f == nil {
			f = pl.field(t, key)
		}
		switch {
		case f == nil:
			err = d.unknown(key, keyOff)
		case d.skipWS() == 'n' && d.literal("null"): // absent
		default:
			err = d.member(f, pl, st, keyOff)
		}
		if err != nil {
			return err
		}
		if more, err := d.next('}'); err != nil || !more {
			return err
		}
	}
}

// guess returns the field after the last one named when key names it:
// JSON written from Thrift keeps declaration order, and one comparison
// then beats a lookup.
func (st *structState) guess(t *dynamic.Type, key []byte) *dynamic.Field {
	if st.next < len(t.Fields) && t.Fields[st.next].Name == string(key) {
		return t.Fields[st.next]
	}
	return nil
}

func (d *decoder) unknown(key []byte, off int) error {
	if !d.o.DiscardUnknown {
		return d.errAt(off, "unknown field "+quoteBytes(key))
	}
	return d.skipValue()
}

// member writes field f, whose value is at d.pos.
func (d *decoder) member(f *dynamic.Field, pl *plan, st *structState, keyOff int) error {
	if i := f.Index; i < 256 {
		if st.seen[i>>6]&(1<<(i&63)) != 0 {
			return d.errAt(keyOff, "duplicate field "+quoteBytes([]byte(f.Name)))
		}
		st.seen[i>>6] |= 1 << (i & 63)
	}
	var err error
	if f.Type.Kind == idl.BoolKind && d.p == wire.Compact {
		err = d.boolField(f, st.last)
	} else {
		d.set(d.p.AppendFieldHeader(d.out, f.Type.Wire, f.ID, st.last))
		err = d.value(f.Type)
	}
	if err != nil {
		return in(err, f.Name)
	}
	st.last = f.ID
	st.next = f.Index + 1
	st.n++
	st.req |= pl.reqBit[f.Index]
	return nil
}

// boolField writes a compact bool field, its value in its header.
func (d *decoder) boolField(f *dynamic.Field, last int16) error {
	v, err := d.boolValue()
	if err != nil {
		return err
	}
	d.set(d.p.AppendBoolField(d.out, f.ID, last, v))
	return nil
}

func (d *decoder) checkStruct(t *dynamic.Type, pl *plan, start int, st *structState) error {
	if st.req != pl.reqAll {
		for _, f := range t.Required {
			if st.req&pl.reqBit[f.Index] == 0 {
				return in(d.errAt(start, "required field missing"), f.Name)
			}
		}
	}
	if t.Kind == idl.UnionKind && st.n != 1 {
		return d.errAt(start, "union "+t.Name()+" has "+itoa(int64(st.n))+" fields set, not one")
	}
	return nil
}

// appendLen appends a string's or binary's length prefix.
func appendLen(p wire.Protocol, dst []byte, n int) []byte {
	if p == wire.Compact {
		return binary.AppendUvarint(dst, uint64(n))
	}
	return binary.BigEndian.AppendUint32(dst, uint32(n))
}

// fixHeader replaces the reserved bytes d.out[pos:pos+reserved] by h,
// moving what follows them.
func (d *decoder) fixHeader(pos, reserved int, h []byte) {
	if len(h) == reserved {
		copy(d.out[pos:], h)
		return
	}
	end := len(d.out)
	if grow := len(h) - reserved; grow > 0 {
		d.set(append(d.out, h[:grow]...))
	} else {
		d.set(d.out[:end+grow])
	}
	copy(d.out[pos+len(h):], d.out[pos+reserved:end])
	copy(d.out[pos:], h)
}
