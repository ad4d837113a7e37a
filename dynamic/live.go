package dynamic

import "github.com/rpckit/rpckit/wire"

// liveness records, for one message, which records of oneof members are
// dead (a later record of another member cleared them) and which singular
// message fields under a mask arrive split across several records. Its
// arrays hold the common small cases on the caller's stack; larger
// messages use the big slices.
type liveness struct {
	num   [8]int32 // per oneof: the member that wins
	since [8]int   // per oneof: start of the winner's live records
	count [16]int  // per mask child: records of a singular message
	last  [16]int  // per mask child: start of its last record

	bigNum            []int32
	bigSince          []int
	bigCount, bigLast []int
}

func (lv *liveness) nums() []int32 {
	if lv.bigNum != nil {
		return lv.bigNum
	}
	return lv.num[:]
}

func (lv *liveness) sinces() []int {
	if lv.bigSince != nil {
		return lv.bigSince
	}
	return lv.since[:]
}

func (lv *liveness) counts() []int {
	if lv.bigCount != nil {
		return lv.bigCount
	}
	return lv.count[:]
}

func (lv *liveness) lasts() []int {
	if lv.bigLast != nil {
		return lv.bigLast
	}
	return lv.last[:]
}

// liveness fills lv by scanning v when v has oneofs or singular messages
// under the mask, and reports whether it did; otherwise every record is
// live and whole.
func (v Value) liveness(n *maskNode, lv *liveness) (bool, error) {
	if len(v.t.Oneofs) == 0 && !n.hasSingularMessages() {
		return false, nil
	}
	if len(v.t.Oneofs) > len(lv.num) {
		lv.bigNum, lv.bigSince = make([]int32, len(v.t.Oneofs)), make([]int, len(v.t.Oneofs))
	}
	if len(n.children) > len(lv.count) {
		lv.bigCount, lv.bigLast = make([]int, len(n.children)), make([]int, len(n.children))
	}
	it := v.iter()
	for it.Next() {
		lv.see(v, n, it.Field())
	}
	return true, wrapWire(it.Err(), v.base, nil, 0)
}

func (lv *liveness) see(v Value, n *maskNode, r wire.Field) {
	f := v.t.FieldByNumber(r.Num)
	if f == nil || !f.accepts(r.Type) {
		return
	}
	nums, counts := lv.nums(), lv.counts()
	if f.Oneof >= 0 && nums[f.Oneof] != int32(f.Num) {
		nums[f.Oneof], lv.sinces()[f.Oneof] = int32(f.Num), r.Start
		for _, o := range v.t.Oneofs[f.Oneof].Fields {
			if c := n.get(o.Num); c != nil {
				counts[c.slot] = 0 // the earlier records are dead
			}
		}
	}
	if c := n.get(r.Num); c != nil && !c.leaf && isSingularMessage(f) {
		counts[c.slot]++
		lv.lasts()[c.slot] = r.Start
	}
}

// dead reports whether r is a record of a oneof member that a later
// member cleared.
func (lv *liveness) dead(t *Type, r wire.Field) bool {
	f := t.FieldByNumber(r.Num)
	if f == nil || f.Oneof < 0 || !f.accepts(r.Type) {
		return false
	}
	return lv.nums()[f.Oneof] != int32(f.Num) || r.Start < lv.sinces()[f.Oneof]
}

// merged reports whether r is a record of a split singular message that is
// not the last: its payload goes into the last record's merge.
func (lv *liveness) merged(c *maskChild, r wire.Field) bool {
	return lv.split(c) && r.Start != lv.lasts()[c.slot]
}

// split reports whether c's field arrives in several records.
func (lv *liveness) split(c *maskChild) bool {
	return lv.counts()[c.slot] > 1 && isSingularMessage(c.f)
}

func isSingularMessage(f *Field) bool { return f.isMessage() && !f.List && !f.Map }

func (n *maskNode) hasSingularMessages() bool {
	for _, c := range n.children {
		if !c.leaf && isSingularMessage(c.f) {
			return true
		}
	}
	return false
}
