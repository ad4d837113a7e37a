package dynamic

import (
	"github.com/rpckit/rpckit/internal/pathsyntax"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Map is a map field of a message: its entries are the field's records; a
// key that repeats is the last of its entries.
type Map struct {
	f *Field
	v Value
}

// Field returns the map's field.
func (m Map) Field() *Field { return m.f }

// Get returns the value for key k; it does not exist when k is absent.
func (m Map) Get(k Key) (Elem, error) {
	if m.f == nil {
		return Elem{}, nil
	}
	return m.v.mapLookup(m.f, k, nil, 0)
}

// Range calls fn with the key and value of each distinct key, in the order
// of their last entries, until fn returns false. Keys are checked for
// repeats by scanning the entries that follow, so Range costs time
// quadratic in the number of entries.
func (m Map) Range(fn func(key, val Elem) bool) error {
	if m.f == nil {
		return nil
	}
	it := m.v.iter()
	for it.Next() {
		r := it.Field()
		if r.Num != m.f.Num || r.Type != protowire.BytesType {
			continue
		}
		key, val, err := m.v.entry(m.f, r, nil, 0)
		if err != nil {
			return err
		}
		later, err := m.v.keyRepeats(m.f, keyOf(key), r.End)
		if err != nil {
			return err
		}
		if !later && !fn(key, val) {
			return nil
		}
	}
	return wrapWire(it.Err(), m.v.base, nil, 0)
}

// keyRepeats reports whether an entry from offset off on has key k.
func (v Value) keyRepeats(f *Field, k Key, off int) (bool, error) {
	it := wire.NewIterAt(v.b, off, len(v.b))
	for it.Next() {
		r := it.Field()
		if r.Num != f.Num || r.Type != protowire.BytesType {
			continue
		}
		key, err := v.sub(f.Message, r.Value, r.ValueEnd).scalar(f.MapKey, nil, 0)
		if err != nil {
			return false, err
		}
		if keyEquals(key, k) {
			return true, nil
		}
	}
	return false, wrapWire(it.Err(), v.base, nil, 0)
}

// entry decodes the key and value of the map entry in record r.
func (v Value) entry(f *Field, r wire.Field, p Path, n int) (Elem, Elem, error) {
	ev := v.sub(f.Message, r.Value, r.ValueEnd)
	key, err := ev.scalar(f.MapKey, p, n)
	if err != nil {
		return Elem{}, Elem{}, err
	}
	key.exists = true
	var val Elem
	if f.MapValue.isMessage() {
		var sub Value
		sub, _, err = ev.message(f.MapValue, p, n)
		val = Elem{f: f.MapValue, kind: elemMessage, msg: sub}
	} else {
		val, err = ev.scalar(f.MapValue, p, n)
	}
	val.exists = true
	return key, val, err
}

// element returns the list element or map entry that step i of p selects
// in list or map f.
func (v Value) element(f *Field, p Path, i int) (Elem, error) {
	s := p[i]
	if f.List {
		if s.Kind != StepIndex {
			return Elem{}, pathError(p, i+1, "a list takes an index")
		}
		return v.listElem(f, s.Index, p, i+1)
	}
	return v.mapLookup(f, s.Key, p, i+1)
}

// mapLookup returns the value of the last entry of map f with key k.
func (v Value) mapLookup(f *Field, k Key, p Path, n int) (Elem, error) {
	if !keyFits(f.MapKey, k) {
		return Elem{}, pathError(p, n, "key "+k.String()+" does not fit a "+f.MapKey.Kind.String()+" key")
	}
	r, found, err := v.findEntry(f, k, p, n)
	if err != nil || !found {
		e := Elem{f: f.MapValue, kind: kindOf(f.MapValue)}
		if f.MapValue.isMessage() {
			e.msg = Value{t: f.MapValue.Message}
		}
		return e, err
	}
	_, val, err := v.entry(f, r, p, n)
	return val, err
}

// findEntry returns the last entry record of map f whose key is k.
func (v Value) findEntry(f *Field, k Key, p Path, n int) (wire.Field, bool, error) {
	it := v.iter()
	var last wire.Field
	found := false
	for it.Next() {
		r := it.Field()
		if r.Num != f.Num || r.Type != protowire.BytesType {
			continue
		}
		key, err := v.sub(f.Message, r.Value, r.ValueEnd).scalar(f.MapKey, p, n)
		if err != nil {
			return r, false, err
		}
		if keyEquals(key, k) {
			last, found = r, true
		}
	}
	return last, found, wrapWire(it.Err(), v.base, p, n)
}

// keyFits reports whether a key of k's kind can name an entry of a map
// whose keys are kf.
func keyFits(kf *Field, k Key) bool {
	switch kf.Kind {
	case protoreflect.StringKind:
		return k.Kind == pathsyntax.String
	case protoreflect.BoolKind:
		return k.Kind == pathsyntax.Bool
	}
	return k.Kind == pathsyntax.Int || k.Kind == pathsyntax.Uint
}

// keyEquals reports whether the decoded entry key e is k.
func keyEquals(e Elem, k Key) bool {
	switch e.f.Kind {
	case protoreflect.StringKind:
		return k.Kind == pathsyntax.String && e.String() == k.Str
	case protoreflect.BoolKind:
		return k.Kind == pathsyntax.Bool && e.Bool() == (k.Uint == 1)
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		u := e.Uint()
		return (k.Kind == pathsyntax.Uint && k.Uint == u) || (k.Kind == pathsyntax.Int && k.Int >= 0 && uint64(k.Int) == u)
	}
	i := e.Int()
	return (k.Kind == pathsyntax.Int && k.Int == i) || (k.Kind == pathsyntax.Uint && i >= 0 && uint64(i) == k.Uint)
}

// keyOf returns the Key that an entry key element holds.
func keyOf(e Elem) Key {
	switch e.f.Kind {
	case protoreflect.StringKind:
		return StringKey(e.String())
	case protoreflect.BoolKind:
		return BoolKey(e.Bool())
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return UintKey(e.Uint())
	}
	return IntKey(e.Int())
}
