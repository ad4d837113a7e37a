package dynamic

import (
	"strconv"

	"github.com/rpckit/rpckit/internal/pathsyntax"
	"github.com/rpckit/rpckit/internal/utf8x"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// DefaultMaxDepth is the nesting limit of Validate and the DOM: the
// structs and containers that may enclose one another, Apache Thrift's
// default recursion depth.
const DefaultMaxDepth = wire.DefaultMaxDepth

// ValidateOptions configures Validate. The zero value is the default.
type ValidateOptions struct {
	// MaxDepth limits the nesting of structs and containers; 0 means
	// DefaultMaxDepth.
	MaxDepth int
}

// Validate reports whether b is exactly one well-formed struct of Type t in
// protocol p; see ValidateOptions.Validate.
func Validate(t *Type, p wire.Protocol, b []byte) error {
	return ValidateOptions{}.Validate(t, p, b)
}

// Validate reports whether b is exactly one well-formed struct of Type t in
// protocol p: every value well-formed at every depth, every known field
// and every container element of the wire type the IDL gives it, no field
// repeated, required fields present, at most one field of a union set,
// strings (not binaries) valid UTF-8, nesting within the limit. Unknown
// fields are skipped, checked for form only. The first problem is an
// *Error with its offset and path.
func (o ValidateOptions) Validate(t *Type, p wire.Protocol, b []byte) error {
	return o.value(p, b, t)
}

// value validates b as exactly one value of t.
func (o ValidateOptions) value(p wire.Protocol, b []byte, t *Type) error {
	max := o.MaxDepth
	if max <= 0 {
		max = DefaultMaxDepth
	}
	vd := validator{p: p, b: b, max: max}
	end, err := vd.value(0, t, 0)
	if err == nil && end != len(b) {
		err = misfit(end, "", strconv.Itoa(len(b)-end)+" bytes after the value")
	}
	return err
}

type validator struct {
	p   wire.Protocol
	b   []byte
	max int
}

func (vd *validator) value(off int, t *Type, depth int) (int, error) {
	switch t.Wire {
	case wire.Struct:
		return vd.structValue(off, t, depth+1)
	case wire.List, wire.Set:
		return vd.list(off, t, depth+1)
	case wire.Map:
		return vd.mapValue(off, t, depth+1)
	case wire.String:
		s, end, err := vd.p.ConsumeBinary(vd.b, off)
		if err == nil && t.Kind == idl.StringKind && !utf8x.Valid(s) {
			return 0, misfit(off, "", "invalid UTF-8 in a string")
		}
		return end, vd.wrap(err)
	}
	end, err := vd.p.Skip(vd.b, off, t.Wire)
	return end, vd.wrap(err)
}

func (vd *validator) wrap(err error) error {
	if err == nil {
		return nil
	}
	return wrapWire(err, nil, 0)
}

func (vd *validator) deep(off, depth int) error {
	if depth > vd.max {
		return &Error{Offset: off, Code: wire.CodeDepth}
	}
	return nil
}

func (vd *validator) structValue(off int, t *Type, depth int) (int, error) {
	if err := vd.deep(off, depth); err != nil {
		return 0, err
	}
	var small [2]uint64
	seen := small[:]
	if len(t.Fields) > 128 {
		seen = make([]uint64, (len(t.Fields)+63)/64)
	}
	last, set := int16(0), 0
	for {
		h, next, err := vd.p.ConsumeFieldHeader(vd.b, off, last)
		if err != nil {
			return 0, vd.wrap(err)
		}
		if h.Type == wire.Stop {
			return next, vd.finish(off, t, seen, set)
		}
		f := t.FieldByID(h.ID)
		if off, err = vd.field(off, next, f, h, seen, depth); err != nil {
			return 0, prefix(err, fieldText(f, h.ID))
		}
		if f != nil {
			set++
		}
		last = h.ID
	}
}

// field validates the field whose header is at start and value at off.
func (vd *validator) field(start, off int, f *Field, h wire.FieldHeader, seen []uint64, depth int) (int, error) {
	if f == nil {
		end, err := skipField(vd.p, vd.b, off, h, vd.max-depth)
		return end, vd.wrap(err)
	}
	if h.Type != f.Type.Wire {
		return 0, misfit(start, "", "wire type "+h.Type.String()+", want "+f.Type.Wire.String())
	}
	if seen[f.Index/64]&(1<<(f.Index%64)) != 0 {
		return 0, misfit(start, "", "the field repeats")
	}
	seen[f.Index/64] |= 1 << (f.Index % 64)
	if h.Type == wire.Bool && vd.p == wire.Compact {
		return off, nil
	}
	return vd.value(off, f.Type, depth)
}

// finish checks a struct's required fields and a union's count once its
// Stop is at off.
func (vd *validator) finish(off int, t *Type, seen []uint64, set int) error {
	for _, r := range t.Required {
		if seen[r.Index/64]&(1<<(r.Index%64)) == 0 {
			return misfit(off, "", "required field "+strconv.Quote(r.Name)+" of "+t.Name()+" is missing")
		}
	}
	if t.Kind == idl.UnionKind && set > 1 {
		return misfit(off, "", "union "+t.Name()+" has "+strconv.Itoa(set)+" fields set")
	}
	return nil
}

func (vd *validator) list(off int, t *Type, depth int) (int, error) {
	if err := vd.deep(off, depth); err != nil {
		return 0, err
	}
	et, n, off, err := vd.p.ConsumeListHeader(vd.b, off)
	if err != nil {
		return 0, vd.wrap(err)
	}
	if n > 0 && et != t.Elem.Wire {
		return 0, misfit(off, "", "elements of wire type "+et.String()+", want "+t.Elem.Wire.String())
	}
	for i := 0; i < n; i++ {
		if off, err = vd.value(off, t.Elem, depth); err != nil {
			return 0, prefix(err, "["+strconv.Itoa(i)+"]")
		}
	}
	return off, nil
}

func (vd *validator) mapValue(off int, t *Type, depth int) (int, error) {
	if err := vd.deep(off, depth); err != nil {
		return 0, err
	}
	kt, et, n, off, err := vd.p.ConsumeMapHeader(vd.b, off)
	if err != nil {
		return 0, vd.wrap(err)
	}
	if n > 0 && (kt != t.Key.Wire || et != t.Elem.Wire) {
		return 0, misfit(off, "", "entries of wire types "+kt.String()+", "+et.String()+", want "+t.Key.Wire.String()+", "+t.Elem.Wire.String())
	}
	for i := 0; i < n; i++ {
		if off, err = vd.value(off, t.Key, depth); err == nil {
			off, err = vd.value(off, t.Elem, depth)
		}
		if err != nil {
			return 0, prefix(err, "[entry "+strconv.Itoa(i)+"]")
		}
	}
	return off, nil
}

// prefix puts step in front of the path of err.
func prefix(err error, step string) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	e.Path = pathsyntax.Prepend(step, e.Path)
	return e
}

func fieldText(f *Field, id int16) string {
	if f != nil {
		return f.Name
	}
	return strconv.Itoa(int(id))
}
