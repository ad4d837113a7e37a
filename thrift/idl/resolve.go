package idl

import (
	"sort"
	"strings"
)

type resolveState uint8

const (
	unresolved resolveState = iota
	resolving
	resolved
)

// resolver links one parsed file: names to declarations, constant values
// to their types. The files it includes are resolved already.
type resolver struct {
	f *File
	l *loader
}

func resolve(f *File, l *loader) error {
	r := &resolver{f: f, l: l}
	for _, step := range []func() error{r.declare, r.typedefs, r.structs, r.services, r.consts, r.defaults} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// declare indexes the file's declarations by name, refusing duplicates:
// types and services share one namespace, constants have their own.
func (r *resolver) declare() error {
	f := r.f
	f.types, f.services = map[string]*Type{}, map[string]*Service{}
	f.consts, f.values = map[string]*Const{}, map[string]*EnumValue{}
	var decls []decl
	for _, td := range f.Typedefs {
		decls = append(decls, decl{td.Name, td.Pos, func() { f.types[td.Name] = td.Ref }})
	}
	for _, e := range f.Enums {
		decls = append(decls, decl{e.Name, e.Pos, func() { f.types[e.Name] = e.Ref }})
	}
	for _, s := range f.Structs {
		decls = append(decls, decl{s.Name, s.Pos, func() { f.types[s.Name] = s.Ref }})
	}
	for _, s := range f.Services {
		decls = append(decls, decl{s.Name, s.Pos, func() { f.services[s.Name] = s }})
	}
	if err := declareAll(decls); err != nil {
		return err
	}
	for _, e := range f.Enums {
		if err := r.enumValues(e); err != nil {
			return err
		}
	}
	return r.declareConsts()
}

type decl struct {
	name string
	pos  Pos
	add  func()
}

// declareAll adds the declarations in source order, refusing a name
// declared before.
func declareAll(decls []decl) error {
	sort.Slice(decls, func(i, j int) bool {
		a, b := decls[i].pos, decls[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	seen := map[string]Pos{}
	for _, d := range decls {
		if at, ok := seen[d.name]; ok {
			return errorf(d.pos, "%s is already defined at %s", d.name, at)
		}
		seen[d.name] = d.pos
		d.add()
	}
	return nil
}

func (r *resolver) enumValues(e *Enum) error {
	for _, v := range e.Values {
		key := e.Name + "." + v.Name
		if prev, ok := r.f.values[key]; ok {
			return errorf(v.Pos, "enum value %s is already defined at %s", key, prev.Pos)
		}
		r.f.values[key] = v
	}
	return nil
}

func (r *resolver) declareConsts() error {
	for _, c := range r.f.Consts {
		if prev, ok := r.f.consts[c.Name]; ok {
			return errorf(c.Pos, "constant %s is already defined at %s", c.Name, prev.Pos)
		}
		r.f.consts[c.Name] = c
	}
	return nil
}

// typ resolves the type names in t; a name becomes its declaration's Ref.
func (r *resolver) typ(t *Type) (*Type, error) {
	switch {
	case t.Kind == InvalidKind:
		if ref := r.f.Type(t.Name); ref != nil {
			return ref, nil
		}
		return nil, errorf(t.Pos, "unknown type %q", t.Name)
	case t.Kind == MapKind:
		k, err := r.typ(t.Key)
		if err != nil {
			return nil, err
		}
		t.Key = k
		fallthrough
	case t.Kind == ListKind || t.Kind == SetKind:
		e, err := r.typ(t.Elem)
		if err != nil {
			return nil, err
		}
		t.Elem = e
	}
	return t, nil
}

// typedefs resolves what each typedef names and refuses cycles.
func (r *resolver) typedefs() error {
	for _, td := range r.f.Typedefs {
		t, err := r.typ(td.Type)
		if err != nil {
			return err
		}
		td.Type = t
	}
	seen := map[*Typedef]resolveState{}
	for _, td := range r.f.Typedefs {
		if err := typedefCycle(td, seen, nil); err != nil {
			return err
		}
	}
	return nil
}

// typedefCycle refuses a typedef that holds itself, through other
// typedefs (typedef B A, typedef A B) or containers (typedef list<A> A):
// only structs may hold themselves.
func typedefCycle(td *Typedef, seen map[*Typedef]resolveState, chain []string) error {
	chain = append(chain, td.Name)
	switch seen[td] {
	case resolved:
		return nil
	case resolving:
		return errorf(td.Pos, "typedef cycle: %s", strings.Join(chain, " -> "))
	}
	seen[td] = resolving
	if err := typeCycle(td.Type, seen, chain); err != nil {
		return err
	}
	seen[td] = resolved
	return nil
}

func typeCycle(t *Type, seen map[*Typedef]resolveState, chain []string) error {
	switch t.Kind {
	case TypedefKind:
		return typedefCycle(t.Typedef, seen, chain)
	case MapKind:
		if err := typeCycle(t.Key, seen, chain); err != nil {
			return err
		}
		fallthrough
	case ListKind, SetKind:
		return typeCycle(t.Elem, seen, chain)
	}
	return nil
}

func (r *resolver) structs() error {
	for _, s := range r.f.Structs {
		if err := r.fields(s); err != nil {
			return err
		}
		if s.Kind == UnionKind {
			if err := union(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// fields resolves the fields' types and refuses repeated ids and names.
func (r *resolver) fields(s *Struct) error {
	ids, names := map[int16]*Field{}, map[string]*Field{}
	for _, f := range s.Fields {
		t, err := r.typ(f.Type)
		if err != nil {
			return err
		}
		f.Type = t
		if prev, ok := ids[f.ID]; ok {
			return errorf(f.Pos, "field %s of %s: id %d is already used by %s at %s", f.Name, s.Name, f.ID, prev.Name, prev.Pos)
		}
		if prev, ok := names[f.Name]; ok {
			return errorf(f.Pos, "field %s of %s: the name is already used at %s", f.Name, s.Name, prev.Pos)
		}
		ids[f.ID], names[f.Name] = f, f
	}
	return nil
}

// union makes a union's members optional, as the Apache compiler does,
// and allows a default on one member at most.
func union(s *Struct) error {
	var withDefault *Field
	for _, f := range s.Fields {
		f.Required = Optional
		if f.raw == nil {
			continue
		}
		if withDefault != nil {
			return errorf(f.Pos, "union %s: fields %s and %s both have a default: expected one at most", s.Name, withDefault.Name, f.Name)
		}
		withDefault = f
	}
	return nil
}

func (r *resolver) consts() error {
	for _, c := range r.f.Consts {
		t, err := r.typ(c.Type)
		if err != nil {
			return err
		}
		c.Type = t
	}
	for _, c := range r.f.Consts {
		if err := r.constDef(c); err != nil {
			return err
		}
	}
	return nil
}

// defaults checks the fields' default values against their types.
func (r *resolver) defaults() error {
	var lists []*Struct
	lists = append(lists, r.f.Structs...)
	for _, s := range r.f.Services {
		for _, fn := range s.Functions {
			lists = append(lists, fn.Args, fn.Throws)
		}
	}
	for _, s := range lists {
		for _, f := range s.Fields {
			if f.raw == nil {
				continue
			}
			v, err := r.value(f.raw, f.Type, "default of "+s.Name+"."+f.Name)
			if err != nil {
				return err
			}
			f.Default, f.raw = v, nil
		}
	}
	return nil
}
