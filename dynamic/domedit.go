package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Set sets the element at p to val, with the semantics of Value.Set.
func (d *Doc) Set(p Path, val protoreflect.Value) error { return d.edit(p, val, false) }

// Delete removes the element at p, with the semantics of Value.Delete.
func (d *Doc) Delete(p Path) error { return d.edit(p, protoreflect.Value{}, true) }

// docEdit is one edit walking down a Doc: parents are the live records of
// the current message (several when it arrives split).
type docEdit struct {
	d       *Doc
	p       Path
	val     protoreflect.Value
	del     bool
	parents []int32
	level   int
}

func (d *Doc) edit(p Path, val protoreflect.Value, del bool) error {
	if len(d.nodes) == 0 || len(p) == 0 {
		return &PathError{Path: p.String(), Msg: "empty document or path"}
	}
	var one [1]int32
	e := docEdit{d: d, p: p, val: val, del: del, parents: one[:]}
	t := d.t
	for i := 0; i < len(p); i++ {
		f, err := t.resolve(p, i)
		if err != nil {
			return err
		}
		if i+1 < len(p) && p[i+1].Kind != StepField {
			if t, err = e.element(f, i+1); err != nil || t == nil {
				return err
			}
			i++
			continue
		}
		switch {
		case i == len(p)-1:
			return e.leaf(f)
		case !isSingularMessage(f):
			return pathError(p, i+2, "not a message")
		}
		if e.parents = e.descend(f); len(e.parents) == 0 {
			return nil
		}
		t = f.Message
	}
	return nil
}

// fieldNodes calls fn for each record of f and of its oneof siblings under
// the parents, in order.
func (e *docEdit) fieldNodes(f *Field, fn func(i int32, sibling bool)) {
	d := e.d
	for _, p := range e.parents {
		for c := d.nodes[p].first; c >= 0; c = d.nodes[c].next {
			n := &d.nodes[c]
			if n.deleted || n.f == nil {
				continue
			}
			if n.f == f {
				fn(c, false)
			} else if f.Oneof >= 0 && n.f.Oneof == f.Oneof {
				fn(c, true)
			}
		}
	}
}

// leaf sets or clears field f in the parents.
func (e *docEdit) leaf(f *Field) error {
	if !e.del && (f.List || f.Map) {
		return pathError(e.p, len(e.p), "set a list element or map entry, not the whole field")
	}
	live := true
	e.fieldNodes(f, func(_ int32, sib bool) { live = !sib })
	e.fieldNodes(f, func(i int32, sib bool) {
		if !sib || !e.del || live {
			e.d.remove(i)
		}
	})
	if e.del {
		return nil
	}
	_, err := e.d.addRecord(e.parents[len(e.parents)-1], func(dst []byte) ([]byte, error) { return appendRecord(dst, f, e.val) }, f)
	return err
}

// descend returns the live records of singular message f, creating one
// when setting; setting drops dead records and oneof siblings.
func (e *docEdit) descend(f *Field) []int32 {
	e.level++
	live := e.d.scratch[e.level%2][:0]
	defer func() { e.d.scratch[e.level%2] = live[:0] }()
	e.fieldNodes(f, func(i int32, sib bool) {
		if sib {
			live = live[:0]
		} else {
			live = append(live, i)
		}
	})
	if !e.del {
		e.fieldNodes(f, func(i int32, _ bool) {
			if !contains(live, i) {
				e.d.remove(i)
			}
		})
		if len(live) == 0 {
			live = append(live, e.d.addMessage(e.parents[len(e.parents)-1], f))
		}
	}
	return live
}

func contains(s []int32, x int32) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// remove marks node i deleted.
func (d *Doc) remove(i int32) {
	d.nodes[i].deleted = true
	d.touch(d.nodes[i].parent)
}

// touch marks node i and its ancestors as changed.
func (d *Doc) touch(i int32) {
	for ; i >= 0 && !d.nodes[i].dirty; i = d.nodes[i].parent {
		d.nodes[i].dirty = true
	}
}

// addRecord appends a record encoded by enc to the arena as the last child
// of parent, building its children when it is a message.
func (d *Doc) addRecord(parent int32, enc func([]byte) ([]byte, error), f *Field) (int32, error) {
	start := len(d.arena)
	var err error
	if d.arena, err = enc(d.arena); err != nil {
		d.arena = d.arena[:start]
		return -1, err
	}
	return d.adopt(parent, start, f)
}

// adopt links the arena record at start as a child of parent.
func (d *Doc) adopt(parent int32, start int, f *Field) (int32, error) {
	r, err := wire.ParseField(d.arena, start)
	if err != nil {
		return -1, err
	}
	i := d.link(parent, nodeOf(r, f, true))
	d.touch(parent)
	if f != nil && f.Message != nil {
		return i, d.build(i, f.Message, r.Value, r.ValueEnd, d.maxDepth, true)
	}
	return i, nil
}

// addMessage appends an empty record of message field f to parent, to be
// filled by later edits.
func (d *Doc) addMessage(parent int32, f *Field) int32 {
	start := len(d.arena)
	wt := protowire.BytesType
	if f.Kind == protoreflect.GroupKind {
		wt = protowire.StartGroupType
	}
	d.arena = protowire.AppendTag(d.arena, f.Num, wt)
	tagEnd := len(d.arena)
	d.arena = append(d.arena, 0)
	r := wire.Field{Num: f.Num, Type: wt, Start: start, TagEnd: tagEnd, Value: tagEnd + 1, ValueEnd: tagEnd + 1, End: tagEnd + 1}
	i := d.link(parent, nodeOf(r, f, true))
	d.touch(i)
	return i
}
