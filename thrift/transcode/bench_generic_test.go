package transcode_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// The generic codec the speed lines hold the transcoder to: what a tool
// without generated code does in the plain way, driven by the same IDL
// model. Thrift bytes are decoded into map[string]any, []any and scalars,
// then written by encoding/json; JSON is decoded by encoding/json into
// any (numbers as json.Number, so that i64 keeps its digits), then written
// to Thrift from the Type. The mapping is this
// package's (names, binary as base64, struct-keyed maps as entry lists).

var errGeneric = errors.New("generic: malformed input")

type genericDecoder struct {
	p wire.Protocol
	b []byte
}

func genericToJSON(p wire.Protocol, t *dynamic.Type, b []byte) ([]byte, error) {
	d := genericDecoder{p, b}
	v, _, err := d.structValue(t, 0)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func (d genericDecoder) structValue(t *dynamic.Type, off int) (map[string]any, int, error) {
	m := map[string]any{}
	var last int16
	for {
		h, next, err := d.p.ConsumeFieldHeader(d.b, off, last)
		if err != nil {
			return nil, 0, err
		}
		if h.Type == wire.Stop {
			return m, next, nil
		}
		last = h.ID
		f := t.FieldByID(h.ID)
		if f == nil || f.Type.Wire != h.Type {
			return nil, 0, errGeneric
		}
		if h.Type == wire.Bool && d.p == wire.Compact {
			m[f.Name], off = h.Bool, next
			continue
		}
		if m[f.Name], off, err = d.value(f.Type, next); err != nil {
			return nil, 0, err
		}
	}
}

func (d genericDecoder) value(t *dynamic.Type, off int) (any, int, error) {
	switch t.Kind {
	case idl.BoolKind:
		return first(d.p.ConsumeBool(d.b, off))
	case idl.I8Kind:
		return first(d.p.ConsumeByte(d.b, off))
	case idl.I16Kind:
		return first(d.p.ConsumeI16(d.b, off))
	case idl.I32Kind, idl.EnumKind:
		return first(d.p.ConsumeI32(d.b, off))
	case idl.I64Kind:
		return first(d.p.ConsumeI64(d.b, off))
	case idl.DoubleKind:
		return first(d.p.ConsumeDouble(d.b, off))
	case idl.StringKind:
		v, next, err := d.p.ConsumeBinary(d.b, off)
		return string(v), next, err
	case idl.BinaryKind:
		v, next, err := d.p.ConsumeBinary(d.b, off)
		return append([]byte(nil), v...), next, err
	case idl.ListKind, idl.SetKind:
		_, n, p, err := d.p.ConsumeListHeader(d.b, off)
		if err != nil {
			return nil, 0, err
		}
		l := make([]any, n)
		for i := range l {
			if l[i], p, err = d.value(t.Elem, p); err != nil {
				return nil, 0, err
			}
		}
		return l, p, nil
	case idl.MapKind:
		return d.mapValue(t, off)
	}
	return first(d.structValue(t, off))
}

func (d genericDecoder) mapValue(t *dynamic.Type, off int) (any, int, error) {
	_, _, n, p, err := d.p.ConsumeMapHeader(d.b, off)
	if err != nil {
		return nil, 0, err
	}
	obj, entries := map[string]any{}, []any{}
	for range n {
		var k, v any
		if k, p, err = d.value(t.Key, p); err != nil {
			return nil, 0, err
		}
		if v, p, err = d.value(t.Elem, p); err != nil {
			return nil, 0, err
		}
		if t.Key.IsStruct() || t.Key.Kind.IsContainer() {
			entries = append(entries, map[string]any{"key": k, "value": v})
		} else {
			obj[fmt.Sprint(k)] = v
		}
	}
	if t.Key.IsStruct() || t.Key.Kind.IsContainer() {
		return entries, p, nil
	}
	return obj, p, nil
}

func first[T any](v T, next int, err error) (any, int, error) { return v, next, err }

// genericFromJSON decodes JSON with encoding/json (numbers kept as text)
// and writes the value of the Type.
func genericFromJSON(p wire.Protocol, t *dynamic.Type, in []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(in))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return genericStruct(p, nil, t, v)
}

