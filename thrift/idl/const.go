package idl

import (
	"math"
	"strconv"
	"strings"
)

// Value is a constant value checked against its Type: how to read it
// follows from Type.Resolved().Kind.
//
//	bool                     Bool
//	i8, i16, i32, i64, enum  Int (an enum's value also in Enum)
//	double                   Double
//	string, binary, uuid     String
//	list, set                List
//	map                      Map, entries in the order written
//	struct, union, exception Map, keys are the field names, Field set
type Value struct {
	Type   *Type
	Bool   bool
	Int    int64
	Double float64
	String string
	List   []*Value
	Map    []*MapEntry
	Enum   *EnumValue
	// Ref is the constant or enum value the value was written as
	// (C_LIMIT, Status.ACTIVE), or "".
	Ref string
	Pos Pos
}

// MapEntry is one key: value of a map, or one field: value of a struct
// constant (Field is then the field).
type MapEntry struct {
	Key   *Value
	Value *Value
	Field *Field
}

// Types of the literals as written, before they are checked against the
// type they are given: integers (true and false are 1 and 0, as the
// Apache compiler reads them), doubles and strings.
var (
	literalInt    = &Type{Kind: I64Kind, Name: "integer"}
	literalDouble = &Type{Kind: DoubleKind, Name: "double"}
	literalString = &Type{Kind: StringKind, Name: "string"}
)

// constDef resolves a constant's value, and first those it refers to.
func (r *resolver) constDef(c *Const) error {
	switch c.state {
	case resolved:
		return nil
	case resolving:
		return errorf(c.Pos, "constant %s refers to itself", c.Name)
	}
	c.state = resolving
	v, err := r.value(c.raw, c.Type, "constant "+c.Name)
	if err != nil {
		return err
	}
	c.Value, c.raw, c.state = v, nil, resolved
	return nil
}

// value checks a value as written against t.
func (r *resolver) value(raw *rawValue, t *Type, ctx string) (*Value, error) {
	if err := r.count(raw.tok.pos); err != nil {
		return nil, err
	}
	switch {
	case raw.tok.kind == tIdent:
		return r.ident(raw.tok, t, ctx)
	case raw.isMap:
		return r.mapValue(raw, t, ctx)
	case raw.tok.kind == tSymbol:
		return r.listValue(raw, t, ctx)
	}
	return r.fit(literal(raw.tok), t, ctx, raw.tok.pos)
}

func literal(t token) *Value {
	switch t.kind {
	case tInt:
		return &Value{Type: literalInt, Int: t.i, Pos: t.pos}
	case tDouble:
		return &Value{Type: literalDouble, Double: t.f, Pos: t.pos}
	}
	return &Value{Type: literalString, String: t.text, Pos: t.pos}
}

func (r *resolver) count(at Pos) error {
	r.l.values++
	if r.l.values > r.l.opts.MaxValues {
		return errorf(at, "constants too large: more than %d values", r.l.opts.MaxValues)
	}
	return nil
}

// ident resolves a name used as a value: an enum value or a constant.
func (r *resolver) ident(tok token, t *Type, ctx string) (*Value, error) {
	if ev := r.enumValue(tok.text, t); ev != nil {
		v := &Value{Type: t.Resolved(), Int: int64(ev.Value), Enum: ev, Pos: tok.pos}
		return r.fitRef(v, tok, t, ctx)
	}
	if ev := r.f.EnumValue(tok.text); ev != nil {
		v := &Value{Type: ev.Enum.Ref, Int: int64(ev.Value), Enum: ev, Pos: tok.pos}
		return r.fitRef(v, tok, t, ctx)
	}
	c := r.f.Const(tok.text)
	if c == nil {
		return nil, errorf(tok.pos, "%s: unknown constant or enum value %q", ctx, tok.text)
	}
	if c.File == r.f {
		if err := r.constDef(c); err != nil {
			return nil, err
		}
	}
	return r.fitRef(c.Value, tok, t, ctx)
}

// enumValue finds the value a dotted name gives an enum type: the enum's
// value named by the last part of the name, whatever the prefix, as the
// Apache compiler reads it (MyEnum1.ME2_2 is ME2_2 of the enum expected).
func (r *resolver) enumValue(name string, t *Type) *EnumValue {
	rt := t.Resolved()
	dot := strings.LastIndexByte(name, '.')
	if rt.Kind != EnumKind || dot < 0 {
		return nil
	}
	if ev := r.f.EnumValue(name); ev != nil && ev.Enum == rt.Enum {
		return ev
	}
	if r.f.Const(name) != nil {
		return nil
	}
	return rt.Enum.Value(name[dot+1:])
}

