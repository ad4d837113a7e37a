package idl

import (
	"math"
	"strconv"
)

// parser reads one file's tokens into a File, by recursive descent over
// the Apache compiler's grammar (thrifty.yy). Type names are left for
// resolve; constant values are kept as written (rawValue) for const.go.
type parser struct {
	lx       *lexer
	tok      token
	file     *File
	maxDepth int
	depth    int
	inArgs   bool // parsing a function's arguments or throws: optional is ignored
}

// rawValue is a constant value as written.
type rawValue struct {
	tok     token // the literal or identifier; for lists and maps the opening bracket
	list    []*rawValue
	entries [][2]*rawValue
	isMap   bool
}

// syntaxOf parses src as the file name; it resolves nothing.
func syntaxOf(name string, src []byte, maxDepth int) (*File, error) {
	p := &parser{lx: newLexer(name, src), file: &File{Path: name, Name: fileName(name)}, maxDepth: maxDepth}
	if err := p.next(); err != nil {
		return nil, err
	}
	if err := p.headers(); err != nil {
		return nil, err
	}
	for p.tok.kind != tEOF {
		if err := p.definition(); err != nil {
			return nil, err
		}
	}
	return p.file, nil
}

func (p *parser) next() error {
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) is(sym string) bool { return p.tok.kind == tSymbol && p.tok.text == sym }

func (p *parser) isWord(word string) bool { return p.tok.kind == tIdent && p.tok.text == word }

func (p *parser) expected(what string) error {
	return errorf(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
}

func (p *parser) symbol(sym string) error {
	if !p.is(sym) {
		return p.expected(strconv.Quote(sym))
	}
	return p.next()
}

// accept consumes sym when it is next.
func (p *parser) accept(sym string) (bool, error) {
	if !p.is(sym) {
		return false, nil
	}
	return true, p.next()
}

// separator consumes an optional , or ;.
func (p *parser) separator() error {
	if p.is(",") || p.is(";") {
		return p.next()
	}
	return nil
}

// name consumes an identifier that is not a keyword; dotted says whether
// it may hold dots (a reference) or not (a declaration).
func (p *parser) name(what string, dotted bool) (token, error) {
	t := p.tok
	if t.kind != tIdent || keywords[t.text] {
		return t, p.expected(what)
	}
	if !dotted && containsDot(t.text) {
		return t, errorf(t.pos, "expected %s, found %q: a declared name has no dots", what, t.text)
	}
	return t, p.next()
}

func containsDot(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return true
		}
	}
	return false
}

// keywords may not be used as names.
var keywords = map[string]bool{
	"namespace": true, "cpp_include": true, "cpp_type": true, "include": true, "void": true,
	"bool": true, "byte": true, "i8": true, "i16": true, "i32": true, "i64": true, "double": true,
	"string": true, "binary": true, "uuid": true, "map": true, "list": true, "set": true,
	"oneway": true, "async": true, "typedef": true, "struct": true, "union": true,
	"exception": true, "extends": true, "throws": true, "service": true, "enum": true,
	"const": true, "required": true, "optional": true, "xsd_all": true, "xsd_optional": true,
	"xsd_nillable": true, "xsd_attrs": true, "slist": true, "senum": true,
}

