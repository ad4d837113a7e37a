package idl

// headers parses the includes, namespaces and cpp_includes before the
// definitions.
func (p *parser) headers() error {
	for {
		if p.isWord("include") || p.isWord("namespace") || p.isWord("cpp_include") {
			p.lx.docs.drop()
		}
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

// refuseLegacy names the declarations the Apache compiler no longer
// takes, and what replaces them.
func (p *parser) refuseLegacy() error {
	if p.tok.kind == tIdent {
		if use, ok := legacy[p.tok.text]; ok {
			return errorf(p.tok.pos, "%q is no longer supported: use %s", p.tok.text, use)
		}
	}
	return nil
}

// include parses include "path".
func (p *parser) include() error {
	pos := p.tok.pos
	if err := p.next(); err != nil {
		return err
	}
	if p.tok.kind != tString {
		return p.expected("the included file's path in quotes")
	}
	p.file.Includes = append(p.file.Includes, &Include{Path: p.tok.text, Pos: pos})
	p.lx.docs.header()
	return p.next()
}

// cppInclude parses cpp_include "path".
func (p *parser) cppInclude() error {
	if err := p.next(); err != nil {
		return err
	}
	if p.tok.kind != tString {
		return p.expected("a path in quotes")
	}
	p.file.CppIncludes = append(p.file.CppIncludes, p.tok.text)
	p.lx.docs.header()
	return p.next()
}

// namespace parses namespace scope|* name [annotations].
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
	p.lx.docs.header()
	return nil
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
