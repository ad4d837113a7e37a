package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// FieldMask is a set of field paths compiled against a struct Type, for
// Mask. A path names fields by name or id, joined by dots; through a list,
// set or map (of structs, or of containers of them) it applies to every
// element or value. A path selects all of its field, so "a" covers "a.b".
type FieldMask struct {
	t    *Type
	root *maskNode
}

// maskNode is the fields a mask selects under one struct type: nil
// children mean the whole field.
type maskNode struct {
	ids   []int16
	nodes []*maskNode
}

func (n *maskNode) get(id int16) (*maskNode, bool) {
	for i, x := range n.ids {
		if x == id {
			return n.nodes[i], true
		}
	}
	return nil, false
}

// NewFieldMask compiles paths (in ParsePath's syntax, fields only)
// against the struct Type t.
func NewFieldMask(t *Type, paths ...string) (*FieldMask, error) {
	if !t.IsStruct() {
		return nil, &PathError{Msg: "a field mask needs a struct type, not " + t.Name()}
	}
	fm := &FieldMask{t: t, root: &maskNode{}}
	for _, s := range paths {
		p, err := ParsePath(s)
		if err != nil {
			return nil, err
		}
		if err := fm.add(p); err != nil {
			return nil, err
		}
	}
	return fm, nil
}

func (fm *FieldMask) add(p Path) error {
	n, t := fm.root, fm.t
	for i := range p {
		if p[i].Kind != StepField {
			return pathError(p, i+1, "a field mask names fields; through a list or map it applies to every element")
		}
		if t = structUnder(t); t == nil {
			return pathError(p, i, "no struct to select fields from")
		}
		f := t.lookup(&p[i])
		if f == nil {
			return pathError(p, i+1, noField(t, p[i]))
		}
		child, ok := n.get(f.ID)
		if ok && child == nil {
			return nil // a shorter path selects it all
		}
		if !ok {
			n.ids = append(n.ids, f.ID)
			n.nodes = append(n.nodes, nil)
		}
		if i == len(p)-1 {
			n.setWhole(f.ID)
			return nil
		}
		if child == nil {
			child = &maskNode{}
			n.set(f.ID, child)
		}
		n, t = child, f.Type
	}
	return nil
}

func (n *maskNode) set(id int16, c *maskNode) {
	for i, x := range n.ids {
		if x == id {
			n.nodes[i] = c
		}
	}
}

func (n *maskNode) setWhole(id int16) { n.set(id, nil) }

// structUnder returns t when it is a struct, else the struct its list, set
// or map values hold, looking through containers; nil when there is none.
func structUnder(t *Type) *Type {
	for t != nil && !t.IsStruct() {
		if t.Elem == nil {
			return nil
		}
		t = t.Elem
	}
	return t
}

// Mask appends to dst v's struct without the fields fm selects, at any
// depth. The output is allocated at most once.
func (v Value) Mask(dst []byte, fm *FieldMask) ([]byte, error) {
	return v.rewriteMask(dst, fm, false)
}

// KeepPaths appends to dst v's struct with only the fields fm selects, at
// any depth: the protobuf side's field-mask Keep. A path through a list,
// set or map keeps its fields in every element or value. Required fields
// not named are dropped too, as a field mask says. The output is
// allocated at most once.
func (v Value) KeepPaths(dst []byte, fm *FieldMask) ([]byte, error) {
	return v.rewriteMask(dst, fm, true)
}

func (v Value) rewriteMask(dst []byte, fm *FieldMask, only bool) ([]byte, error) {
	if fm.t != v.t {
		return dst, &PathError{Msg: "the field mask is of " + fm.t.Name() + ", the value of " + v.t.Name()}
	}
	dst = reserve(dst, len(v.b)-v.start)
	n0 := len(dst)
	k := rewriter{p: v.p, b: v.b, only: only}
	dst, _, err := k.maskStruct(dst, v.start, v.t, fm.root, 1)
	if err != nil {
		return dst[:n0], err
	}
	return dst, nil
}

func (k *rewriter) maskStruct(dst []byte, off int, t *Type, n *maskNode, depth int) ([]byte, int, error) {
	decide := func(h wire.FieldHeader) action {
		child, ok := n.get(h.ID)
		switch {
		case !ok && k.only:
			return dropField
		case !ok:
			return copyField
		case child == nil && k.only:
			return copyField
		case child == nil:
			return dropField
		}
		if f := t.FieldByID(h.ID); f != nil && f.Type.Wire == h.Type {
			return rewriteField
		}
		return copyField
	}
	rewrite := func(dst []byte, h wire.FieldHeader, off int) ([]byte, int, error) {
		child, _ := n.get(h.ID)
		return k.maskValue(dst, off, t.FieldByID(h.ID).Type, child, depth)
	}
	return k.fields(dst, off, depth, decide, rewrite)
}

// maskValue copies the value of Type t at off without the fields n
// selects in the structs it holds.
func (k *rewriter) maskValue(dst []byte, off int, t *Type, n *maskNode, depth int) ([]byte, int, error) {
	switch t.Wire {
	case wire.Struct:
		return k.maskStruct(dst, off, t, n, depth+1)
	case wire.Map:
		return k.container(dst, off, depth, t, func(dst []byte, off int) ([]byte, int, error) {
			dst, off, err := k.copyValue(dst, off, t.Key.Wire, depth+1)
			if err != nil {
				return dst, 0, err
			}
			return k.maskValue(dst, off, t.Elem, n, depth+1)
		})
	case wire.List, wire.Set:
		return k.container(dst, off, depth, t, func(dst []byte, off int) ([]byte, int, error) {
			return k.maskValue(dst, off, t.Elem, n, depth+1)
		})
	}
	return k.copyValue(dst, off, t.Wire, depth)
}
