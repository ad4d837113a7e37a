package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// element edits or enters list element or map entry p[j] of f. It returns
// the Type to continue in, or nil when the edit is done.
func (e *docEdit) element(f *Field, j int) (*Type, error) {
	if f.Map {
		return e.mapEntry(f, j)
	}
	if !f.List || e.p[j].Kind != StepIndex {
		return nil, pathError(e.p, j+1, "index of a non-repeated field")
	}
	last := j == len(e.p)-1
	if !last && !f.isMessage() {
		return nil, pathError(e.p, j+2, "not a message")
	}
	i, k, err := e.listNode(f, e.p[j].Index)
	if err != nil {
		return nil, err
	}
	if !last {
		e.parents = append(e.parents[:0], i)
		return f.Message, nil
	}
	return nil, e.replaceElem(f, i, k)
}

// listNode finds the record holding element want of list f, and the
// element's index in it (packed runs hold several).
func (e *docEdit) listNode(f *Field, want int) (int32, int, error) {
	d, idx := e.d, 0
	found, at, k := false, int32(-1), 0
	var err error
	e.fieldNodes(f, func(i int32, sib bool) {
		if found || sib || err != nil {
			return
		}
		n, nerr := d.elemCount(f, i)
		if nerr != nil {
			err = nerr
		} else if want < idx+n {
			found, at, k = true, i, want-idx
		}
		idx += n
	})
	if err == nil && !found {
		err = pathError(e.p, len(e.p), "index out of range")
	}
	return at, k, err
}

// elemCount returns the number of elements in list record i.
func (d *Doc) elemCount(f *Field, i int32) (int, error) {
	n := &d.nodes[i]
	if !f.Packable || n.wt != protowire.BytesType {
		return 1, nil
	}
	return wire.CountPacked(d.bytesOf(n), int(n.val), int(n.valEnd), f.WireType)
}

// replaceElem sets or removes element k of list record i.
func (e *docEdit) replaceElem(f *Field, i int32, k int) error {
	d := e.d
	n := d.nodes[i]
	d.remove(i)
	if e.del && !(f.Packable && n.wt == protowire.BytesType) {
		return nil
	}
	w := editor{p: e.p, val: e.val, del: e.del}
	enc := func(dst []byte) ([]byte, error) {
		if f.Packable && n.wt == protowire.BytesType {
			return w.packedRun(dst, Value{b: d.bytesOf(&n)}, f, n.record(), k)
		}
		return appendRecord(dst, f, e.val)
	}
	start := len(d.arena)
	var err error
	if d.arena, err = enc(d.arena); err != nil {
		d.arena = d.arena[:start]
		return err
	}
	nw, err := d.adopt(n.parent, start, f)
	if err == nil {
		d.moveAfter(nw, i)
	}
	return err
}

// moveAfter moves the last child nw of its parent to just after node at.
func (d *Doc) moveAfter(nw, at int32) {
	p := &d.nodes[d.nodes[nw].parent]
	if p.last != nw || d.nodes[at].next == nw {
		return
	}
	prev := at
	for prev >= 0 && d.nodes[prev].next != nw {
		prev = d.nodes[prev].next
	}
	d.nodes[prev].next = -1
	p.last = prev
	d.nodes[nw].next = d.nodes[at].next
	d.nodes[at].next = nw
}

// mapEntry edits or enters entry p[j] of map f.
func (e *docEdit) mapEntry(f *Field, j int) (*Type, error) {
	k := e.p[j].Key
	if !keyFits(f.MapKey, k) {
		return nil, pathError(e.p, j+1, "key "+k.String()+" does not fit a "+f.MapKey.Kind.String()+" key")
	}
	last := j == len(e.p)-1
	if !last && !f.MapValue.isMessage() {
		return nil, pathError(e.p, j+2, "not a message")
	}
	live := int32(-1)
	e.fieldNodes(f, func(i int32, _ bool) {
		if e.d.entryKeyIs(f, i, k) {
			if live >= 0 {
				e.d.remove(live)
			}
			live = i
		}
	})
	if last || (live < 0 && e.del) {
		if live >= 0 {
			e.d.remove(live)
		}
		if e.del {
			return nil, nil
		}
		w := editor{p: e.p, val: e.val}
		_, err := e.d.addRecord(e.parents[len(e.parents)-1], func(dst []byte) ([]byte, error) {
			return w.entry(dst, Value{t: f.Message}, f, k, len(e.p)-1)
		}, f)
		return nil, err
	}
	if live < 0 {
		live = e.d.addMessage(e.parents[len(e.parents)-1], f)
		if _, err := e.d.addRecord(live, func(dst []byte) ([]byte, error) { return appendKey(dst, f.MapKey, k) }, f.MapKey); err != nil {
			return nil, err
		}
	}
	e.parents = append(e.parents[:0], live)
	if e.parents = e.descend(f.MapValue); len(e.parents) == 0 {
		return nil, nil
	}
	return f.MapValue.Message, nil
}

// entryKeyIs reports whether map entry node i has key k.
func (d *Doc) entryKeyIs(f *Field, i int32, k Key) bool {
	var key Elem
	key.f, key.exists, key.kind = f.MapKey, true, elemScalar
	for c := d.nodes[i].first; c >= 0; c = d.nodes[c].next {
		n := &d.nodes[c]
		if n.deleted || n.f != f.MapKey {
			continue
		}
		rec := Value{t: f.Message, b: d.bytesOf(n)[n.start:n.end]}
		if e, err := rec.scalar(f.MapKey, nil, 0); err == nil {
			key = e
		}
	}
	return keyEquals(key, k)
}
