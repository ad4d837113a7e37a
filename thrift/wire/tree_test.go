package wire_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/thrift/wire"
)

// A tree is a Thrift value read without a schema, the shape both this
// package and the Apache library can produce: the differential tests read
// the same bytes into trees both ways and compare them.
//
// Scalars are bool, int8, int16, int32, int64, float bits (uint64, so -0
// and NaN compare), string (string and binary values) and [16]byte.
type (
	structNode []fieldNode
	fieldNode  struct {
		ID    int16
		Type  wire.Type
		Value any
	}
	listNode struct {
		Elem  wire.Type
		Items []any
	}
	mapNode struct {
		Key, Val wire.Type
		Entries  [][2]any
	}
)

// readTree reads the value of type t at off with this package.
func readTree(p wire.Protocol, b []byte, off int, t wire.Type) (any, int, error) {
	switch t {
	case wire.Bool:
		return p.ConsumeBool(b, off)
	case wire.Byte:
		return p.ConsumeByte(b, off)
	case wire.I16:
		return p.ConsumeI16(b, off)
	case wire.I32:
		return p.ConsumeI32(b, off)
	case wire.I64:
		return p.ConsumeI64(b, off)
	case wire.Double:
		v, next, err := p.ConsumeDouble(b, off)
		return math.Float64bits(v), next, err
	case wire.String:
		v, next, err := p.ConsumeBinary(b, off)
		return string(v), next, err
	case wire.UUID:
		return p.ConsumeUUID(b, off)
	case wire.Struct:
		return readStruct(p, b, off)
	case wire.List, wire.Set:
		return readList(p, b, off)
	case wire.Map:
		return readMap(p, b, off)
	}
	return nil, -1, fmt.Errorf("no type %v", t)
}

func readStruct(p wire.Protocol, b []byte, off int) (any, int, error) {
	s := structNode{}
	it := wire.NewIter(p, b, off)
	for it.Next() {
		f := it.Field()
		fn := fieldNode{ID: f.ID, Type: f.Type, Value: f.Bool}
		if f.Type != wire.Bool || p == wire.Binary {
			v, end, err := readTree(p, b, f.Value, f.Type)
			if err != nil {
				return nil, -1, err
			}
			if end != f.End {
				return nil, -1, fmt.Errorf("field %d: value ends at %d, iterator says %d", f.ID, end, f.End)
			}
			if f.Type == wire.Bool && v != f.Bool {
				return nil, -1, fmt.Errorf("field %d: header's bool %v, value %v", f.ID, f.Bool, v)
			}
			fn.Value = v
		}
		s = append(s, fn)
	}
	return s, it.Offset(), it.Err()
}

func readList(p wire.Protocol, b []byte, off int) (any, int, error) {
	et, n, next, err := p.ConsumeListHeader(b, off)
	if err != nil {
		return nil, -1, err
	}
	l := listNode{Elem: et, Items: []any{}}
	for range n {
		var v any
		if v, next, err = readTree(p, b, next, et); err != nil {
			return nil, -1, err
		}
		l.Items = append(l.Items, v)
	}
	return l, next, nil
}

func readMap(p wire.Protocol, b []byte, off int) (any, int, error) {
	kt, vt, n, next, err := p.ConsumeMapHeader(b, off)
	if err != nil {
		return nil, -1, err
	}
	m := mapNode{Key: kt, Val: vt, Entries: [][2]any{}}
	for range n {
		var k, v any
		if k, next, err = readTree(p, b, next, kt); err != nil {
			return nil, -1, err
		}
		if v, next, err = readTree(p, b, next, vt); err != nil {
			return nil, -1, err
		}
		m.Entries = append(m.Entries, [2]any{k, v})
	}
	return m, next, nil
}

// appendTree appends v, of type t, with this package.
func appendTree(p wire.Protocol, dst []byte, t wire.Type, v any) []byte {
	switch t {
	case wire.Bool:
		return p.AppendBool(dst, v.(bool))
	case wire.Byte:
		return p.AppendByte(dst, v.(int8))
	case wire.I16:
		return p.AppendI16(dst, v.(int16))
	case wire.I32:
		return p.AppendI32(dst, v.(int32))
	case wire.I64:
		return p.AppendI64(dst, v.(int64))
	case wire.Double:
		return p.AppendDouble(dst, math.Float64frombits(v.(uint64)))
	case wire.String:
		return p.AppendString(dst, v.(string))
	case wire.UUID:
		return p.AppendUUID(dst, v.([16]byte))
	case wire.Struct:
		return appendStruct(p, dst, v.(structNode))
	case wire.List:
		l := v.(listNode)
		return appendItems(p, p.AppendListHeader(dst, l.Elem, len(l.Items)), l)
	case wire.Set:
		l := v.(listNode)
		return appendItems(p, p.AppendSetHeader(dst, l.Elem, len(l.Items)), l)
	case wire.Map:
		m := v.(mapNode)
		dst = p.AppendMapHeader(dst, m.Key, m.Val, len(m.Entries))
		for _, e := range m.Entries {
			dst = appendTree(p, appendTree(p, dst, m.Key, e[0]), m.Val, e[1])
		}
		return dst
	}
	panic(fmt.Sprintf("no type %v", t))
}

