package transcode

import (
	"errors"
	"math"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Marshal converts the Thrift struct b, of type t in the binary protocol,
// to JSON with the zero MarshalOptions.
func Marshal(t *dynamic.Type, b []byte) ([]byte, error) {
	return MarshalOptions{}.Marshal(t, b)
}

// Marshal converts the Thrift struct b, of struct type t, to JSON. b must
// hold the struct and nothing after it. The result is allocated once, at
// a size learnt from the Type's earlier results.
func (o MarshalOptions) Marshal(t *dynamic.Type, b []byte) ([]byte, error) {
	return o.MarshalAppend(nil, t, b)
}

// MarshalAppend is Marshal appending to dst; it allocates only when dst
// lacks the room. On error dst is returned as it was.
func (o MarshalOptions) MarshalAppend(dst []byte, t *dynamic.Type, b []byte) ([]byte, error) {
	if !t.IsStruct() {
		return dst, errors.New("thrift/transcode: " + t.Name() + " is not a struct")
	}
	pl := planOf(t)
	out := dst
	if n := size(&pl.toJSON, len(b), 40); cap(dst)-len(dst) < n {
		out = append(make([]byte, 0, len(dst)+n), dst...)
	}
	e := encoder{p: o.Protocol, in: b, out: out, o: o, depth: maxDepth(o.MaxDepth)}
	end, err := e.structValue(t, 0)
	if err == nil && end != len(b) {
		err = &Error{Offset: end, Msg: "bytes after the struct"}
	}
	if err != nil {
		return dst, err
	}
	learn(&pl.toJSON, len(b), len(e.out)-len(dst))
	return e.out, nil
}

// MarshalValue converts one value of any type t, the whole of b, to JSON
// appended to dst: a struct, a container or a scalar, such as a value that
// dynamic.Value.Get found inside a struct (its Raw bytes). A compact bool
// field has no value bytes of its own; pass its value as one byte.
func (o MarshalOptions) MarshalValue(dst []byte, t *dynamic.Type, b []byte) ([]byte, error) {
	e := encoder{p: o.Protocol, in: b, out: dst, o: o, depth: maxDepth(o.MaxDepth)}
	end, err := e.value(t, 0, false)
	if err == nil && end != len(b) {
		err = &Error{Offset: end, Msg: "bytes after the value"}
	}
	if err != nil {
		return dst, err
	}
	return e.out, nil
}

// encoder writes JSON as it reads the Thrift bytes, in one pass.
type encoder struct {
	p     wire.Protocol
	in    []byte
	out   []byte
	o     MarshalOptions
	depth int // levels left
}

func (e *encoder) errAt(off int, msg string) error { return &Error{Offset: off, Msg: msg} }

// wireErr turns a wire package error into an Error at its offset.
func wireErr(err error) error {
	if err == nil {
		return nil
	}
	return wrapWire(err)
}

func wrapWire(err error) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &Error{Offset: we.Offset, Msg: we.Code.String(), Err: err}
	}
	return err
}

// structValue writes the struct of type t at off as a JSON object and
// returns the offset past its Stop.
func (e *encoder) structValue(t *dynamic.Type, off int) (int, error) {
	if e.depth--; e.depth < 0 {
		return -1, e.errAt(off, "nesting too deep")
	}
	pl := planOf(t)
	e.set(append(e.out, '{'))
	keys := pl.names
	if e.o.UseIDs {
		keys = pl.ids
	}
	var last int16
	n := 0
	var req uint64
	var seen [4]uint64 // the fields written, the first 256, for duplicates
	for {
		h, next, err := e.p.ConsumeFieldHeader(e.in, off, last)
		if err != nil {
			return -1, wireErr(err)
		}
		if h.Type == wire.Stop {
			off = next
			break
		}
		last = h.ID
		f := t.FieldByID(h.ID)
		if f == nil || f.Type.Wire != h.Type {
			if off, err = e.skipField(f, h, off, next); err != nil {
				return -1, err
			}
			continue
		}
		if i := f.Index; i < 256 {
			if seen[i>>6]&(1<<(i&63)) != 0 {
				return -1, e.errAt(off, "field "+f.Name+" appears twice")
			}
			seen[i>>6] |= 1 << (i & 63)
		}
		if n > 0 {
			e.set(append(e.out, ','))
		}
		n++
		e.set(append(e.out, keys[f.Index]...))
		if off, err = e.field(f, h, next, pl.str64[f.Index]); err != nil {
			return -1, in(err, f.Name)
		}
		req |= pl.reqBit[f.Index]
	}
	if err := e.checkStruct(t, pl, off, n, req); err != nil {
		return -1, err
	}
	e.set(append(e.out, '}'))
	e.depth++
	return off, nil
}

// field writes the value of field f, whose header h ends at off.
func (e *encoder) field(f *dynamic.Field, h wire.FieldHeader, off int, str64 bool) (int, error) {
	if h.Type != wire.Bool || e.p == wire.Binary {
		return e.value(f.Type, off, str64)
	}
	e.set(appendBool(e.out, h.Bool)) // a compact bool field's value is its header's
	return off, nil
}

