package dynamic

import (
	"github.com/rpckit/rpckit/internal/pool"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Doc is a message loaded into a tree of nodes, one per record, that point
// into the original bytes; sub-messages of known fields have their records
// as children. Edits replace, add or drop nodes; serializing copies every
// untouched subtree as one span and re-encodes only the messages on the way
// to an edit. Reuse a Doc (or take one from a DocPool) and a steady state of
// Load and AppendTo allocates nothing. A Doc is not safe for concurrent use.
type Doc struct {
	t        *Type
	src      []byte
	arena    []byte // bytes of records added by edits
	nodes    []node
	maxDepth int
	scratch  [2][]int32 // live records of the levels of an edit, alternating
}

// node is one record; offsets are into src, or into arena for new nodes.
type node struct {
	f                          *Field // nil for unknown records
	num                        protowire.Number
	wt                         protowire.Type
	start, tagEnd, val, valEnd int32
	end                        int32
	parent, first, last, next  int32 // -1 for none
	dirty                      bool  // a descendant changed: re-encode
	deleted                    bool
	arena                      bool
}

// DocOptions configures loading. The zero value is the default.
type DocOptions struct {
	// MaxDepth limits message nesting; 0 means DefaultMaxDepth.
	MaxDepth int
}

// NewDoc returns an empty Doc.
func NewDoc() *Doc { return &Doc{} }

// DocPool is a pool of Docs: Get returns one from the pool or a new one,
// Put resets it and gives it back. The zero DocPool is ready to use.
type DocPool = pool.Of[Doc, *Doc]

// Reset empties d, keeping its memory.
func (d *Doc) Reset() {
	d.t, d.src, d.arena, d.nodes = nil, nil, d.arena[:0], d.nodes[:0]
}

// Load loads the message of Type t in b; see DocOptions.Load.
func (d *Doc) Load(t *Type, b []byte) error { return DocOptions{}.Load(d, t, b) }

// Load loads the message of Type t in b into d, replacing its content.
// The Doc refers to b, which must not change while d is in use.
func (o DocOptions) Load(d *Doc, t *Type, b []byte) error {
	d.Reset()
	d.t, d.src, d.maxDepth = t, b, o.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.nodes = append(d.nodes, node{end: int32(len(b)), valEnd: int32(len(b)), parent: -1, first: -1, last: -1, next: -1})
	if err := d.build(0, t, 0, len(b), d.maxDepth, false); err != nil {
		d.Reset()
		return err
	}
	return nil
}

// build adds the records of src[start:end] (arena[start:end] with arena
// set), a message of t, as children of node parent. Records with one-byte
// tags take the Type's tag table and are parsed inline; the node slice is
// kept in a local between sub-messages, which append to d.nodes.
func (d *Doc) build(parent int32, t *Type, start, end, depth int, arena bool) error {
	buf := d.src
	if arena {
		buf = d.arena
	}
	buf = buf[:end]
	nodes := d.nodes
	prev := nodes[parent].last
	for off := start; off < end; {
		i := int32(len(nodes))
		nodes = append(nodes, node{parent: parent, first: -1, last: -1, next: -1, arena: arena})
		n := &nodes[i]
		if !quickNode(n, t, buf, off) {
			r, err := wire.ParseFieldDepth(buf, off, depth)
			if err != nil {
				d.nodes = nodes[:i]
				return wrapWire(err, 0, nil, 0)
			}
			f := t.FieldByNumber(r.Num)
			if f != nil && !f.accepts(r.Type) {
				f = nil
			}
			*n = nodeOf(r, f, arena)
			n.parent, n.first, n.last, n.next = parent, -1, -1, -1
		}
		off = int(n.end)
		if prev < 0 {
			nodes[parent].first = i
		} else {
			nodes[prev].next = i
		}
		nodes[parent].last, prev = i, i
		f := n.f
		if f == nil || f.Message == nil {
			continue
		}
		if depth <= 1 {
			d.nodes = nodes
			return &Error{Offset: int(n.start), Code: wire.CodeDepth}
		}
		d.nodes = nodes
		if err := d.build(i, f.Message, int(n.val), int(n.valEnd), depth-1, arena); err != nil {
			return err
		}
		nodes = d.nodes
	}
	d.nodes = nodes
	return nil
}

// quickNode fills n from the record at off when its tag is one byte and
// its value quick to skip, and reports whether it did.
func quickNode(n *node, t *Type, b []byte, off int) bool {
	c := b[off]
	if c >= 0x80 || c < 8 {
		return false
	}
	p, end, val := off+1, -1, off+1
	switch protowire.Type(c & 7) {
	case protowire.VarintType:
		end = wire.VarintEnd(b, p)
	case protowire.BytesType:
		val, end = wire.LenSpan(b, p)
	case protowire.Fixed64Type:
		if len(b)-p >= 8 {
			end = p + 8
		}
	case protowire.Fixed32Type:
		if len(b)-p >= 4 {
			end = p + 4
		}
	}
	if end < 0 {
		return false
	}
	n.f, n.num, n.wt = t.tags[c].f, protowire.Number(c>>3), protowire.Type(c&7)
	n.start, n.tagEnd, n.val, n.valEnd, n.end = int32(off), int32(p), int32(val), int32(end), int32(end)
	return true
}

// nodeOf returns the node of record r.
func nodeOf(r wire.Field, f *Field, arena bool) node {
	return node{f: f, num: r.Num, wt: r.Type, start: int32(r.Start), tagEnd: int32(r.TagEnd),
		val: int32(r.Value), valEnd: int32(r.ValueEnd), end: int32(r.End), arena: arena}
}

// record returns node n as a wire.Field.
func (n *node) record() wire.Field {
	return wire.Field{Num: n.num, Type: n.wt, Start: int(n.start), TagEnd: int(n.tagEnd), Value: int(n.val), ValueEnd: int(n.valEnd), End: int(n.end)}
}

// link appends n as the last child of parent and returns its index.
func (d *Doc) link(parent int32, n node) int32 {
	i := int32(len(d.nodes))
	n.parent, n.first, n.last, n.next = parent, -1, -1, -1
	d.nodes = append(d.nodes, n)
	p := &d.nodes[parent]
	if p.last < 0 {
		p.first = i
	} else {
		d.nodes[p.last].next = i
	}
	p.last = i
	return i
}

// AppendTo appends d's message to dst.
func (d *Doc) AppendTo(dst []byte) []byte {
	if len(d.nodes) == 0 {
		return dst
	}
	if !d.nodes[0].dirty {
		return append(dst, d.src...)
	}
	return d.appendChildren(dst, 0)
}

// Marshal returns d's message in a new slice.
func (d *Doc) Marshal() []byte { return d.AppendTo(make([]byte, 0, len(d.src)+len(d.arena))) }

func (d *Doc) appendChildren(dst []byte, i int32) []byte {
	for c := d.nodes[i].first; c >= 0; c = d.nodes[c].next {
		dst = d.appendNode(dst, c)
	}
	return dst
}

func (d *Doc) appendNode(dst []byte, i int32) []byte {
	n := &d.nodes[i]
	buf := d.bytesOf(n)
	switch {
	case n.deleted:
		return dst
	case !n.dirty:
		return append(dst, buf[n.start:n.end]...)
	case n.wt == protowire.StartGroupType:
		dst = protowire.AppendTag(dst, n.num, protowire.StartGroupType)
		dst = d.appendChildren(dst, i)
		return protowire.AppendTag(dst, n.num, protowire.EndGroupType)
	}
	dst = append(dst, buf[n.start:n.tagEnd]...)
	reserved := int(n.val - n.tagEnd)
	lenAt := len(dst)
	var pad [10]byte
	dst = append(dst, pad[:reserved]...)
	dst = d.appendChildren(dst, i)
	return endLen(dst, lenAt, reserved)
}

func (d *Doc) bytesOf(n *node) []byte {
	if n.arena {
		return d.arena
	}
	return d.src
}

// Type returns the Type of d's message.
func (d *Doc) Type() *Type { return d.t }

// Root returns the node of the whole message.
func (d *Doc) Root() Node { return Node{d: d, i: 0} }

// Node is one node of a Doc: a record, or the root message.
type Node struct {
	d *Doc
	i int32
}

// Valid reports whether n is a node (not past the last child).
func (n Node) Valid() bool { return n.d != nil && n.i >= 0 }

// Field returns the node's field, nil for the root and unknown records.
func (n Node) Field() *Field { return n.d.nodes[n.i].f }

// Num returns the record's field number.
func (n Node) Num() protowire.Number { return n.d.nodes[n.i].num }

// FirstChild returns the first live record of a message node.
func (n Node) FirstChild() Node { return n.d.live(n.d.nodes[n.i].first) }

// Next returns the next live sibling.
func (n Node) Next() Node { return n.d.live(n.d.nodes[n.i].next) }

func (d *Doc) live(i int32) Node {
	for i >= 0 && d.nodes[i].deleted {
		i = d.nodes[i].next
	}
	return Node{d: d, i: i}
}

// Raw returns the record's bytes as loaded or added; nodes whose
// descendants changed have no up-to-date bytes until serialized.
func (n Node) Raw() []byte {
	nd := &n.d.nodes[n.i]
	return n.d.bytesOf(nd)[nd.start:nd.end]
}

// Value returns the record's value as a Value (for message nodes) over
// the bytes as loaded.
func (n Node) Value() Value {
	nd := &n.d.nodes[n.i]
	var t *Type
	if nd.f != nil {
		t = nd.f.Message
	} else if n.i == 0 {
		t = n.d.t
	}
	return Value{t: t, b: n.d.bytesOf(nd)[nd.val:nd.valEnd]}
}
