package cli

import (
	"cmp"
	"maps"
	"slices"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// --mask and --keep take the paths --get takes. Paths of whole fields make
// a field mask, as google.protobuf.FieldMask has them; a path with a list
// index or a map key selects elements, which a field mask cannot, and is
// applied to the element itself.

// keyedAt returns the index of p's first list index or map key step, or -1.
func keyedAt(p dynamic.Path) int {
	return slices.IndexFunc(p, func(s dynamic.Step) bool { return s.Kind != dynamic.StepField })
}

// maskPaths returns the message b of type t without the paths: whole
// fields through a field mask, then each list element or map entry.
func maskPaths(t *dynamic.Type, b []byte, paths []dynamic.Path) ([]byte, error) {
	var fields []string
	var keyed []dynamic.Path
	for _, p := range paths {
		if keyedAt(p) < 0 {
			fields = append(fields, p.String())
		} else {
			keyed = append(keyed, p)
		}
	}
	if len(fields) > 0 {
		fm, err := dynamic.NewFieldMask(t, fields...)
		if err != nil {
			return nil, err
		}
		if b, err = dynamic.NewValue(t, b).Mask(nil, fm); err != nil {
			return nil, err
		}
	}
	// Later list elements go first, so that removing one does not move
	// the others the paths name.
	slices.SortStableFunc(keyed, func(a, b dynamic.Path) int { return -comparePaths(a, b) })
	for _, p := range keyed {
		var err error
		if b, err = dynamic.NewValue(t, b).Delete(nil, p); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// comparePaths orders paths step by step, list indexes by number.
func comparePaths(a, b dynamic.Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x.Kind == dynamic.StepIndex && y.Kind == dynamic.StepIndex {
			if c := cmp.Compare(x.Index, y.Index); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(dynamic.Path{x}.String(), dynamic.Path{y}.String()); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// selection is what keep paths pick out of one list or map: by element
// step ("[2]", `["k"]`), the paths inside the element (none: all of it).
type selection struct {
	container dynamic.Path // field steps only
	elems     map[string][]dynamic.Path
	steps     []dynamic.Step // the element steps, as given
}

// keepPaths returns the message b of type t trimmed to the paths: a field
// mask of the whole fields and of the lists and maps that paths index
// into, then the elements of those lists and maps that no path names
// removed, and the named ones trimmed to what their paths name.
func keepPaths(t *dynamic.Type, b []byte, paths []dynamic.Path) ([]byte, error) {
	var plain, fields []string
	sels := map[string]*selection{}
	for _, p := range paths {
		k := keyedAt(p)
		if k < 0 {
			plain = append(plain, p.String())
			continue
		}
		key := p[:k].String()
		s := sels[key]
		if s == nil {
			s = &selection{container: p[:k], elems: map[string][]dynamic.Path{}}
			sels[key] = s
			fields = append(fields, key)
		}
		step := dynamic.Path{p[k]}.String()
		s.elems[step] = append(s.elems[step], p[k+1:])
		s.steps = append(s.steps, p[k])
	}
	fm, err := dynamic.NewFieldMask(t, append(plain, fields...)...)
	if err != nil {
		return nil, err
	}
	if b, err = dynamic.NewValue(t, b).Keep(nil, fm); err != nil {
		return nil, err
	}
	for _, key := range slices.Sorted(maps.Keys(sels)) {
		if coveredByField(key, plain) {
			continue
		}
		if b, err = keepElems(t, b, sels[key]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// coveredByField reports whether one of the whole-field paths is the
// container key or a field on the way to it, which keeps all of it.
func coveredByField(key string, plain []string) bool {
	for _, f := range plain {
		if f == key || len(f) < len(key) && key[:len(f)] == f && key[len(f)] == '.' {
			return true
		}
	}
	return false
}

// keepElems removes the elements of the selection's list or map that it
// does not name and trims the named ones.
func keepElems(t *dynamic.Type, b []byte, s *selection) ([]byte, error) {
	e, err := dynamic.NewValue(t, b).Get(s.container)
	if err != nil {
		return nil, err
	}
	var steps []dynamic.Step
	switch {
	case e.IsList():
		n, err := e.List().Len()
		if err != nil {
			return nil, err
		}
		for i := n - 1; i >= 0; i-- {
			steps = append(steps, dynamic.IndexStep(i))
		}
	case e.IsMap():
		if err := checkKeys(t, b, s); err != nil {
			return nil, err
		}
		err = e.Map().Range(func(k, _ dynamic.Elem) bool {
			steps = append(steps, dynamic.KeyStep(keyOf(k)))
			return true
		})
	default:
		return nil, &dynamic.PathError{Path: s.container.String(), Msg: "an index or key of a field that is not a list or map"}
	}
	if err != nil {
		return nil, err
	}
	for _, step := range steps {
		if b, err = keepElem(t, b, s, step); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// checkKeys reports a key given for the selection's map that is not of
// the map's key kind, which would otherwise select nothing.
func checkKeys(t *dynamic.Type, b []byte, s *selection) error {
	for _, step := range s.steps {
		if _, err := dynamic.NewValue(t, b).Get(append(slices.Clip(s.container), step)); err != nil {
			return err
		}
	}
	return nil
}

// keepElem removes or trims one element of the selection's list or map.
func keepElem(t *dynamic.Type, b []byte, s *selection, step dynamic.Step) ([]byte, error) {
	p := append(slices.Clip(s.container), step)
	inner, named := s.elems[dynamic.Path{step}.String()]
	if !named {
		return dynamic.NewValue(t, b).Delete(nil, p)
	}
	if slices.ContainsFunc(inner, func(q dynamic.Path) bool { return len(q) == 0 }) {
		return b, nil
	}
	e, err := dynamic.NewValue(t, b).Get(p)
	if err != nil {
		return nil, err
	}
	if !e.IsMessage() {
		return nil, &dynamic.PathError{Path: p.String(), Msg: "not a message"}
	}
	m := e.Message()
	sub, err := keepPaths(m.Type(), m.Bytes(), inner)
	if err != nil {
		return nil, err
	}
	return dynamic.NewValue(t, b).Set(nil, p, protoreflect.ValueOfBytes(sub))
}

// keyOf is the map key k as a path step takes it.
func keyOf(k dynamic.Elem) dynamic.Key {
	switch k.Field().Kind {
	case protoreflect.StringKind:
		return dynamic.StringKey(k.String())
	case protoreflect.BoolKind:
		return dynamic.BoolKey(k.Bool())
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return dynamic.UintKey(k.Uint())
	}
	return dynamic.IntKey(k.Int())
}