// skipField skips a field the IDL lacks, or whose wire type is not the
// IDL's, unless RejectUnknown.
func (e *encoder) skipField(f *dynamic.Field, h wire.FieldHeader, start, off int) (int, error) {
	if e.o.RejectUnknown {
		if f == nil {
			return -1, e.errAt(start, "unknown field id "+itoa(int64(h.ID)))
		}
		return -1, in(e.errAt(start, h.Type.String()+" on the wire where the IDL has "+f.Type.Name()), f.Name)
	}
	if h.Type == wire.Bool && e.p == wire.Compact {
		return off, nil
	}
	end, err := e.p.SkipDepth(e.in, off, h.Type, e.depth)
	return end, wireErr(err)
}

// checkStruct checks a struct's required fields, and that a union had one
// member.
func (e *encoder) checkStruct(t *dynamic.Type, pl *plan, off, n int, req uint64) error {
	if req != pl.reqAll {
		for _, f := range t.Required {
			if req&pl.reqBit[f.Index] == 0 {
				return in(e.errAt(off, "required field missing"), f.Name)
			}
		}
	}
	if t.Kind == idl.UnionKind && n != 1 {
		return e.errAt(off, "union "+t.Name()+" has "+itoa(int64(n))+" fields set, not one")
	}
	return nil
}

// value writes the value of type t at off, its i64 values as strings when
// str64, and returns the offset past it.
func (e *encoder) value(t *dynamic.Type, off int, str64 bool) (int, error) {
	var err error
	switch t.Kind {
	case idl.BoolKind:
		var v bool
		v, off, err = e.p.ConsumeBool(e.in, off)
		e.set(appendBool(e.out, v))
	case idl.I8Kind:
		var v int8
		v, off, err = e.p.ConsumeByte(e.in, off)
		e.set(jsonx.AppendInt(e.out, int64(v)))
	case idl.I16Kind:
		var v int16
		v, off, err = e.p.ConsumeI16(e.in, off)
		e.set(jsonx.AppendInt(e.out, int64(v)))
	case idl.I32Kind:
		var v int32
		v, off, err = e.p.ConsumeI32(e.in, off)
		e.set(jsonx.AppendInt(e.out, int64(v)))
	case idl.EnumKind:
		var v int32
		v, off, err = e.p.ConsumeI32(e.in, off)
		e.set(e.appendEnum(e.out, t, v, false))
	case idl.I64Kind:
		var v int64
		v, off, err = e.p.ConsumeI64(e.in, off)
		e.set(appendI64(e.out, v, str64 || e.o.I64Strings))
	case idl.DoubleKind:
		var v float64
		v, off, err = e.p.ConsumeDouble(e.in, off)
		e.set(jsonx.AppendFloat(e.out, v, 64))
	case idl.StringKind, idl.BinaryKind:
		return e.bytesValue(t, off)
	case idl.UUIDKind:
		var v [16]byte
		v, off, err = e.p.ConsumeUUID(e.in, off)
		e.set(appendUUID(e.out, v))
	case idl.ListKind, idl.SetKind:
		return e.list(t, off, str64)
	case idl.MapKind:
		return e.mapValue(t, off, str64)
	default:
		return e.structValue(t, off)
	}
	return off, wireErr(err)
}

func (e *encoder) bytesValue(t *dynamic.Type, off int) (int, error) {
	v, next, err := e.p.ConsumeBinary(e.in, off)
	if err != nil {
		return -1, wireErr(err)
	}
	if t.Kind == idl.BinaryKind {
		e.set(jsonx.AppendBase64(e.out, v))
		return next, nil
	}
	out, ok := jsonx.AppendString(e.out, v)
	if !ok {
		return -1, e.errAt(off, "string is not valid UTF-8")
	}
	e.set(out)
	return next, nil
}

// appendEnum writes an enum value: its name when EnumNames and the enum
// has one, else its number; quoted when key.
func (e *encoder) appendEnum(out []byte, t *dynamic.Type, v int32, key bool) []byte {
	if e.o.EnumNames {
		if ev := t.Enum.ByNumber(v); ev != nil {
			out, _ = jsonx.AppendString(out, []byte(ev.Name))
			return out
		}
	}
	if key {
		return append(jsonx.AppendInt(append(out, '"'), int64(v)), '"')
	}
	return jsonx.AppendInt(out, int64(v))
}

func appendBool(out []byte, v bool) []byte {
	if v {
		return append(out, "true"...)
	}
	return append(out, "false"...)
}

func appendI64(out []byte, v int64, str bool) []byte {
	if str {
		return append(jsonx.AppendInt(append(out, '"'), v), '"')
	}
	return jsonx.AppendInt(out, v)
}

// appendUUID writes a uuid in its canonical text, 8-4-4-4-12 hex digits.
func appendUUID(out []byte, v [16]byte) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i, c := range v {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&15])
	}
	return append(out, '"')
}

// appendKeyFloat writes a double map key as a JSON string.
func appendKeyFloat(out []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return jsonx.AppendFloat(out, v, 64) // already quoted
	}
	return append(jsonx.AppendFloat(append(out, '"'), v, 64), '"')
}

func itoa(v int64) string { return string(jsonx.AppendInt(nil, v)) }

// set makes out, which appends grew from e.out, the output. While out is
// in e.out's array only the length is stored: no pointer, so no GC write
// barrier (the encoder's methods do not know it is on the stack).
func (e *encoder) set(out []byte) { setOut(&e.out, out) }

// set is encoder.set for the decoder's output.
func (d *decoder) set(out []byte) { setOut(&d.out, out) }

func setOut(dst *[]byte, out []byte) {
	if cap(out) == cap(*dst) {
		*dst = (*dst)[:len(out)]
	} else {
		*dst = out
	}
}