func appendStruct(p wire.Protocol, dst []byte, s structNode) []byte {
	last := int16(0)
	for _, f := range s {
		if f.Type == wire.Bool {
			dst = p.AppendBoolField(dst, f.ID, last, f.Value.(bool))
		} else {
			dst = appendTree(p, p.AppendFieldHeader(dst, f.Type, f.ID, last), f.Type, f.Value)
		}
		last = f.ID
	}
	return p.AppendStop(dst)
}

func appendItems(p wire.Protocol, dst []byte, l listNode) []byte {
	for _, v := range l.Items {
		dst = appendTree(p, dst, l.Elem, v)
	}
	return dst
}

// apacheRead reads the value of type t with the Apache library.
func apacheRead(prot thrift.TProtocol, t wire.Type) (any, error) {
	switch t {
	case wire.Bool:
		return prot.ReadBool(ctx)
	case wire.Byte:
		return prot.ReadByte(ctx)
	case wire.I16:
		return prot.ReadI16(ctx)
	case wire.I32:
		return prot.ReadI32(ctx)
	case wire.I64:
		return prot.ReadI64(ctx)
	case wire.Double:
		v, err := prot.ReadDouble(ctx)
		return math.Float64bits(v), err
	case wire.String:
		v, err := prot.ReadBinary(ctx)
		return string(v), err
	case wire.UUID:
		v, err := prot.ReadUUID(ctx)
		return [16]byte(v), err
	case wire.Struct:
		return apacheStruct(prot)
	case wire.List:
		et, n, err := prot.ReadListBegin(ctx)
		return apacheItems(prot, wire.Type(et), n, err)
	case wire.Set:
		et, n, err := prot.ReadSetBegin(ctx)
		return apacheItems(prot, wire.Type(et), n, err)
	case wire.Map:
		return apacheMap(prot)
	}
	return nil, fmt.Errorf("no type %v", t)
}

func apacheStruct(prot thrift.TProtocol) (any, error) {
	if _, err := prot.ReadStructBegin(ctx); err != nil {
		return nil, err
	}
	s := structNode{}
	for {
		_, t, id, err := prot.ReadFieldBegin(ctx)
		if err != nil {
			return nil, err
		}
		if t == thrift.STOP {
			return s, prot.ReadStructEnd(ctx)
		}
		v, err := apacheRead(prot, wire.Type(t))
		if err != nil {
			return nil, err
		}
		s = append(s, fieldNode{ID: id, Type: wire.Type(t), Value: v})
		if err := prot.ReadFieldEnd(ctx); err != nil {
			return nil, err
		}
	}
}

func apacheItems(prot thrift.TProtocol, et wire.Type, n int, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	l := listNode{Elem: et, Items: []any{}}
	for range n {
		v, err := apacheRead(prot, et)
		if err != nil {
			return nil, err
		}
		l.Items = append(l.Items, v)
	}
	return l, nil
}

func apacheMap(prot thrift.TProtocol) (any, error) {
	kt, vt, n, err := prot.ReadMapBegin(ctx)
	if err != nil {
		return nil, err
	}
	m := mapNode{Key: wire.Type(kt), Val: wire.Type(vt), Entries: [][2]any{}}
	for range n {
		k, err := apacheRead(prot, m.Key)
		if err != nil {
			return nil, err
		}
		v, err := apacheRead(prot, m.Val)
		if err != nil {
			return nil, err
		}
		m.Entries = append(m.Entries, [2]any{k, v})
	}
	return m, nil
}

// apacheWrite writes v, of type t, with the Apache library.
func apacheWrite(prot thrift.TProtocol, t wire.Type, v any) error {
	switch t {
	case wire.Bool:
		return prot.WriteBool(ctx, v.(bool))
	case wire.Byte:
		return prot.WriteByte(ctx, v.(int8))
	case wire.I16:
		return prot.WriteI16(ctx, v.(int16))
	case wire.I32:
		return prot.WriteI32(ctx, v.(int32))
	case wire.I64:
		return prot.WriteI64(ctx, v.(int64))
	case wire.Double:
		return prot.WriteDouble(ctx, math.Float64frombits(v.(uint64)))
	case wire.String:
		return prot.WriteString(ctx, v.(string))
	case wire.UUID:
		return prot.WriteUUID(ctx, thrift.Tuuid(v.([16]byte)))
	case wire.Struct:
		return apacheWriteStruct(prot, v.(structNode))
	case wire.List, wire.Set:
		l := v.(listNode)
		if err := prot.WriteListBegin(ctx, thrift.TType(l.Elem), len(l.Items)); err != nil {
			return err
		}
		for _, it := range l.Items {
			if err := apacheWrite(prot, l.Elem, it); err != nil {
				return err
			}
		}
		return prot.WriteListEnd(ctx)
	case wire.Map:
		return apacheWriteMap(prot, v.(mapNode))
	}
	return fmt.Errorf("no type %v", t)
}

