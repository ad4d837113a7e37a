package idl

// fieldType parses a base type, a container or a type name, with the
// annotations a base or container type may carry.
func (p *parser) fieldType() (*Type, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.tok
	if t.kind != tIdent {
		return nil, p.expected("a type")
	}
	if kind, ok := baseKinds[t.text]; ok {
		if err := p.next(); err != nil {
			return nil, err
		}
		return p.typeAnnotations(&Type{Kind: kind, Name: kind.String(), Pos: t.pos})
	}
	if _, ok := containerKinds[t.text]; ok {
		return p.container(t)
	}
	if err := p.refuseLegacy(); err != nil {
		return nil, err
	}
	if _, err := p.name("a type", true); err != nil {
		return nil, err
	}
	return &Type{Name: t.text, Pos: t.pos}, nil // resolved later
}

func (p *parser) typeAnnotations(t *Type) (*Type, error) {
	var err error
	t.Annotations, err = p.annotations()
	return t, err
}

// container parses map [cpp_type] <K, V>, set [cpp_type] <E> or
// list <E> [cpp_type].
func (p *parser) container(t token) (*Type, error) {
	typ := &Type{Kind: containerKinds[t.text], Name: t.text, Pos: t.pos}
	if err := p.next(); err != nil {
		return nil, err
	}
	var err error
	if typ.Kind != ListKind {
		if typ.CppType, err = p.cppType(); err != nil {
			return nil, err
		}
	}
	if err := p.symbol("<"); err != nil {
		return nil, err
	}
	if typ.Kind == MapKind {
		if typ.Key, err = p.fieldType(); err != nil {
			return nil, err
		}
		if err := p.symbol(","); err != nil {
			return nil, err
		}
	}
	if typ.Elem, err = p.fieldType(); err != nil {
		return nil, err
	}
	if err := p.symbol(">"); err != nil {
		return nil, err
	}
	if typ.Kind == ListKind {
		if typ.CppType, err = p.cppType(); err != nil {
			return nil, err
		}
	}
	return p.typeAnnotations(typ)
}

var containerKinds = map[string]Kind{"list": ListKind, "set": SetKind, "map": MapKind}

func (p *parser) cppType() (string, error) {
	if !p.isWord("cpp_type") {
		return "", nil
	}
	if err := p.next(); err != nil {
		return "", err
	}
	if p.tok.kind != tString {
		return "", p.expected("the cpp_type in quotes")
	}
	s := p.tok.text
	return s, p.next()
}

// constValue parses a literal, an identifier, [ values ] or { k: v }.
func (p *parser) constValue() (*rawValue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	v := &rawValue{tok: p.tok}
	switch {
	case p.is("["):
		return v, p.constList(v)
	case p.is("{"):
		return v, p.constMap(v)
	case p.tok.kind == tInt || p.tok.kind == tDouble || p.tok.kind == tString:
	case p.tok.kind == tIdent && !keywords[p.tok.text]:
	default:
		return nil, p.expected("a constant value")
	}
	return v, p.next()
}

func (p *parser) constList(v *rawValue) error {
	if err := p.next(); err != nil {
		return err
	}
	for !p.is("]") {
		e, err := p.constValue()
		if err != nil {
			return err
		}
		v.list = append(v.list, e)
		if err := p.separator(); err != nil {
			return err
		}
	}
	return p.next()
}

func (p *parser) constMap(v *rawValue) error {
	v.isMap = true
	if err := p.next(); err != nil {
		return err
	}
	for !p.is("}") {
		k, err := p.constValue()
		if err != nil {
			return err
		}
		if err := p.symbol(":"); err != nil {
			return err
		}
		e, err := p.constValue()
		if err != nil {
			return err
		}
		v.entries = append(v.entries, [2]*rawValue{k, e})
		if err := p.separator(); err != nil {
			return err
		}
	}
	return p.next()
}
