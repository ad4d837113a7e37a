package transcode

import (
	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// enter takes a nesting level for a container at off.
func (e *encoder) enter(off int) error {
	if e.depth--; e.depth < 0 {
		return e.errAt(off, "nesting too deep")
	}
	return nil
}

// list writes a list or set as a JSON array.
func (e *encoder) list(t *dynamic.Type, off int, str64 bool) (int, error) {
	if err := e.enter(off); err != nil {
		return -1, err
	}
	et, n, p, err := e.p.ConsumeListHeader(e.in, off)
	if err != nil {
		return -1, wireErr(err)
	}
	if n > 0 && et != t.Elem.Wire {
		return -1, e.errAt(off, t.Kind.String()+" of "+et.String()+" where the IDL has "+t.Name())
	}
	e.set(append(e.out, '['))
	for i := range n {
		if i > 0 {
			e.set(append(e.out, ','))
		}
		if p, err = e.value(t.Elem, p, str64); err != nil {
			return -1, inIndex(err, i)
		}
	}
	e.set(append(e.out, ']'))
	e.depth++
	return p, nil
}

// scalarKey reports whether map keys of kind k are written as JSON object
// keys (strings); the others make the map a list of key-value objects.
func scalarKey(k idl.Kind) bool { return k.IsBase() || k == idl.EnumKind }

// mapValue writes a map: a JSON object when its keys are scalars, else
// an array of {"key":...,"value":...} objects.
func (e *encoder) mapValue(t *dynamic.Type, off int, str64 bool) (int, error) {
	if err := e.enter(off); err != nil {
		return -1, err
	}
	kt, vt, n, p, err := e.p.ConsumeMapHeader(e.in, off)
	if err != nil {
		return -1, wireErr(err)
	}
	if n > 0 && (kt != t.Key.Wire || vt != t.Elem.Wire) {
		return -1, e.errAt(off, "map<"+kt.String()+","+vt.String()+"> where the IDL has "+t.Name())
	}
	if scalarKey(t.Key.Kind) {
		p, err = e.objectMap(t, p, n, str64)
	} else {
		p, err = e.entryMap(t, p, n, str64)
	}
	e.depth++
	return p, err
}

func (e *encoder) objectMap(t *dynamic.Type, p, n int, str64 bool) (int, error) {
	e.set(append(e.out, '{'))
	var err error
	for i := range n {
		if i > 0 {
			e.set(append(e.out, ','))
		}
		k := len(e.out)
		if p, err = e.key(t.Key, p); err != nil {
			return -1, inIndex(err, i)
		}
		e.set(append(e.out, ':'))
		if p, err = e.value(t.Elem, p, str64); err != nil {
			return -1, inKey(err, string(e.out[k:len(e.out)-1]))
		}
	}
	e.set(append(e.out, '}'))
	return p, nil
}

func (e *encoder) entryMap(t *dynamic.Type, p, n int, str64 bool) (int, error) {
	e.set(append(e.out, '['))
	var err error
	for i := range n {
		if i > 0 {
			e.set(append(e.out, ','))
		}
		e.set(append(e.out, `{"key":`...))
		if p, err = e.value(t.Key, p, str64); err != nil {
			return -1, inIndex(err, i)
		}
		e.set(append(e.out, `,"value":`...))
		if p, err = e.value(t.Elem, p, str64); err != nil {
			return -1, inIndex(err, i)
		}
		e.set(append(e.out, '}'))
	}
	e.set(append(e.out, ']'))
	return p, nil
}

// key writes a scalar map key as a JSON string.
func (e *encoder) key(t *dynamic.Type, off int) (int, error) {
	switch t.Kind {
	case idl.StringKind, idl.BinaryKind, idl.UUIDKind:
		return e.value(t, off, false)
	case idl.EnumKind:
		v, next, err := e.p.ConsumeI32(e.in, off)
		e.set(e.appendEnum(e.out, t, v, true))
		return next, wireErr(err)
	case idl.DoubleKind:
		v, next, err := e.p.ConsumeDouble(e.in, off)
		e.set(appendKeyFloat(e.out, v))
		return next, wireErr(err)
	case idl.BoolKind:
		v, next, err := e.p.ConsumeBool(e.in, off)
		e.set(append(appendBool(append(e.out, '"'), v), '"'))
		return next, wireErr(err)
	}
	v, next, err := e.intKey(t.Wire, off)
	e.set(append(jsonx.AppendInt(append(e.out, '"'), v), '"'))
	return next, wireErr(err)
}

func (e *encoder) intKey(w wire.Type, off int) (int64, int, error) {
	switch w {
	case wire.Byte:
		v, next, err := e.p.ConsumeByte(e.in, off)
		return int64(v), next, err
	case wire.I16:
		v, next, err := e.p.ConsumeI16(e.in, off)
		return int64(v), next, err
	case wire.I32:
		v, next, err := e.p.ConsumeI32(e.in, off)
		return int64(v), next, err
	}
	return e.p.ConsumeI64(e.in, off)
}
