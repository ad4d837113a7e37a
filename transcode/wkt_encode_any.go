package transcode

import (
	"math"
	"unicode/utf8"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// value prints a google.protobuf.Value as the JSON value it holds: the
// last member of its oneof that arrived. An empty Value and a number that
// is not finite have no JSON form.
func (e *encoder) value(p *plan, recs []rec, ones []int32) error {
	w := ones[0]
	if w < 0 {
		return e.wkErr(e.firstStart(recs), "google.protobuf.Value: none of the oneof fields is set")
	}
	var win []rec
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].idx == recs[i].idx {
			j++
		}
		if recs[i].idx == w {
			win = recs[i:j]
		} else if err := e.validate(&p.fields[recs[i].idx], recs[i:j]); err != nil {
			return err
		}
		i = j
	}
	f := &p.fields[w]
	r, err := e.lastOf(f, win)
	if err != nil {
		return err
	}
	switch {
	case f.sub != nil:
		return e.messageValue(f, win)
	case f.kind == protoreflect.DoubleKind:
		if v := math.Float64frombits(e.bitsOf(r)); math.IsNaN(v) || math.IsInf(v, 0) {
			return e.wkErr(r.start, "google.protobuf.Value.number_value: invalid %v value", v)
		}
	}
	return e.scalar(f, r)
}

func (e *encoder) firstStart(recs []rec) int32 {
	if len(recs) > 0 {
		return recs[0].start
	}
	return 0
}

// any prints a google.protobuf.Any as the JSON object of the message it
// packs with "@type" first, or for a well-known type with a JSON form of
// its own as {"@type": ..., "value": ...}. The packed message is resolved
// by type URL, and parsed afresh as proto.Unmarshal would: its own nesting
// limit, required fields not checked.
func (e *encoder) any(p *plan, recs []rec) error {
	var tr *rec
	if g := group(p, recs, 1); len(g) > 0 {
		var err error
		f := &p.fields[g[0].idx]
		if tr, err = e.lastOf(f, g); err != nil {
			return err
		}
		if !utf8.Valid(e.b[tr.start:tr.end]) {
			return e.fieldErr(int(tr.start), f, "invalid UTF-8")
		}
	}
	vr := last(p, recs, 2)
	if tr == nil || tr.start == tr.end {
		if vr == nil || vr.start == vr.end {
			e.open('{')
			e.close('}')
			return nil
		}
		return e.wkErr(vr.start, "google.protobuf.Any: type_url is not set")
	}
	url := e.b[tr.start:tr.end]
	mt, err := e.resolver().FindMessageByURL(string(url))
	if err != nil {
		return e.wkErr(tr.start, "google.protobuf.Any: unable to resolve %q: %v", url, err)
	}
	inner := planOf(p.t.Cache().Type(mt.Descriptor()))
	sbase := len(e.spans)
	if vr != nil {
		push(&e.spans, span{vr.start, vr.end})
	}
	depth := e.depth
	e.depth = wire.DefaultMaxDepth
	e.partial++
	if inner.wkt.special() {
		e.open('{')
		e.rawKey(`,"@type":`)
		e.str(url) // resolved, so UTF-8
		e.rawKey(`,"value":`)
		err = e.message(inner, sbase, len(e.spans), nil)
		e.close('}')
	} else {
		err = e.message(inner, sbase, len(e.spans), url)
	}
	e.partial--
	e.depth = depth
	e.spans = e.spans[:sbase]
	return err
}
