package idl

// service parses service Name [extends Name] { functions } [annotations].
func (p *parser) service() error {
	s := &Service{File: p.file, Doc: p.doc, Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	name, err := p.name("the service's name", false)
	if err != nil {
		return err
	}
	s.Name = name.text
	if p.isWord("extends") {
		if err := p.next(); err != nil {
			return err
		}
		ext, err := p.name("the name of the service extended", true)
		if err != nil {
			return err
		}
		s.extends = &ext
	}
	if err := p.symbol("{"); err != nil {
		return err
	}
	for !p.is("}") {
		fn, err := p.function()
		if err != nil {
			return err
		}
		fn.Service = s
		s.Functions = append(s.Functions, fn)
	}
	if err := p.next(); err != nil {
		return err
	}
	if s.Annotations, err = p.annotations(); err != nil {
		return err
	}
	p.file.Services = append(p.file.Services, s)
	return nil
}

// function parses [oneway] type name(args) [throws (fields)] [annotations] [,|;].
func (p *parser) function() (*Function, error) {
	fn := &Function{Doc: p.lx.docs.take(), Pos: p.tok.pos}
	if p.isWord("oneway") || p.isWord("async") {
		fn.Oneway = true
		if err := p.next(); err != nil {
			return nil, err
		}
	}
	var err error
	if p.isWord("void") {
		fn.Return = &Type{Kind: VoidKind, Name: "void", Pos: p.tok.pos}
		err = p.next()
	} else {
		fn.Return, err = p.fieldType()
	}
	if err != nil {
		return nil, err
	}
	name, err := p.name("the function's name", false)
	if err != nil {
		return nil, err
	}
	fn.Name = name.text
	if fn.Args, err = p.argList(fn, "_args"); err != nil {
		return nil, err
	}
	fn.Throws = &Struct{Kind: StructKind, Name: fn.Name + "_throws", File: p.file, Pos: p.tok.pos}
	if p.isWord("throws") {
		if err := p.next(); err != nil {
			return nil, err
		}
		if fn.Throws, err = p.argList(fn, "_throws"); err != nil {
			return nil, err
		}
	}
	if fn.Annotations, err = p.annotations(); err != nil {
		return nil, err
	}
	return fn, p.separator()
}

// argList parses ( fields ): a function's arguments or throws.
func (p *parser) argList(fn *Function, suffix string) (*Struct, error) {
	s := &Struct{Kind: StructKind, Name: fn.Name + suffix, File: p.file, Pos: p.tok.pos}
	if err := p.symbol("("); err != nil {
		return nil, err
	}
	p.inArgs = true
	defer func() { p.inArgs = false }()
	var err error
	s.Fields, err = p.fields(")")
	return s, err
}

// annotations parses an optional ( key [= "value"] [,|;] ... ).
func (p *parser) annotations() (Annotations, error) {
	if !p.is("(") {
		return nil, nil
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	list := Annotations{}
	for !p.is(")") {
		key, err := p.name("an annotation's name or \")\"", true)
		if err != nil {
			return nil, err
		}
		an := Annotation{Key: key.text, Value: "1", Pos: key.pos}
		if ok, err := p.accept("="); err != nil {
			return nil, err
		} else if ok {
			if p.tok.kind != tString {
				return nil, p.expected("the annotation's value in quotes")
			}
			an.Value = p.tok.text
			if err := p.next(); err != nil {
				return nil, err
			}
		}
		list = append(list, an)
		if err := p.separator(); err != nil {
			return nil, err
		}
	}
	return list, p.next()
}
