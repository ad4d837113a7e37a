package dynamic

import (
	"github.com/rpckit/rpckit/internal/pool"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Doc is a struct loaded into a tree of nodes, one per value (struct
// fields, list and set elements, map keys and values, at every depth),
// that point into the original bytes. Edits replace, add or drop nodes;
// serializing copies every untouched subtree as one span and re-encodes
// only the structs and containers on the way to an edit. Reuse a Doc (or
// take one from a DocPool) and a steady state of Load, edits and AppendTo
// allocates nothing. A Doc is not safe for concurrent use.
type Doc struct {
	t        *Type
	p        wire.Protocol
	src      []byte
	arena    []byte // values set by edits
	nodes    []node
	walk     []int32 // the nodes an edit's path passes, to mark dirty
	maxDepth int
	// in is what load reads: src, or arena for a struct or container set
	// whole (inArena), whose nodes then refer to the arena.
	in      []byte
	inArena bool
}

// node is one value. Its span is in src, or in arena for set values.
type node struct {
	t                  *Type // nil for a field the Type does not know
	wt                 wire.Type
	id                 int16 // struct fields: the field id
	bv                 bool  // a compact bool field's value
	start, end         int32
	first, last, next  int32 // -1 for none
	n                  int32 // containers: live elements (map entries)
	dirty, dead, arena bool
}

// DocOptions configures loading. The zero value is the default.
type DocOptions struct {
	// MaxDepth limits the nesting of structs and containers; 0 means
	// DefaultMaxDepth.
	MaxDepth int
}

// NewDoc returns an empty Doc.
func NewDoc() *Doc { return &Doc{} }

// DocPool is a pool of Docs: Get returns one from the pool or a new one,
// Put resets it and gives it back. The zero DocPool is ready to use.
type DocPool = pool.Of[Doc, *Doc]

// Reset empties d, keeping its memory.
func (d *Doc) Reset() {
	d.t, d.src, d.in, d.arena, d.nodes = nil, nil, nil, d.arena[:0], d.nodes[:0]
}

// Type returns the Type of d's struct.
func (d *Doc) Type() *Type { return d.t }

// Load loads the struct of Type t in b, in protocol p; see DocOptions.Load.
func (d *Doc) Load(t *Type, p wire.Protocol, b []byte) error {
	return DocOptions{}.Load(d, t, p, b)
}

// Load loads the struct of Type t encoded in b in protocol p into d,
// replacing its content. b must hold that struct and nothing after it; the
// Doc refers to b, which must not change while d is in use. Values must be
// of the wire types the Type gives them, as Validate checks (fields of
// other types are kept as unknown).
func (o DocOptions) Load(d *Doc, t *Type, p wire.Protocol, b []byte) error {
	d.Reset()
	d.t, d.p, d.src, d.maxDepth = t, p, b, o.MaxDepth
	d.in, d.inArena = b, false
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	if !t.IsStruct() {
		return &PathError{Msg: "a Doc holds a struct, not " + t.Name()}
	}
	_, end, err := d.load(0, t, t.Wire, 0)
	if err == nil && end != len(b) {
		err = misfit(end, "", itoa(len(b)-end)+" bytes after the struct")
	}
	if err != nil {
		d.Reset()
	}
	return err
}

// add appends a node and returns its index.
func (d *Doc) add(t *Type, wt wire.Type, start int) int32 {
	d.nodes = append(d.nodes, node{t: t, wt: wt, start: int32(start), first: -1, last: -1, next: -1, arena: d.inArena})
	return int32(len(d.nodes) - 1)
}

// child links node c as the last child of node i.
func (d *Doc) child(i, c int32) {
	n := &d.nodes[i]
	if n.last < 0 {
		n.first = c
	} else {
		d.nodes[n.last].next = c
	}
	n.last = c
}

// load loads the value of Type t (nil: unknown) and wire type wt at off.
func (d *Doc) load(off int, t *Type, wt wire.Type, depth int) (int32, int, error) {
	i := d.add(t, wt, off)
	var end int
	var err error
	switch {
	case t == nil || t.Wire != wt:
		d.nodes[i].t = nil
		end, err = d.p.SkipDepth(d.in, off, wt, d.maxDepth-depth)
		if err != nil {
			err = wrapWire(err, nil, 0)
		}
	case wt == wire.Struct:
		end, err = d.loadStruct(i, off, t, depth+1)
	case wt == wire.List || wt == wire.Set || wt == wire.Map:
		end, err = d.loadContainer(i, off, t, depth+1)
	default:
		end, err = d.p.Skip(d.in, off, wt)
		if err != nil {
			err = wrapWire(err, nil, 0)
		}
	}
	d.nodes[i].end = int32(end)
	return i, end, err
}

func (d *Doc) loadStruct(i int32, off int, t *Type, depth int) (int, error) {
	if depth > d.maxDepth {
		return 0, &Error{Offset: off, Code: wire.CodeDepth}
	}
	last := int16(0)
	for {
		h, voff, err := d.p.ConsumeFieldHeader(d.in, off, last)
		if err != nil {
			return 0, wrapWire(err, nil, 0)
		}
		if h.Type == wire.Stop {
			return voff, nil
		}
		last = h.ID
		var ft *Type
		if f := t.FieldByID(h.ID); f != nil {
			ft = f.Type
		}
		var c int32
		if h.Type == wire.Bool && d.p == wire.Compact {
			c, off = d.add(ft, wire.Bool, voff), voff
			d.nodes[c].end, d.nodes[c].bv = int32(voff), h.Bool
		} else if c, off, err = d.load(voff, ft, h.Type, depth); err != nil {
			return 0, err
		}
		d.nodes[c].id = h.ID
		d.child(i, c)
	}
}

func (d *Doc) loadContainer(i int32, off int, t *Type, depth int) (int, error) {
	if depth > d.maxDepth {
		return 0, &Error{Offset: off, Code: wire.CodeDepth}
	}
	var n int
	var kt, et wire.Type
	var err error
	if t.Wire == wire.Map {
		kt, et, n, off, err = d.p.ConsumeMapHeader(d.in, off)
		if err == nil && n > 0 && (kt != t.Key.Wire || et != t.Elem.Wire) {
			return 0, misfit(off, "", "entries of wire types "+kt.String()+", "+et.String()+", want "+t.Key.Wire.String()+", "+t.Elem.Wire.String())
		}
	} else {
		et, n, off, err = d.p.ConsumeListHeader(d.in, off)
		if err == nil && n > 0 && et != t.Elem.Wire {
			return 0, misfit(off, "", "elements of wire type "+et.String()+", want "+t.Elem.Wire.String())
		}
	}
	if err != nil {
		return 0, wrapWire(err, nil, 0)
	}
	d.nodes[i].n = int32(n)
	for ; n > 0; n-- {
		var c int32
		if t.Wire == wire.Map {
			if c, off, err = d.load(off, t.Key, t.Key.Wire, depth); err != nil {
				return 0, err
			}
			d.child(i, c)
		}
		if c, off, err = d.load(off, t.Elem, t.Elem.Wire, depth); err != nil {
			return 0, err
		}
		d.child(i, c)
	}
	return off, nil
}