func (r *resolver) fitRef(v *Value, tok token, t *Type, ctx string) (*Value, error) {
	ref := *v
	ref.Ref, ref.Pos = tok.text, tok.pos
	out, err := r.fit(&ref, t, ctx, tok.pos)
	if err != nil {
		return nil, err
	}
	out.Ref = tok.text
	return out, nil
}

func (r *resolver) listValue(raw *rawValue, t *Type, ctx string) (*Value, error) {
	rt := t.Resolved()
	if rt.Kind != ListKind && rt.Kind != SetKind {
		return nil, errorf(raw.tok.pos, "%s: expected %s, found a list", ctx, t)
	}
	v := &Value{Type: t, Pos: raw.tok.pos, List: make([]*Value, 0, len(raw.list))}
	for _, e := range raw.list {
		ev, err := r.value(e, rt.Elem, ctx)
		if err != nil {
			return nil, err
		}
		v.List = append(v.List, ev)
	}
	return v, nil
}

func (r *resolver) mapValue(raw *rawValue, t *Type, ctx string) (*Value, error) {
	rt := t.Resolved()
	if rt.Kind.IsStruct() {
		return r.structValue(raw, t, ctx)
	}
	if (rt.Kind == ListKind || rt.Kind == SetKind) && len(raw.entries) == 0 {
		return &Value{Type: t, Pos: raw.tok.pos}, nil // {} is an empty list to the Apache compiler too
	}
	if rt.Kind != MapKind {
		return nil, errorf(raw.tok.pos, "%s: expected %s, found a map", ctx, t)
	}
	v := &Value{Type: t, Pos: raw.tok.pos, Map: make([]*MapEntry, 0, len(raw.entries))}
	for _, kv := range raw.entries {
		k, err := r.value(kv[0], rt.Key, ctx)
		if err != nil {
			return nil, err
		}
		e, err := r.value(kv[1], rt.Elem, ctx)
		if err != nil {
			return nil, err
		}
		v.Map = append(v.Map, &MapEntry{Key: k, Value: e})
	}
	return v, nil
}

// structValue checks { "field": value, ... } against a struct type.
func (r *resolver) structValue(raw *rawValue, t *Type, ctx string) (*Value, error) {
	s := t.Resolved().Struct
	v := &Value{Type: t, Pos: raw.tok.pos, Map: make([]*MapEntry, 0, len(raw.entries))}
	for _, kv := range raw.entries {
		key := kv[0].tok
		if key.kind != tString {
			return nil, errorf(key.pos, "%s: expected a field name of %s in quotes, found %s", ctx, s.Name, key.describe())
		}
		f := s.FieldByName(key.text)
		if f == nil {
			return nil, errorf(key.pos, "%s: %s has no field %q", ctx, s.Name, key.text)
		}
		e, err := r.value(kv[1], f.Type, ctx+"."+f.Name)
		if err != nil {
			return nil, err
		}
		k := &Value{Type: &Type{Kind: StringKind, Name: "string", Pos: key.pos}, String: key.text, Pos: key.pos}
		v.Map = append(v.Map, &MapEntry{Key: k, Value: e, Field: f})
	}
	return v, nil
}

// fit converts a checked value (a literal, or another constant's value) to
// t, or says why it does not fit; errors are reported at at, where the
// value is used.
func (r *resolver) fit(v *Value, t *Type, ctx string, at Pos) (*Value, error) {
	rt, vt := t.Resolved(), v.Type.Resolved()
	out := *v
	out.Type = t
	if sameType(rt, vt) {
		return &out, nil
	}
	ok := false
	switch k := rt.Kind; {
	case k == BoolKind:
		ok = fitBool(&out, vt)
	case k >= I8Kind && k <= I64Kind:
		ok = fitInt(&out, vt, k)
	case k == DoubleKind:
		ok = fitDouble(&out, vt)
	case k == StringKind || k == BinaryKind:
		ok = vt.Kind == StringKind || vt.Kind == BinaryKind
	case k == UUIDKind:
		ok = (vt.Kind == StringKind || vt.Kind == BinaryKind) && validUUID(v.String)
	case k == EnumKind:
		ok = fitEnum(&out, vt, rt.Enum)
	case k.IsContainer() && vt.Kind == k || k == SetKind && vt.Kind == ListKind || k == ListKind && vt.Kind == SetKind:
		return r.fitContainer(v, t, ctx, at)
	}
	if !ok {
		return nil, errorf(at, "%s: expected %s, found %s", ctx, t, describe(v))
	}
	return &out, nil
}

