package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// Set sets the value at p to x, with the semantics of Value.Set. A struct
// or container set whole is loaded into nodes, which later edits reach.
func (d *Doc) Set(p Path, x Val) error {
	f, err := d.find(p)
	if err != nil {
		return err
	}
	if !f.parentOK {
		return pathError(p, len(p)-1, "absent: set it first")
	}
	var msg string
	switch {
	case f.at >= 0:
		msg = d.setNode(f.at, f.t, x)
	case f.kind == StepField:
		msg = d.addField(f, x)
	case f.kind == StepKey:
		msg = d.addEntry(f, p[len(p)-1].Key, x)
	default:
		msg = "index out of range: the list has " + itoa(int(d.nodes[f.parent].n)) + " elements"
	}
	if msg != "" {
		return pathError(p, len(p), msg)
	}
	d.touch()
	return nil
}

// Delete removes the value at p, with the semantics of Value.Delete.
func (d *Doc) Delete(p Path) error {
	f, err := d.find(p)
	if err != nil || f.at < 0 {
		return err
	}
	d.nodes[f.at].dead = true
	if f.key >= 0 {
		d.nodes[f.key].dead = true
	}
	if f.kind != StepField {
		d.nodes[f.parent].n--
	}
	d.touch()
	return nil
}

// found is where find landed: the node at the path (or -1), its parent,
// the key node of a map entry, and the Type at the path.
type found struct {
	kind     StepKind
	parent   int32
	at, key  int32
	t        *Type
	id       int16
	parentOK bool
}

// find walks p through the tree, recording the nodes it passes.
func (d *Doc) find(p Path) (found, error) {
	f := found{at: 0, key: -1, t: d.t, parentOK: true}
	if len(p) == 0 {
		return f, &PathError{Msg: "an edit needs a path"}
	}
	if d.t == nil {
		return f, &PathError{Msg: "the Doc is empty"}
	}
	d.walk = d.walk[:0]
	for i := range p {
		if f.at < 0 {
			f.parentOK = false
			f.parent = -1
		} else {
			f.parent = f.at
			d.walk = append(d.walk, f.at)
		}
		if err := d.step(p, i, &f); err != nil {
			return f, err
		}
	}
	return f, nil
}

// step takes step i of p from f.parent (absent when -1) in d's tree.
func (d *Doc) step(p Path, i int, f *found) error {
	st, t := &p[i], f.t
	v := Value{t: t}
	if _, err := v.step(p, i, nil); err != nil { // the path's fit, on an absent value
		return err
	}
	f.key = -1
	switch {
	case t.IsStruct():
		fd := t.lookup(st)
		f.kind, f.t, f.id, f.at = StepField, fd.Type, fd.ID, d.fieldNode(f.parent, fd)
	case t.Wire == wire.Map:
		f.kind, f.t = StepKey, t.Elem
		f.key, f.at = d.entryNode(f.parent, t.Key.Wire, st.Key)
	default:
		f.kind, f.t, f.at = StepIndex, t.Elem, d.elemNode(f.parent, st.Index)
	}
	return nil
}

func (d *Doc) fieldNode(parent int32, fd *Field) int32 {
	if parent < 0 {
		return -1
	}
	for c := d.nodes[parent].first; c >= 0; c = d.nodes[c].next {
		if n := &d.nodes[c]; !n.dead && n.id == fd.ID && n.t != nil {
			return c
		}
	}
	return -1
}

func (d *Doc) elemNode(parent int32, idx int) int32 {
	if parent < 0 {
		return -1
	}
	for c := d.nodes[parent].first; c >= 0; c = d.nodes[c].next {
		if !d.nodes[c].dead {
			if idx == 0 {
				return c
			}
			idx--
		}
	}
	return -1
}

// entryNode returns the key and value nodes of the entry with key k.
func (d *Doc) entryNode(parent int32, kt wire.Type, k Key) (int32, int32) {
	if parent < 0 {
		return -1, -1
	}
	for c := d.nodes[parent].first; c >= 0; c = d.nodes[d.nodes[c].next].next {
		n := &d.nodes[c]
		if n.dead {
			continue
		}
		v := Value{p: d.p, b: d.bytes(n)}
		if ok, _, _ := v.matchKey(int(n.start), kt, k); ok {
			return c, n.next
		}
	}
	return -1, -1
}

// bytes returns the bytes node n's span is in.
func (d *Doc) bytes(n *node) []byte {
	if n.arena {
		return d.arena
	}
	return d.src
}

// setNode replaces the value of node i with x.
func (d *Doc) setNode(i int32, t *Type, x Val) string {
	n := &d.nodes[i]
	if n.wt == wire.Bool && d.p == wire.Compact && n.start == n.end {
		if x.kind != valBool {
			return "a " + x.kindName() + " cannot be a bool"
		}
		n.bv = x.i == 1
		return ""
	}
	start := len(d.arena)
	var msg string
	if d.arena, msg = x.appendTo(d.arena, d.p, t); msg != "" {
		d.arena = d.arena[:start]
		return msg
	}
	n = &d.nodes[i]
	n.start, n.end, n.arena, n.first, n.last, n.dirty = int32(start), int32(len(d.arena)), true, -1, -1, false
	return d.loadSet(i, t)
}

// loadSet loads the nodes under node i, a struct or container just set
// whole from the arena, so that later edits reach under it.
func (d *Doc) loadSet(i int32, t *Type) string {
	var err error
	d.in, d.inArena = d.arena, true
	switch t.Wire {
	case wire.Struct:
		_, err = d.loadStruct(i, int(d.nodes[i].start), t, 1)
	case wire.List, wire.Set, wire.Map:
		_, err = d.loadContainer(i, int(d.nodes[i].start), t, 1)
	}
	d.in, d.inArena = d.src, false
	if err != nil {
		return "encoded value: " + err.Error()
	}
	return ""
}

// addField adds the absent field of f to its struct.
func (d *Doc) addField(f found, x Val) string {
	c := d.add(f.t, f.t.Wire, 0)
	d.nodes[c].id = f.id
	if f.t.Wire == wire.Bool && d.p == wire.Compact && x.kind == valBool {
		d.nodes[c].bv = x.i == 1
	} else if msg := d.setNode(c, f.t, x); msg != "" {
		d.nodes = d.nodes[:c]
		return msg
	}
	d.child(f.parent, c)
	return ""
}

// addEntry adds an entry with key k to the map of f.
func (d *Doc) addEntry(f found, k Key, x Val) string {
	mt := d.nodes[f.parent].t
	start := len(d.arena)
	d.arena = appendKey(d.arena, d.p, mt.Key.Wire, k)
	kn := d.add(mt.Key, mt.Key.Wire, start)
	d.nodes[kn].end, d.nodes[kn].arena = int32(len(d.arena)), true
	vn := d.add(f.t, f.t.Wire, 0)
	if msg := d.setNode(vn, f.t, x); msg != "" {
		d.nodes, d.arena = d.nodes[:kn], d.arena[:start]
		return msg
	}
	d.child(f.parent, kn)
	d.child(f.parent, vn)
	d.nodes[f.parent].n++
	return ""
}

// touch marks dirty the nodes find passed on the way to the edit.
func (d *Doc) touch() {
	for _, i := range d.walk {
		d.nodes[i].dirty = true
	}
}
