package idl

import "math"

// constDef parses const Type NAME = value.
func (p *parser) constDef() error {
	c := &Const{File: p.file, Doc: p.doc, Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	var err error
	if c.Type, err = p.fieldType(); err != nil {
		return err
	}
	name, err := p.name("the constant's name", false)
	if err != nil {
		return err
	}
	c.Name = name.text
	if err := p.symbol("="); err != nil {
		return err
	}
	if c.raw, err = p.constValue(); err != nil {
		return err
	}
	p.file.Consts = append(p.file.Consts, c)
	return nil
}

// typedef parses typedef Type Name [annotations].
func (p *parser) typedef() error {
	td := &Typedef{File: p.file, Doc: p.doc, Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	var err error
	if td.Type, err = p.fieldType(); err != nil {
		return err
	}
	name, err := p.name("the typedef's name", false)
	if err != nil {
		return err
	}
	td.Name = name.text
	if td.Annotations, err = p.annotations(); err != nil {
		return err
	}
	td.Ref = &Type{Kind: TypedefKind, Name: td.Name, File: p.file, Typedef: td, Annotations: td.Annotations, Pos: td.Pos}
	p.file.Typedefs = append(p.file.Typedefs, td)
	return nil
}

// enum parses enum Name { values } [annotations].
func (p *parser) enum() error {
	e := &Enum{File: p.file, Doc: p.doc, Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	name, err := p.name("the enum's name", false)
	if err != nil {
		return err
	}
	e.Name = name.text
	if err := p.symbol("{"); err != nil {
		return err
	}
	next := int64(0)
	for !p.is("}") {
		v, err := p.enumValue(next)
		if err != nil {
			return err
		}
		v.Enum = e
		e.Values = append(e.Values, v)
		next = int64(v.Value) + 1
	}
	if err := p.next(); err != nil {
		return err
	}
	if e.Annotations, err = p.annotations(); err != nil {
		return err
	}
	e.Ref = &Type{Kind: EnumKind, Name: e.Name, File: p.file, Enum: e, Annotations: e.Annotations, Pos: e.Pos}
	p.file.Enums = append(p.file.Enums, e)
	return nil
}

// enumValue parses NAME [= integer] [annotations] [,|;]; next is the
// value an implicit one takes.
func (p *parser) enumValue(next int64) (*EnumValue, error) {
	doc := p.lx.docs.take()
	name, err := p.name("an enum value's name or \"}\"", false)
	if err != nil {
		return nil, err
	}
	v := &EnumValue{Name: name.text, Doc: doc, Pos: name.pos}
	if ok, err := p.accept("="); err != nil {
		return nil, err
	} else if ok {
		if p.tok.kind != tInt {
			return nil, p.expected("an integer")
		}
		next = p.tok.i
		if err := p.next(); err != nil {
			return nil, err
		}
	} else {
		v.Implicit = true
	}
	if next < math.MinInt32 || next > math.MaxInt32 {
		return nil, errorf(v.Pos, "enum value %s is %d: expected a value within i32", v.Name, next)
	}
	v.Value = int32(next)
	if v.Annotations, err = p.annotations(); err != nil {
		return nil, err
	}
	return v, p.separator()
}

// structDef parses struct|union Name [xsd_all] { fields } [annotations],
// or exception Name { fields } [annotations].
func (p *parser) structDef(kind Kind) error {
	s := &Struct{Kind: kind, File: p.file, Doc: p.doc, Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	name, err := p.name("the "+kind.String()+"'s name", false)
	if err != nil {
		return err
	}
	s.Name = name.text
	if kind != ExceptionKind && p.isWord("xsd_all") {
		s.XsdAll = true
		if err := p.next(); err != nil {
			return err
		}
	}
	if err := p.symbol("{"); err != nil {
		return err
	}
	if s.Fields, err = p.fields("}"); err != nil {
		return err
	}
	if s.Annotations, err = p.annotations(); err != nil {
		return err
	}
	s.Ref = &Type{Kind: kind, Name: s.Name, File: p.file, Struct: s, Annotations: s.Annotations, Pos: s.Pos}
	p.file.Structs = append(p.file.Structs, s)
	return nil
}

// fields parses fields up to and including the closing symbol.
func (p *parser) fields(closing string) ([]*Field, error) {
	var fields []*Field
	implicit := int64(-1)
	for !p.is(closing) {
		f, err := p.field(&implicit)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, p.next()
}

// field parses [id:] [required|optional] type [&] name [= value]
// [xsd_optional] [xsd_nillable] [xsd_attrs {...}] [annotations] [,|;].
func (p *parser) field(implicit *int64) (*Field, error) {
	f := &Field{Doc: p.lx.docs.take(), Pos: p.tok.pos}
	if err := p.fieldID(f, implicit); err != nil {
		return nil, err
	}
	if err := p.requiredness(f); err != nil {
		return nil, err
	}
	var err error
	if f.Type, err = p.fieldType(); err != nil {
		return nil, err
	}
	if f.Reference, err = p.accept("&"); err != nil {
		return nil, err
	}
	name, err := p.name("the field's name", false)
	if err != nil {
		return nil, err
	}
	f.Name = name.text
	if ok, err := p.accept("="); err != nil {
		return nil, err
	} else if ok {
		if f.raw, err = p.constValue(); err != nil {
			return nil, err
		}
	}
	if err := p.xsd(); err != nil {
		return nil, err
	}
	if f.Annotations, err = p.annotations(); err != nil {
		return nil, err
	}
	return f, p.separator()
}

// fieldID parses "id:"; without one, or with one below 1, the field gets
// the next implicit id (-1, -2, ...), as the Apache compiler assigns.
func (p *parser) fieldID(f *Field, implicit *int64) error {
	id := int64(0)
	if p.tok.kind == tInt && p.tok.text != "true" && p.tok.text != "false" {
		id, f.Pos = p.tok.i, p.tok.pos
		if err := p.next(); err != nil {
			return err
		}
		if err := p.symbol(":"); err != nil {
			return err
		}
	}
	if id <= 0 {
		id, f.Implicit = *implicit, true
		*implicit--
	}
	if id < math.MinInt16 || id > math.MaxInt16 {
		return errorf(f.Pos, "field id %d out of range: expected 1 to %d", id, math.MaxInt16)
	}
	f.ID = int16(id)
	return nil
}

// requiredness parses an optional required or optional.
func (p *parser) requiredness(f *Field) error {
	switch {
	case p.isWord("required"):
		f.Required = Required
	case p.isWord("optional"):
		if !p.inArgs {
			f.Required = Optional
		}
	default:
		return nil
	}
	return p.next()
}

// xsd skips xsd_optional, xsd_nillable and xsd_attrs { fields }, kept by
// the Apache compiler for its XSD generator only.
func (p *parser) xsd() error {
	for _, word := range []string{"xsd_optional", "xsd_nillable"} {
		if p.isWord(word) {
			if err := p.next(); err != nil {
				return err
			}
		}
	}
	if !p.isWord("xsd_attrs") {
		return nil
	}
	if err := p.next(); err != nil {
		return err
	}
	if err := p.symbol("{"); err != nil {
		return err
	}
	_, err := p.fields("}")
	return err
}
