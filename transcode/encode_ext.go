package transcode

import (
	"cmp"
	"errors"
	"slices"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// extGroup is the records of one extension field.
type extGroup struct {
	f    *fieldPlan
	recs []rec
}

// extensions prints the extension fields among recs, the records with
// numbers in the message's extension ranges: each number is resolved (an
// unknown one is an unknown field, dropped), and the fields are printed
// by full name as "[pkg.ext]", as protojson orders them.
func (e *encoder) extensions(p *plan, recs []rec) error {
	slices.SortStableFunc(recs, func(a, b rec) int { return cmp.Compare(a.aux>>3, b.aux>>3) })
	var groups []extGroup
	for i := 0; i < len(recs); {
		num := recs[i].aux >> 3
		j := i + 1
		for j < len(recs) && recs[j].aux>>3 == num {
			j++
		}
		g, err := e.extGroup(p, protowire.Number(num), recs[i:j])
		if err != nil {
			return err
		}
		if g.f != nil {
			groups = append(groups, g)
		}
		i = j
	}
	slices.SortFunc(groups, func(a, b extGroup) int { return cmp.Compare(a.f.desc.FullName(), b.f.desc.FullName()) })
	for _, g := range groups {
		if err := e.field(g.f, -1, g.recs, nil); err != nil {
			return err
		}
	}
	return nil
}

// extGroup resolves extension num and keeps the records of recs whose wire
// type fits it.
func (e *encoder) extGroup(p *plan, num protowire.Number, recs []rec) (extGroup, error) {
	xt, err := e.resolver().FindExtensionByNumber(p.name, num)
	if errors.Is(err, protoregistry.NotFound) {
		return extGroup{}, nil
	}
	if err != nil {
		return extGroup{}, e.wkErr(recs[0].start, "%v: unable to resolve extension %v: %v", p.name, num, err)
	}
	f := p.extension(xt.TypeDescriptor())
	kept := recs[:0]
	for _, r := range recs {
		if !f.accepts(protowire.Type(r.wt())) {
			continue
		}
		if f.utf8 && !utf8.Valid(e.b[r.start:r.end]) {
			return extGroup{}, e.fieldErr(int(r.start), f, "invalid UTF-8")
		}
		r.aux &= 7
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return extGroup{}, nil
	}
	return extGroup{f: f, recs: kept}, nil
}
