package transcode

// The direct path prints a message as its records come, in one pass with no
// record table, when they come the way serializers write them: in field
// order, each field once or (lists and maps) in one run, one member per
// oneof, no extensions. Anything else needs the general path (scan, then
// print in declaration order). It prints compact output without
// unpopulated fields, the default options, with compactFields; indented
// output and unpopulated fields always take the general path.
//
// A message without sub-messages is tried straight away: on any surprise
// or error its output is rolled back and the general path does it, which
// costs at most one more pass over its own bytes. A message with
// sub-messages is tried straight away too while fewer than maxHopeful such
// messages are in flight, and rolled back the same way, which prints its
// sub-messages again. Once one has given up, every further message with
// sub-messages is checked first (regular: a walk over its own records,
// sub-messages skipped by length), so that the direct path never gives up
// after printing them and the work stays bounded at any depth. The errors
// of a checked message are final: no later record replaces the value that
// failed (map values are chosen before they print), so the general path
// would fail too.

// messageAt prints the message of p in b[start:end].
func (e *encoder) messageAt(p *plan, start, end int32) error {
	if p.direct && e.compact {
		mark, level := len(e.out), e.level
		ok, err := e.direct(p, start, end)
		if ok || err != nil {
			return err
		}
		e.discarded += len(e.out) - mark
		e.out, e.level = e.out[:mark], level
	}
	lo, hi := e.pushSpan(start, end)
	err := e.message(p, lo, hi, nil)
	e.spans = e.spans[:lo]
	return err
}

// run is the field whose records the direct path is printing.
type run struct {
	f     *fieldPlan
	idx   int32
	mark  int // output length before the field's key, to drop an empty list
	n     int // list elements so far
	ebase int // start of a map's entries in e.ents
}

// direct prints the message of p in b[start:end] if its records allow, and
// reports whether it did, or a final error.
func (e *encoder) direct(p *plan, start, end int32) (bool, error) {
	if e.depth == 0 {
		return false, nil
	}
	checked, hopeful := false, false
	if p.hasSub {
		if e.hopeful >= maxHopeful {
			if !e.regular(p, start, end) {
				return false, nil
			}
			checked = true
		} else {
			hopeful = true
			e.hopeful++
		}
	}
	e.depth--
	ebase := 0
	if e.scratch != nil {
		ebase = len(e.ents)
	}
	ok, err := e.compactFields(p, start, end, checked)
	if e.scratch != nil {
		e.ents = e.ents[:ebase]
	}
	e.depth++
	if hopeful {
		e.hopeful--
		if !ok && err == nil {
			e.hopeful = noHope // check from now on
		}
	}
	return ok, err
}

// maxHopeful is how many messages with sub-messages the direct path tries
// at once without checking their records first. Giving up on one prints
// its subtree again; after the first time every such message is checked
// first (noHope stays above maxHopeful whatever the messages in flight
// take off it on their way out), so only the at most maxHopeful then in
// flight can give up, and the output printed and dropped stays within
// maxHopeful times the output.
const (
	maxHopeful = 4
	noHope     = 1 << 30
)

// final returns err if it is final, for a message that regular checked;
// otherwise nil, to give up.
func final(checked bool, err error) error {
	if !checked || err == errAgain {
		return nil
	}
	return err
}

// regular reports whether the records of the message of p in b[start:end]
// suit the direct path: known fields in declaration order, singular ones
// once, one member per oneof, no extensions, nothing malformed (the general
// path reports that).
func (e *encoder) regular(p *plan, start, end int32) bool {
	b := e.b[:end]
	last := int32(-1)
	var oneofs uint64
	for pos := int(start); pos < len(b); {
		num, wt, _, _, next, err := e.next(b, pos)
		if err != nil {
			return false
		}
		pos = next
		idx := p.tagIndex(num, wt)
		switch {
		case idx == tagSkip:
			continue
		case idx < last || idx == tagExtension:
			return false
		case idx == last:
			if p.fields[idx].op < opList {
				return false
			}
			continue
		}
		if o := p.fields[idx].oneof; o >= 0 {
			if oneofs&(1<<o) != 0 {
				return false
			}
			oneofs |= 1 << o
		}
		last = idx
	}
	return true
}

// errAgain is extendRun's report of a singular field seen again, which
// needs the general path.
var errAgain = errorString("field seen again")

type errorString string

func (s errorString) Error() string { return string(s) }

// startRun prints the first record r of field cur.f, a list or a map.
func (e *encoder) startRun(cur *run, r *rec) error {
	if cur.f.op == opList {
		cur.mark = len(e.out)
		e.key(cur.f)
		e.open('[')
	} else {
		e.need()
		cur.ebase = len(e.ents)
	}
	return e.extendRun(cur, r)
}

// extendRun prints a further record of a list or collects a map entry.
func (e *encoder) extendRun(cur *run, r *rec) error {
	f := cur.f
	switch f.op {
	case opList:
		n, err := e.element(f, r, cur.n)
		cur.n = n
		return err
	case opMap:
		return e.pushEntry(f, r)
	}
	return errAgain
}

// endRun finishes the field in progress: closes a list (or drops it when
// empty) and prints a map's collected entries.
func (e *encoder) endRun(cur *run) error {
	if cur.f == nil {
		return nil
	}
	switch cur.f.op {
	case opList:
		if cur.n == 0 {
			e.out, e.level = e.out[:cur.mark], e.level-1
			return nil
		}
		e.close(']')
	case opMap:
		e.key(cur.f)
		if err := e.printEntries(cur.f, e.ents[cur.ebase:]); err != nil {
			return err
		}
		e.ents = e.ents[:cur.ebase]
	}
	return nil
}