// legacy are the declarations the Apache compiler names and refuses.
var legacy = map[string]string{
	"cpp_namespace": "namespace cpp", "java_package": "namespace java",
	"delphi_namespace": "namespace delphi", "php_namespace": "namespace php",
	"py_module": "namespace py", "perl_package": "namespace perl",
	"ruby_namespace": "namespace ruby", "smalltalk_category": "namespace st",
	"smalltalk_prefix": "namespace st", "xsd_namespace": "namespace xsd",
	"slist": "string", "senum": "string",
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.maxDepth {
		return errorf(p.tok.pos, "nesting deeper than %d", p.maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// headers parses the includes, namespaces and cpp_includes before the
// definitions.
func (p *parser) headers() error {
	for {
		var err error
		switch {
		case p.isWord("include"):
			err = p.include()
		case p.isWord("namespace"):
			err = p.namespace()
		case p.isWord("cpp_include"):
			err = p.cppInclude()
		default:
			return p.refuseLegacy()
		}
		if err == nil {
			err = p.separator()
		}
		if err != nil {
			return err
		}
	}
}

func (p *parser) refuseLegacy() error {
	if p.tok.kind == tIdent {
		if use, ok := legacy[p.tok.text]; ok {
			return errorf(p.tok.pos, "%q is no longer supported: use %s", p.tok.text, use)
		}
	}
	return nil
}

func (p *parser) include() error {
	pos := p.tok.pos
	if err := p.next(); err != nil {
		return err
	}
	if p.tok.kind != tString {
		return p.expected("the included file's path in quotes")
	}
	p.file.Includes = append(p.file.Includes, &Include{Path: p.tok.text, Pos: pos})
	return p.next()
}

func (p *parser) cppInclude() error {
	if err := p.next(); err != nil {
		return err
	}
	if p.tok.kind != tString {
		return p.expected("a path in quotes")
	}
	p.file.CppIncludes = append(p.file.CppIncludes, p.tok.text)
	return p.next()
}

func (p *parser) namespace() error {
	ns := &Namespace{Pos: p.tok.pos}
	if err := p.next(); err != nil {
		return err
	}
	if p.is("*") {
		ns.Scope = "*"
		if err := p.next(); err != nil {
			return err
		}
	} else {
		t, err := p.name("a namespace scope (a language, or *)", true)
		if err != nil {
			return err
		}
		ns.Scope = t.text
	}
	t, err := p.name("a namespace name", true)
	if err != nil {
		return err
	}
	ns.Name = t.text
	if ns.Annotations, err = p.annotations(); err != nil {
		return err
	}
	p.file.Namespaces = append(p.file.Namespaces, ns)
	return nil
}

// definition parses one const, typedef, enum, struct, union, exception or
// service.
func (p *parser) definition() error {
	var err error
	switch {
	case p.isWord("const"):
		err = p.constDef()
	case p.isWord("typedef"):
		err = p.typedef()
	case p.isWord("enum"):
		err = p.enum()
	case p.isWord("struct"):
		err = p.structDef(StructKind)
	case p.isWord("union"):
		err = p.structDef(UnionKind)
	case p.isWord("exception"):
		err = p.structDef(ExceptionKind)
	case p.isWord("service"):
		err = p.service()
	case p.isWord("include") || p.isWord("namespace") || p.isWord("cpp_include"):
		return errorf(p.tok.pos, "expected a definition, found %s: includes and namespaces come before the definitions", p.tok.describe())
	default:
		if err := p.refuseLegacy(); err != nil {
			return err
		}
		return p.expected("a definition (const, typedef, enum, struct, union, exception or service)")
	}
	if err != nil {
		return err
	}
	return p.separator()
}

func (p *parser) constDef() error {
	c := &Const{File: p.file, Pos: p.tok.pos}
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

func (p *parser) typedef() error {
	td := &Typedef{File: p.file, Pos: p.tok.pos}
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

func (p *parser) enum() error {
	e := &Enum{File: p.file, Pos: p.tok.pos}
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

func (p *parser) enumValue(next int64) (*EnumValue, error) {
	name, err := p.name("an enum value's name or \"}\"", false)
	if err != nil {
		return nil, err
	}
	v := &EnumValue{Name: name.text, Pos: name.pos}
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

func (p *parser) structDef(kind Kind) error {
	s := &Struct{Kind: kind, File: p.file, Pos: p.tok.pos}
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
	f := &Field{Pos: p.tok.pos}
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

func (p *parser) service() error {
	s := &Service{File: p.file, Pos: p.tok.pos}
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
	fn := &Function{Pos: p.tok.pos}
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
