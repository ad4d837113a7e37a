package cli

import (
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/thrift/idl"
)

// idlText writes Thrift declarations back as IDL source, for describe
// --idl. Names declared in another file than from are qualified with that
// file's name, as the IDL itself writes them.
type idlText struct {
	b    strings.Builder
	from *idl.File
}

func (w *idlText) doc(doc, indent string) {
	if doc == "" {
		return
	}
	w.b.WriteString(indent + "/**\n")
	for _, line := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
		w.b.WriteString(strings.TrimRight(indent+" * "+line, " ") + "\n")
	}
	w.b.WriteString(indent + " */\n")
}

func (w *idlText) annotations(a idl.Annotations) {
	if len(a) == 0 {
		return
	}
	w.b.WriteString(" (")
	for i, an := range a {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.b.WriteString(an.Key + " = " + strconv.Quote(an.Value))
	}
	w.b.WriteString(")")
}

func (w *idlText) typ(t *idl.Type) {
	switch {
	case t == nil:
		w.b.WriteString("void")
	case t.Kind == idl.MapKind:
		w.b.WriteString("map<")
		w.typ(t.Key)
		w.b.WriteString(", ")
		w.typ(t.Elem)
		w.b.WriteString(">")
	case t.Kind == idl.ListKind || t.Kind == idl.SetKind:
		w.b.WriteString(t.Kind.String() + "<")
		w.typ(t.Elem)
		w.b.WriteString(">")
	default:
		w.b.WriteString(w.name(t.File, t.Name))
	}
	if !isNamed(t) {
		w.annotations(t.Annotations)
	}
}

func isNamed(t *idl.Type) bool {
	return t != nil && (t.Kind.IsStruct() || t.Kind == idl.EnumKind || t.Kind == idl.TypedefKind)
}

func (w *idlText) name(f *idl.File, name string) string {
	if f == nil || f == w.from {
		return name
	}
	return f.Name + "." + name
}

func (w *idlText) value(v *idl.Value) {
	if v.Ref != "" {
		w.b.WriteString(v.Ref)
		return
	}
	switch k := v.Type.Resolved().Kind; {
	case k == idl.BoolKind:
		w.b.WriteString(strconv.FormatBool(v.Bool))
	case k >= idl.I8Kind && k <= idl.I64Kind || k == idl.EnumKind:
		w.b.WriteString(strconv.FormatInt(v.Int, 10))
	case k == idl.DoubleKind:
		w.b.WriteString(strconv.FormatFloat(v.Double, 'g', -1, 64))
	case k == idl.StringKind || k == idl.BinaryKind || k == idl.UUIDKind:
		w.b.WriteString(strconv.Quote(v.String))
	case k == idl.ListKind || k == idl.SetKind:
		w.b.WriteString("[")
		for i, e := range v.List {
			if i > 0 {
				w.b.WriteString(", ")
			}
			w.value(e)
		}
		w.b.WriteString("]")
	default:
		w.entries(v.Map)
	}
}

func (w *idlText) entries(m []*idl.MapEntry) {
	w.b.WriteString("{")
	for i, e := range m {
		if i > 0 {
			w.b.WriteString(", ")
		}
		if e.Field != nil {
			w.b.WriteString(strconv.Quote(e.Field.Name))
		} else {
			w.value(e.Key)
		}
		w.b.WriteString(": ")
		w.value(e.Value)
	}
	w.b.WriteString("}")
}

func (w *idlText) field(f *idl.Field, union bool) {
	w.b.WriteString(strconv.Itoa(int(f.ID)) + ": ")
	if f.Required != idl.Default && !union {
		w.b.WriteString(f.Required.String() + " ")
	}
	w.typ(f.Type)
	if f.Reference {
		w.b.WriteString("&")
	}
	w.b.WriteString(" " + f.Name)
	if f.Default != nil {
		w.b.WriteString(" = ")
		w.value(f.Default)
	}
	w.annotations(f.Annotations)
}

func (w *idlText) structDecl(s *idl.Struct) {
	w.doc(s.Doc, "")
	w.b.WriteString(s.Kind.String() + " " + s.Name + " {\n")
	for _, f := range s.Fields {
		w.doc(f.Doc, "  ")
		w.b.WriteString("  ")
		w.field(f, s.Kind == idl.UnionKind)
		w.b.WriteString("\n")
	}
	w.b.WriteString("}")
	w.annotations(s.Annotations)
	w.b.WriteString("\n")
}

func (w *idlText) fieldList(s *idl.Struct) {
	w.b.WriteString("(")
	for i, f := range s.Fields {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.field(f, false)
	}
	w.b.WriteString(")")
}

func (w *idlText) function(fn *idl.Function) {
	if fn.Oneway {
		w.b.WriteString("oneway ")
	}
	w.typ(fn.Return)
	w.b.WriteString(" " + fn.Name)
	w.fieldList(fn.Args)
	if fn.Throws != nil && len(fn.Throws.Fields) > 0 {
		w.b.WriteString(" throws ")
		w.fieldList(fn.Throws)
	}
	w.annotations(fn.Annotations)
}

func (w *idlText) service(s *idl.Service) {
	w.doc(s.Doc, "")
	w.b.WriteString("service " + s.Name)
	if s.Extends != nil {
		w.b.WriteString(" extends " + w.name(s.Extends.File, s.Extends.Name))
	}
	w.b.WriteString(" {\n")
	for _, fn := range s.Functions {
		w.doc(fn.Doc, "  ")
		w.b.WriteString("  ")
		w.function(fn)
		w.b.WriteString("\n")
	}
	w.b.WriteString("}")
	w.annotations(s.Annotations)
	w.b.WriteString("\n")
}

func (w *idlText) enum(e *idl.Enum) {
	w.doc(e.Doc, "")
	w.b.WriteString("enum " + e.Name + " {\n")
	for _, v := range e.Values {
		w.doc(v.Doc, "  ")
		w.b.WriteString("  " + v.Name + " = " + strconv.Itoa(int(v.Value)))
		w.annotations(v.Annotations)
		w.b.WriteString("\n")
	}
	w.b.WriteString("}")
	w.annotations(e.Annotations)
	w.b.WriteString("\n")
}

func (w *idlText) typedef(td *idl.Typedef) {
	w.doc(td.Doc, "")
	w.b.WriteString("typedef ")
	w.typ(td.Type)
	w.b.WriteString(" " + td.Name)
	w.annotations(td.Annotations)
	w.b.WriteString("\n")
}

func (w *idlText) constDecl(c *idl.Const) {
	w.doc(c.Doc, "")
	w.b.WriteString("const ")
	w.typ(c.Type)
	w.b.WriteString(" " + c.Name + " = ")
	w.value(c.Value)
	w.b.WriteString("\n")
}
