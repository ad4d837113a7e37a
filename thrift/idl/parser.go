package idl

import (
	"strconv"
	"strings"
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
	inArgs   bool   // parsing a function's arguments or throws: optional is ignored
	doc      string // the doc comment of the definition being parsed
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
	p.file.Doc = p.lx.docs.file()
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
	if !dotted && strings.Contains(t.text, ".") {
		return t, errorf(t.pos, "expected %s, found %q: a declared name has no dots", what, t.text)
	}
	return t, p.next()
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

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.maxDepth {
		return errorf(p.tok.pos, "nesting deeper than %d", p.maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// definition parses one const, typedef, enum, struct, union, exception or
// service.
func (p *parser) definition() error {
	p.doc = p.lx.docs.take()
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