func fitBool(v *Value, from *Type) bool {
	if from.Kind >= I8Kind && from.Kind <= I64Kind && (v.Int == 0 || v.Int == 1) {
		v.Bool, v.Int = v.Int == 1, 0
		return true
	}
	return false
}

var intRanges = map[Kind][2]int64{
	I8Kind:  {math.MinInt8, math.MaxInt8},
	I16Kind: {math.MinInt16, math.MaxInt16},
	I32Kind: {math.MinInt32, math.MaxInt32},
	I64Kind: {math.MinInt64, math.MaxInt64},
}

func fitInt(v *Value, from *Type, k Kind) bool {
	switch from.Kind {
	case BoolKind:
		v.Int = 0
		if v.Bool {
			v.Int = 1
		}
		v.Bool = false
	case I8Kind, I16Kind, I32Kind, I64Kind, EnumKind:
	default:
		return false
	}
	v.Enum = nil
	lim := intRanges[k]
	return v.Int >= lim[0] && v.Int <= lim[1]
}

func fitDouble(v *Value, from *Type) bool {
	switch from.Kind {
	case DoubleKind:
		return true
	case I8Kind, I16Kind, I32Kind, I64Kind:
		v.Double, v.Int = float64(v.Int), 0
		return true
	}
	return false
}

func fitEnum(v *Value, from *Type, e *Enum) bool {
	if from.Kind < I8Kind || from.Kind > I64Kind || v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
		return false
	}
	v.Enum = e.ByNumber(int32(v.Int))
	return v.Enum != nil
}

func (r *resolver) fitContainer(v *Value, t *Type, ctx string, at Pos) (*Value, error) {
	rt := t.Resolved()
	out := &Value{Type: t, Ref: v.Ref, Pos: v.Pos}
	for _, e := range v.List {
		if err := r.count(at); err != nil {
			return nil, err
		}
		fe, err := r.fit(e, rt.Elem, ctx, at)
		if err != nil {
			return nil, err
		}
		out.List = append(out.List, fe)
	}
	for _, e := range v.Map {
		if err := r.count(at); err != nil {
			return nil, err
		}
		k, err := r.fit(e.Key, rt.Key, ctx, at)
		if err != nil {
			return nil, err
		}
		fe, err := r.fit(e.Value, rt.Elem, ctx, at)
		if err != nil {
			return nil, err
		}
		out.Map = append(out.Map, &MapEntry{Key: k, Value: fe})
	}
	return out, nil
}

// sameType reports whether two resolved types hold the same values.
func sameType(a, b *Type) bool {
	a, b = a.Resolved(), b.Resolved()
	switch {
	case a == b:
		return true
	case a.Kind != b.Kind:
		return false
	case a.Kind.IsBase():
		return true
	case a.Kind == MapKind:
		return sameType(a.Key, b.Key) && sameType(a.Elem, b.Elem)
	case a.Kind == ListKind || a.Kind == SetKind:
		return sameType(a.Elem, b.Elem)
	}
	return false // distinct named types
}

// describe says what a value is, for "found ..." in errors.
func describe(v *Value) string {
	kind := v.Type.Resolved().Kind
	var s string
	switch {
	case kind == BoolKind:
		s = strconv.FormatBool(v.Bool)
	case kind >= I8Kind && kind <= I64Kind || kind == EnumKind:
		s = strconv.FormatInt(v.Int, 10)
	case kind == DoubleKind:
		s = strconv.FormatFloat(v.Double, 'g', -1, 64)
	case kind == StringKind || kind == BinaryKind || kind == UUIDKind:
		s = "string " + strconv.Quote(v.String)
	case kind == MapKind || kind.IsStruct():
		s = "a map"
	default:
		s = "a list"
	}
	if v.Ref != "" {
		return v.Ref + " (" + s + ", " + v.Type.String() + ")"
	}
	return s
}

// validUUID accepts the 8-4-4-4-12 hex form, optionally in braces.
func validUUID(s string) bool {
	if len(s) == 38 && s[0] == '{' && s[37] == '}' {
		s = s[1:37]
	}
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return false
			}
		} else if !isHex(s[i]) {
			return false
		}
	}
	return true
}