func apacheWriteStruct(prot thrift.TProtocol, s structNode) error {
	if err := prot.WriteStructBegin(ctx, "s"); err != nil {
		return err
	}
	for _, f := range s {
		if err := prot.WriteFieldBegin(ctx, "f", thrift.TType(f.Type), f.ID); err != nil {
			return err
		}
		if err := apacheWrite(prot, f.Type, f.Value); err != nil {
			return err
		}
		if err := prot.WriteFieldEnd(ctx); err != nil {
			return err
		}
	}
	if err := prot.WriteFieldStop(ctx); err != nil {
		return err
	}
	return prot.WriteStructEnd(ctx)
}

func apacheWriteMap(prot thrift.TProtocol, m mapNode) error {
	if err := prot.WriteMapBegin(ctx, thrift.TType(m.Key), thrift.TType(m.Val), len(m.Entries)); err != nil {
		return err
	}
	for _, e := range m.Entries {
		if err := apacheWrite(prot, m.Key, e[0]); err != nil {
			return err
		}
		if err := apacheWrite(prot, m.Val, e[1]); err != nil {
			return err
		}
	}
	return prot.WriteMapEnd(ctx)
}

// randomTree draws a value of type t; depth bounds the nesting.
type treeGen struct{ r *rand.Rand }

var valueTypes = []wire.Type{wire.Bool, wire.Byte, wire.Double, wire.I16, wire.I32, wire.I64, wire.String, wire.UUID, wire.Struct, wire.List, wire.Set, wire.Map}

func (g treeGen) typ(depth int) wire.Type {
	if depth <= 0 {
		return valueTypes[g.r.IntN(8)] // scalars only
	}
	return valueTypes[g.r.IntN(len(valueTypes))]
}

var edges = []int64{0, 1, -1, 63, 64, -64, -65, math.MaxInt8, math.MinInt8, math.MaxInt16, math.MinInt16, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}

func (g treeGen) int() int64 {
	if g.r.IntN(2) == 0 {
		return edges[g.r.IntN(len(edges))]
	}
	return g.r.Int64() >> g.r.IntN(64)
}

func (g treeGen) value(t wire.Type, depth int) any {
	switch t {
	case wire.Bool:
		return g.r.IntN(2) == 0
	case wire.Byte:
		return int8(g.int())
	case wire.I16:
		return int16(g.int())
	case wire.I32:
		return int32(g.int())
	case wire.I64:
		return g.int()
	case wire.Double:
		return g.r.Uint64()
	case wire.String:
		return string(make([]byte, g.r.IntN(3)*g.r.IntN(20))) + "é"[:g.r.IntN(3)]
	case wire.UUID:
		var u [16]byte
		for i := range u {
			u[i] = byte(g.r.Uint32())
		}
		return u
	case wire.Struct:
		return g.structValue(depth - 1)
	case wire.List, wire.Set:
		et := g.typ(depth - 1)
		l := listNode{Elem: et, Items: []any{}}
		for range g.r.IntN(4) * g.r.IntN(6) {
			l.Items = append(l.Items, g.value(et, depth-1))
		}
		return l
	}
	m := mapNode{Key: g.typ(depth - 1), Val: g.typ(depth - 1), Entries: [][2]any{}}
	for range g.r.IntN(4) * g.r.IntN(5) {
		m.Entries = append(m.Entries, [2]any{g.value(m.Key, depth-1), g.value(m.Val, depth-1)})
	}
	return m
}

// structValue draws fields whose ids climb by small steps (compact's
// delta form), jump (its long form) or go negative.
func (g treeGen) structValue(depth int) structNode {
	s := structNode{}
	id := int16(0)
	for range g.r.IntN(8) {
		switch g.r.IntN(4) {
		case 0:
			id = int16(g.int())
		case 1:
			id += int16(g.r.IntN(40))
		default:
			id += int16(1 + g.r.IntN(15))
		}
		t := g.typ(depth)
		s = append(s, fieldNode{ID: id, Type: t, Value: g.value(t, depth)})
	}
	return s
}