func genericStruct(p wire.Protocol, b []byte, t *dynamic.Type, m map[string]any) ([]byte, error) {
	var last int16
	var err error
	for _, f := range t.Fields { // declaration order: a map has none
		v, ok := m[f.Name]
		if !ok {
			continue
		}
		if f.Type.Kind == idl.BoolKind {
			b = p.AppendBoolField(b, f.ID, last, v == true)
		} else {
			b = p.AppendFieldHeader(b, f.Type.Wire, f.ID, last)
			if b, err = genericValue(p, b, f.Type, v); err != nil {
				return nil, err
			}
		}
		last = f.ID
	}
	return p.AppendStop(b), nil
}

func genericValue(p wire.Protocol, b []byte, t *dynamic.Type, v any) ([]byte, error) {
	switch t.Kind {
	case idl.BoolKind:
		return p.AppendBool(b, v == true), nil
	case idl.I8Kind, idl.I16Kind, idl.I32Kind, idl.EnumKind, idl.I64Kind:
		n, err := genericInt(v)
		return appendInt(p, b, t.Kind, n), err
	case idl.DoubleKind:
		n, _ := v.(json.Number)
		f, err := n.Float64()
		return p.AppendDouble(b, f), err
	case idl.StringKind:
		s, _ := v.(string)
		return p.AppendString(b, s), nil
	case idl.BinaryKind:
		s, _ := v.(string)
		raw, err := base64.StdEncoding.DecodeString(s)
		return p.AppendBinary(b, raw), err
	case idl.ListKind, idl.SetKind:
		l, _ := v.([]any)
		b = p.AppendListHeader(b, t.Elem.Wire, len(l))
		var err error
		for _, e := range l {
			if b, err = genericValue(p, b, t.Elem, e); err != nil {
				return nil, err
			}
		}
		return b, nil
	case idl.MapKind:
		return genericMap(p, b, t, v)
	}
	m, _ := v.(map[string]any)
	return genericStruct(p, b, t, m)
}

func genericMap(p wire.Protocol, b []byte, t *dynamic.Type, v any) ([]byte, error) {
	var err error
	if l, ok := v.([]any); ok {
		b = p.AppendMapHeader(b, t.Key.Wire, t.Elem.Wire, len(l))
		for _, e := range l {
			kv, _ := e.(map[string]any)
			if b, err = genericValue(p, b, t.Key, kv["key"]); err != nil {
				return nil, err
			}
			if b, err = genericValue(p, b, t.Elem, kv["value"]); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	m, _ := v.(map[string]any)
	b = p.AppendMapHeader(b, t.Key.Wire, t.Elem.Wire, len(m))
	for k, e := range m {
		var key any = k
		if t.Key.Kind != idl.StringKind {
			key = json.Number(k)
		}
		if b, err = genericValue(p, b, t.Key, key); err != nil {
			return nil, err
		}
		if b, err = genericValue(p, b, t.Elem, e); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func genericInt(v any) (int64, error) {
	switch n := v.(type) {
	case json.Number:
		return strconv.ParseInt(string(n), 10, 64)
	case string: // api.js_conv
		return strconv.ParseInt(n, 10, 64)
	}
	return 0, errGeneric
}

func appendInt(p wire.Protocol, b []byte, k idl.Kind, n int64) []byte {
	switch k {
	case idl.I8Kind:
		return p.AppendByte(b, int8(n))
	case idl.I16Kind:
		return p.AppendI16(b, int16(n))
	case idl.I32Kind, idl.EnumKind:
		return p.AppendI32(b, int32(n))
	}
	return p.AppendI64(b, n)
}
