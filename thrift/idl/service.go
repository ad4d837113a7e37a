package idl

import "strings"

// services resolves extends clauses and the functions' types, and checks
// throws lists, oneway functions and function names.
func (r *resolver) services() error {
	for _, s := range r.f.Services {
		if err := r.extends(s); err != nil {
			return err
		}
	}
	for _, s := range r.f.Services {
		if err := extendsCycle(s); err != nil {
			return err
		}
		for _, fn := range s.Functions {
			if err := r.function(fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *resolver) extends(s *Service) error {
	if s.extends == nil {
		return nil
	}
	if s.Extends = r.f.Service(s.extends.text); s.Extends == nil {
		return errorf(s.extends.pos, "service %s extends unknown service %q", s.Name, s.extends.text)
	}
	s.extends = nil
	return nil
}

func extendsCycle(s *Service) error {
	chain := []string{s.Name}
	for e := s.Extends; e != nil; e = e.Extends {
		chain = append(chain, e.Name)
		if e == s {
			return errorf(s.Pos, "service extends itself: %s", strings.Join(chain, " -> "))
		}
		if len(chain) > len(s.File.Services)+1 {
			return nil // a cycle not through s: reported from its own service
		}
	}
	return nil
}

func (r *resolver) function(fn *Function) error {
	s := fn.Service
	for _, other := range s.Functions {
		if other == fn {
			break
		}
		if other.Name == fn.Name {
			return errorf(fn.Pos, "function %s of %s is already defined at %s", fn.Name, s.Name, other.Pos)
		}
	}
	if inherited := s.Extends.Function(fn.Name); inherited != nil {
		return errorf(fn.Pos, "function %s of %s is already defined by %s at %s", fn.Name, s.Name, inherited.Service.Name, inherited.Pos)
	}
	if fn.Return.Kind != VoidKind {
		t, err := r.typ(fn.Return)
		if err != nil {
			return err
		}
		fn.Return = t
	}
	if err := r.fields(fn.Args); err != nil {
		return err
	}
	if err := r.fields(fn.Throws); err != nil {
		return err
	}
	if err := checkFunction(fn); err != nil {
		return err
	}
	fn.Result = result(fn)
	return nil
}

// result builds the struct of a function's reply.
func result(fn *Function) *Struct {
	if fn.Oneway {
		return nil
	}
	s := &Struct{Kind: StructKind, Name: fn.Name + "_result", File: fn.Args.File, Pos: fn.Pos}
	if fn.Return.Kind != VoidKind {
		s.Fields = append(s.Fields, &Field{Name: "success", Type: fn.Return, Required: Optional, Pos: fn.Pos})
	}
	for _, f := range fn.Throws.Fields {
		s.Fields = append(s.Fields, &Field{ID: f.ID, Implicit: f.Implicit, Name: f.Name, Type: f.Type, Required: Optional, Annotations: f.Annotations, Doc: f.Doc, Pos: f.Pos})
	}
	s.Ref = &Type{Kind: StructKind, Name: s.Name, File: s.File, Struct: s, Pos: s.Pos}
	return s
}

func checkFunction(fn *Function) error {
	for _, f := range fn.Throws.Fields {
		if k := f.Type.Resolved().Kind; k != ExceptionKind {
			return errorf(f.Pos, "%s throws %s: expected an exception, found %s %s", fn.Name, f.Name, k, f.Type)
		}
	}
	if !fn.Oneway {
		return nil
	}
	if fn.Return.Kind != VoidKind {
		return errorf(fn.Pos, "oneway function %s: expected void, found %s", fn.Name, fn.Return)
	}
	if len(fn.Throws.Fields) > 0 {
		return errorf(fn.Pos, "oneway function %s: expected no throws, found %d", fn.Name, len(fn.Throws.Fields))
	}
	return nil
}
