package dynamic

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// FieldMask is a set of field paths compiled against a Type, for Keep and
// Mask. Paths follow google.protobuf.FieldMask: field names (proto or JSON)
// joined by dots. A path through a repeated message or a map of messages
// applies to every element or value; a `*` segment after such a field is
// accepted and means the same. A path that names a field selects all of
// it, so "a" covers "a.b".
type FieldMask struct {
	root *maskNode
}

// maskNode is the mask of one message: by field number, nil where the
// field is not selected.
type maskNode struct {
	t        *Type
	byNum    []*maskChild // dense, by field number
	sparse   map[protowire.Number]*maskChild
	children []*maskChild
}

type maskChild struct {
	f    *Field
	leaf bool      // the whole field
	sub  *maskNode // the selected fields of its messages
	slot int       // index in the parent's children
}

// NewFieldMask compiles paths against t.
func NewFieldMask(t *Type, paths ...string) (*FieldMask, error) {
	root := &maskNode{t: t}
	for _, p := range paths {
		if err := root.add(p, strings.Split(p, ".")); err != nil {
			return nil, err
		}
	}
	return &FieldMask{root: root}, nil
}

func (n *maskNode) add(path string, segs []string) error {
	f := n.t.lookup(segs[0])
	if f == nil {
		return &PathError{Path: path, Msg: noField(n.t, segs[0])}
	}
	c := n.child(f)
	rest := segs[1:]
	if len(rest) > 0 && rest[0] == "*" && (f.List || f.Map) {
		rest = rest[1:]
	}
	switch {
	case c.leaf:
		return nil
	case len(rest) == 0:
		c.leaf, c.sub = true, nil
		return nil
	}
	t := f.Message
	if f.Map {
		t = f.MapValue.Message
	}
	if t == nil {
		return &PathError{Path: path, Msg: segs[0] + " is not a message"}
	}
	if c.sub == nil {
		c.sub = &maskNode{t: t}
	}
	return c.sub.add(path, rest)
}

func (n *maskNode) child(f *Field) *maskChild {
	if c := n.get(f.Num); c != nil {
		return c
	}
	c := &maskChild{f: f, slot: len(n.children)}
	n.children = append(n.children, c)
	if f.Num < denseLimit {
		for int(f.Num) >= len(n.byNum) {
			n.byNum = append(n.byNum, nil)
		}
		n.byNum[f.Num] = c
		return c
	}
	if n.sparse == nil {
		n.sparse = map[protowire.Number]*maskChild{}
	}
	n.sparse[f.Num] = c
	return c
}

func (n *maskNode) get(num protowire.Number) *maskChild {
	if uint(num) < uint(len(n.byNum)) {
		return n.byNum[num]
	}
	return n.sparse[num]
}
