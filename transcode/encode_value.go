package transcode

import (
	"math"

	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// scalar prints the value of record r of a scalar field f.
func (e *encoder) scalar(f *fieldPlan, r *rec) error {
	out, err := e.appendScalar(e.out, f, r)
	if err == nil {
		e.set(out)
	}
	return err
}

// appendScalar is scalar on out; on error out is as it was.
func (e *encoder) appendScalar(out []byte, f *fieldPlan, r *rec) ([]byte, error) {
	switch f.kind {
	case protoreflect.StringKind:
		res, ok := jsonx.AppendString(out, e.b[r.start:r.end])
		if !ok {
			return out, e.fieldErr(int(r.start), f, "invalid UTF-8")
		}
		return res, nil
	case protoreflect.BytesKind:
		return jsonx.AppendBase64(out, e.b[r.start:r.end]), nil
	}
	return e.appendBits(out, f, e.bitsOf(r)), nil
}

// bits prints a numeric, boolean or enum value of f from its wire bits.
func (e *encoder) bits(f *fieldPlan, v uint64) { e.set(e.appendBits(e.out, f, v)) }

// appendBits is bits on out.
func (e *encoder) appendBits(out []byte, f *fieldPlan, v uint64) []byte {
	switch f.kind {
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		out = jsonx.AppendInt(out, int64(int32(v)))
	case protoreflect.Sint32Kind:
		out = jsonx.AppendInt(out, int64(int32(protowire.DecodeZigZag(v&math.MaxUint32))))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		out = jsonx.AppendUint(out, uint64(uint32(v)))
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		out = append(jsonx.AppendInt(append(out, '"'), int64(v)), '"')
	case protoreflect.Sint64Kind:
		out = append(jsonx.AppendInt(append(out, '"'), protowire.DecodeZigZag(v)), '"')
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		out = append(jsonx.AppendUint(append(out, '"'), v), '"')
	case protoreflect.BoolKind:
		if v != 0 {
			out = append(out, "true"...)
		} else {
			out = append(out, "false"...)
		}
	case protoreflect.FloatKind:
		out = jsonx.AppendFloat(out, float64(math.Float32frombits(uint32(v))), 32)
	case protoreflect.DoubleKind:
		out = jsonx.AppendFloat(out, math.Float64frombits(v), 64)
	case protoreflect.EnumKind:
		out = e.appendEnum(out, f, protoreflect.EnumNumber(int32(v)))
	}
	return out
}

// appendEnum prints an enum value by name, or by number when asked or when
// the enum has no such value; NullValue is always null.
func (e *encoder) appendEnum(out []byte, f *fieldPlan, n protoreflect.EnumNumber) []byte {
	if f.isNull {
		return append(out, "null"...)
	}
	if !e.enumNums {
		if q := f.enum.quoted(n); q != nil {
			return append(out, q...)
		}
	}
	return jsonx.AppendInt(out, int64(n))
}

// zero prints the zero value of an absent scalar without presence, or of
// a map's absent value (an enum there starts at 0, even a proto2 one).
func (e *encoder) zero(f *fieldPlan) { e.set(e.appendZero(e.out, f)) }

// appendZero is zero on out.
func (e *encoder) appendZero(out []byte, f *fieldPlan) []byte {
	if f.kind == protoreflect.StringKind || f.kind == protoreflect.BytesKind {
		return append(out, `""`...)
	}
	return e.appendBits(out, f, 0)
}

// bytes prints b as standard base64 with padding, in quotes: six bytes
// at a time to eight characters (four pairs from base64Pairs) stored as
// one word, then three at a time to four, then the last one or two bytes
// with their padding.
func (e *encoder) bytes(b []byte) { e.set(jsonx.AppendBase64(e.out, b)) }
