package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// AppendTo appends d's struct to dst.
func (d *Doc) AppendTo(dst []byte) []byte {
	if d.t == nil {
		return dst
	}
	return d.emit(dst, 0)
}

// Marshal returns d's struct in a new slice.
func (d *Doc) Marshal() []byte {
	return d.AppendTo(make([]byte, 0, len(d.src)+len(d.arena)))
}

// emit appends node i: its bytes as loaded or set when nothing under it
// changed, else its children re-encoded.
func (d *Doc) emit(dst []byte, i int32) []byte {
	n := &d.nodes[i]
	if !n.dirty {
		return append(dst, d.bytes(n)[n.start:n.end]...)
	}
	switch n.wt {
	case wire.Struct:
		return d.emitStruct(dst, n)
	case wire.Map:
		dst = d.p.AppendMapHeader(dst, n.t.Key.Wire, n.t.Elem.Wire, int(n.n))
	case wire.Set:
		dst = d.p.AppendSetHeader(dst, n.t.Elem.Wire, int(n.n))
	default:
		dst = d.p.AppendListHeader(dst, n.t.Elem.Wire, int(n.n))
	}
	for c := n.first; c >= 0; c = d.nodes[c].next {
		if !d.nodes[c].dead {
			dst = d.emit(dst, c)
		}
	}
	return dst
}

func (d *Doc) emitStruct(dst []byte, n *node) []byte {
	last := int16(0)
	for c := n.first; c >= 0; c = d.nodes[c].next {
		cn := &d.nodes[c]
		if cn.dead {
			continue
		}
		if cn.wt == wire.Bool && d.p == wire.Compact && cn.start == cn.end {
			dst = d.p.AppendBoolField(dst, cn.id, last, cn.bv)
		} else {
			dst = d.emit(d.p.AppendFieldHeader(dst, cn.wt, cn.id, last), c)
		}
		last = cn.id
	}
	return d.p.AppendStop(dst)
}

// Node is one node of a Doc: a struct field, a container's element, a
// map's key or value, or the root struct.
type Node struct {
	d *Doc
	i int32
}

// Root returns the node of the whole struct.
func (d *Doc) Root() Node {
	if d.t == nil {
		return Node{d, -1}
	}
	return Node{d, 0}
}

// Valid reports whether n is a node (not past the last child).
func (n Node) Valid() bool { return n.i >= 0 }

// ID returns a struct field's id.
func (n Node) ID() int16 { return n.d.nodes[n.i].id }

// Type returns the node's Type, nil for a field its struct does not know.
func (n Node) Type() *Type { return n.d.nodes[n.i].t }

// FirstChild returns the first live child of a struct or container node:
// fields, elements, or keys and values in turn.
func (n Node) FirstChild() Node { return n.live(n.d.nodes[n.i].first) }

// Next returns the next live sibling.
func (n Node) Next() Node { return n.live(n.d.nodes[n.i].next) }

func (n Node) live(c int32) Node {
	for c >= 0 && n.d.nodes[c].dead {
		c = n.d.nodes[c].next
	}
	return Node{n.d, c}
}

// Value returns the node's value as loaded or set. A node whose
// descendants changed has no up-to-date bytes until serialized.
func (n Node) Value() Value {
	x := &n.d.nodes[n.i]
	if x.t == nil {
		return Value{p: n.d.p, b: n.d.bytes(x)}
	}
	v := Value{t: x.t, p: n.d.p, b: n.d.bytes(x), start: int(x.start), end: int(x.end), ok: true}
	if x.wt == wire.Bool && n.d.p == wire.Compact && x.start == x.end {
		v.hb, v.bv = true, x.bv
	}
	return v
}
