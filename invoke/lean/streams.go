package lean

// A streamTable maps the ids of a connection's open streams to them. Ids
// are odd and handed out in order, and most streams end soon after they
// start, so stream id sits in ring[id/2 mod len(ring)] unless an older
// stream still holds that slot; the few that meet one go to a map. The
// ring doubles when more than half as many streams are open as it has
// slots. A lookup is an index and a compare, where a map would hash.
type streamTable struct {
	ring  []*stream
	extra map[uint32]*stream
	n     int
}

const minStreamRing = 64

func (tb *streamTable) slot(id uint32) int {
	return int(id>>1) & (len(tb.ring) - 1)
}

// get returns the open stream id, or nil.
func (tb *streamTable) get(id uint32) *stream {
	if tb.n == 0 {
		return nil
	}
	if s := tb.ring[tb.slot(id)]; s != nil && s.id == id {
		return s
	}
	if len(tb.extra) > 0 {
		return tb.extra[id]
	}
	return nil
}

// add adds s, whose id is not in the table.
func (tb *streamTable) add(s *stream) {
	if 2*(tb.n+1) > len(tb.ring) {
		tb.grow()
	}
	tb.place(s)
	tb.n++
}

func (tb *streamTable) place(s *stream) {
	i := tb.slot(s.id)
	if tb.ring[i] == nil {
		tb.ring[i] = s
		return
	}
	if tb.extra == nil {
		tb.extra = make(map[uint32]*stream)
	}
	tb.extra[s.id] = s
}

// remove takes s out of the table, where it is.
func (tb *streamTable) remove(s *stream) {
	if i := tb.slot(s.id); tb.ring[i] == s {
		tb.ring[i] = nil
	} else {
		delete(tb.extra, s.id)
	}
	tb.n--
}

func (tb *streamTable) grow() {
	old, extra := tb.ring, tb.extra
	tb.ring = make([]*stream, max(2*len(old), minStreamRing))
	tb.extra = nil
	for _, s := range old {
		if s != nil {
			tb.place(s)
		}
	}
	for _, s := range extra {
		tb.place(s)
	}
}

// len is the number of open streams.
func (tb *streamTable) len() int { return tb.n }

// all returns the open streams, in no order, in a slice of their own: the
// caller may end them as it goes.
func (tb *streamTable) all() []*stream {
	out := make([]*stream, 0, tb.n)
	for _, s := range tb.ring {
		if s != nil {
			out = append(out, s)
		}
	}
	for _, s := range tb.extra {
		out = append(out, s)
	}
	return out
}
