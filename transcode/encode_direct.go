package transcode

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// The direct path prints a message as its records come, in one pass with no
// record table, when they come the way serializers write them: in field
// order, each field once or (lists and maps) in one run, one member per
// oneof. Anything else (a field again later, a split sub-message, a second
// oneof member, an extension) makes it give up: the output is rolled back
// and the general path (scan, then print in declaration order) does the
// message. The work thrown away is bounded: past a budget in proportion to
// the input, only the general path runs.
//
// An error is final when no later record can change the value that failed
// (no later record of the field or of its oneof): the general path would
// fail too. Otherwise the direct path gives up and lets the general path
// decide. Malformed records are always final.

// messageAt prints the message of p in b[start:end].
func (e *encoder) messageAt(p *plan, start, end int32) error {
	if p.direct && !e.slowOnly {
		mark, level := len(e.out), e.level
		ok, err := e.direct(p, start, end)
		if ok || err != nil {
			return err
		}
		e.out, e.level = e.out[:mark], level
		if e.wasted += int(end - start); e.wasted > e.budget {
			e.slowOnly = true
		}
	}
	lo, hi := e.pushSpan(start, end)
	err := e.message(p, lo, hi, nil)
	e.spans = e.spans[:lo]
	if err != nil {
		e.slowOnly = true // the enclosing messages fail too: no more tries
	}
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
	e.depth--
	ebase := 0
	if e.scratch != nil {
		ebase = len(e.ents)
	}
	ok, err := e.directFields(p, start, end)
	if e.scratch != nil {
		e.ents = e.ents[:ebase]
	}
	e.depth++
	return ok, err
}

func (e *encoder) directFields(p *plan, start, end int32) (bool, error) {
	b := e.b[:end]
	e.open('{')
	cur := run{idx: -1}
	var oneofs uint64
	for pos := int(start); pos < len(b); {
		var (
			wt     protowire.Type
			vs, ve int
			idx    int32
		)
		ve = -1
		if c := b[pos]; c < 0x80 && c >= 8 {
			wt, vs = protowire.Type(c&7), pos+1
			switch wt {
			case protowire.VarintType:
				for i := vs; i < len(b) && i < vs+9; i++ {
					if b[i] < 0x80 {
						ve = i + 1
						break
					}
				}
			case protowire.BytesType:
				if vs < len(b) && b[vs] < 0x80 && int(b[vs]) < len(b)-vs {
					vs, ve = vs+1, vs+1+int(b[vs])
				}
			case protowire.Fixed64Type:
				if len(b)-vs >= 8 {
					ve = vs + 8
				}
			case protowire.Fixed32Type:
				if len(b)-vs >= 4 {
					ve = vs + 4
				}
			}
			idx = p.tags[c]
		}
		if ve < 0 {
			num, w, s, t, next, err := e.record(b, pos)
			if err != nil {
				return false, err
			}
			wt, vs, ve, pos = w, s, t, next
			idx = p.tagIndex(num, wt)
		} else {
			pos = ve
		}
		switch {
		case idx == tagSkip:
			continue
		case idx < 0 || idx < cur.idx:
			return false, nil
		}
		r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
		if idx == cur.idx {
			if err := e.extendRun(&cur, &r); err != nil {
				return false, e.finalErr(p, &cur, b, pos, err)
			}
			continue
		}
		if err := e.endRun(&cur); err != nil {
			return false, e.finalErr(p, &cur, b, pos, err)
		}
		if e.unpop {
			for k := cur.idx + 1; k < idx; k++ {
				e.unpopulated(&p.fields[k])
			}
		}
		f := &p.fields[idx]
		if f.oneof >= 0 {
			if oneofs&(1<<f.oneof) != 0 {
				return false, nil
			}
			oneofs |= 1 << f.oneof
		}
		cur = run{f: f, idx: idx}
		if err := e.startRun(&cur, &r); err != nil {
			return false, e.finalErr(p, &cur, b, pos, err)
		}
	}
	if err := e.endRun(&cur); err != nil {
		return false, err
	}
	if e.unpop {
		for k := int(cur.idx) + 1; k < len(p.fields); k++ {
			e.unpopulated(&p.fields[k])
		}
	}
	e.close('}')
	return true, nil
}

// finalErr returns err if it is final: no record from pos on is of field
// cur or of its oneof (such a record would replace or merge with the value
// that failed); or nil, to give up.
func (e *encoder) finalErr(p *plan, cur *run, b []byte, pos int, err error) error {
	if _, ok := err.(*Error); !ok {
		return nil
	}
	for pos < len(b) {
		num, wt, _, _, next, perr := e.record(b, pos)
		if perr != nil {
			return nil // the general path finds the first error
		}
		pos = next
		idx := p.tagIndex(num, wt)
		if idx == cur.idx || idx >= 0 && cur.f.oneof >= 0 && p.fields[idx].oneof == cur.f.oneof {
			return nil
		}
	}
	return err
}

// errAgain is extendRun's report of a singular field seen again, which
// needs the general path.
var errAgain = errorString("field seen again")

type errorString string

func (s errorString) Error() string { return string(s) }

// startRun prints the first record r of field cur.f.
func (e *encoder) startRun(cur *run, r *rec) error {
	f := cur.f
	switch f.op {
	case opList:
		cur.mark = len(e.out)
		e.key(f)
		e.open('[')
		return e.extendRun(cur, r)
	case opMap:
		e.need()
		cur.ebase = len(e.ents)
		return e.extendRun(cur, r)
	case opMessage:
		e.key(f)
		if err := e.messageAt(f.sub, r.start, r.end); err != nil {
			return e.within(err, f, -1)
		}
		return nil
	}
	return e.single(f, r)
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
		en, err := e.entry(f, r)
		if err != nil {
			return err
		}
		e.ents = append(e.ents, en)
		return nil
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
		if cur.n == 0 && !e.unpop {
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
