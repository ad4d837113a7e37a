package idl

import (
	"encoding/json"
	"strconv"
)

// render writes a File in the shape of the Apache compiler's JSON
// generator (t_json_generator.cc in 0.17), for TestOracle. The shape's
// rules: enums are i32 and typedefs are looked through; a "type" object
// is written for structs and containers only, with the annotations of the
// type; names from another file are prefixed with its name; booleans are
// 0 and 1; map keys are strings; union members are optional; docs are
// written where there are some.
func render(f *File) map[string]any {
	ns := map[string]any{}
	for _, n := range f.Namespaces {
		ns[n.Scope] = n.Name
	}
	incs := []any{}
	for _, inc := range f.Includes {
		incs = append(incs, inc.File.Name)
	}
	out := map[string]any{"name": f.Name, "namespaces": ns, "includes": incs}
	document(out, f.Doc)
	out["enums"] = each(f.Enums, renderEnum)
	out["typedefs"] = each(f.Typedefs, func(td *Typedef) map[string]any { return renderTypedef(f, td) })
	out["structs"] = each(f.Structs, func(s *Struct) map[string]any { return renderStruct(f, s) })
	out["constants"] = each(f.Consts, func(c *Const) map[string]any { return renderConst(f, c) })
	out["services"] = each(f.Services, func(s *Service) map[string]any { return renderService(f, s) })
	return out
}

func each[T any](list []T, fn func(T) map[string]any) []any {
	out := []any{}
	for _, e := range list {
		out = append(out, fn(e))
	}
	return out
}

func document(m map[string]any, doc string) {
	if doc != "" {
		m["doc"] = doc
	}
}

func annotate(m map[string]any, a Annotations) {
	if len(a) > 0 {
		am := map[string]any{}
		for k, v := range a.Map() {
			am[k] = v
		}
		m["annotations"] = am
	}
}

func renderEnum(e *Enum) map[string]any {
	m := map[string]any{"name": e.Name}
	document(m, e.Doc)
	annotate(m, e.Annotations)
	m["members"] = each(e.Values, func(v *EnumValue) map[string]any {
		vm := map[string]any{"name": v.Name, "value": v.Value}
		document(vm, v.Doc)
		return vm
	})
	return m
}

func renderTypedef(f *File, td *Typedef) map[string]any {
	m := map[string]any{"name": td.Name}
	typeEntries(f, m, "typeId", "type", td.Type)
	document(m, td.Doc)
	annotate(m, td.Annotations)
	return m
}

func renderStruct(f *File, s *Struct) map[string]any {
	m := map[string]any{"name": s.Name, "isException": s.Kind == ExceptionKind, "isUnion": s.Kind == UnionKind}
	document(m, s.Doc)
	annotate(m, s.Annotations)
	m["fields"] = each(s.Fields, func(fd *Field) map[string]any { return renderField(f, fd) })
	return m
}

func renderField(f *File, fd *Field) map[string]any {
	m := map[string]any{"key": fd.ID, "name": fd.Name, "required": requiredName(fd.Required)}
	typeEntries(f, m, "typeId", "type", fd.Type)
	document(m, fd.Doc)
	annotate(m, fd.Annotations)
	if fd.Default != nil {
		m["default"] = renderValue(fd.Default)
	}
	return m
}

func requiredName(r Requiredness) string {
	switch r {
	case Required:
		return "required"
	case Optional:
		return "optional"
	}
	return "req_out"
}

func renderConst(f *File, c *Const) map[string]any {
	m := map[string]any{"name": c.Name, "value": renderValue(c.Value)}
	typeEntries(f, m, "typeId", "type", c.Type)
	document(m, c.Doc)
	return m
}

func renderService(f *File, s *Service) map[string]any {
	m := map[string]any{"name": s.Name}
	if s.Extends != nil {
		m["extends"] = qualified(f, s.Extends.File, s.Extends.Name)
	}
	document(m, s.Doc)
	annotate(m, s.Annotations)
	m["functions"] = each(s.Functions, func(fn *Function) map[string]any {
		fm := map[string]any{"name": fn.Name, "oneway": fn.Oneway}
		typeEntries(f, fm, "returnTypeId", "returnType", fn.Return)
		document(fm, fn.Doc)
		annotate(fm, fn.Annotations)
		fm["arguments"] = each(fn.Args.Fields, func(fd *Field) map[string]any { return renderField(f, fd) })
		fm["exceptions"] = each(fn.Throws.Fields, func(fd *Field) map[string]any { return renderField(f, fd) })
		return fm
	})
	return m
}

func qualified(from, decl *File, name string) string {
	if decl == from {
		return name
	}
	return decl.Name + "." + name
}

// typeEntries writes idKey (the type's name in the generator's terms) and,
// for structs and containers, objKey (the type spelled out).
func typeEntries(f *File, m map[string]any, idKey, objKey string, t *Type) {
	t = t.Resolved()
	m[idKey] = typeID(t)
	if t.Kind.IsStruct() || t.Kind.IsContainer() {
		m[objKey] = typeSpec(f, t)
	}
}

func typeID(t *Type) string {
	t = t.Resolved()
	if t.Kind == EnumKind {
		return "i32"
	}
	return t.Kind.String()
}

func typeSpec(f *File, t *Type) map[string]any {
	m := map[string]any{"typeId": typeID(t)}
	annotate(m, t.Annotations)
	switch {
	case t.Kind.IsStruct():
		m["class"] = qualified(f, t.File, t.Name)
	case t.Kind == MapKind:
		m["keyTypeId"], m["valueTypeId"] = typeID(t.Key), typeID(t.Elem)
		sub(f, m, "keyType", t.Key)
		sub(f, m, "valueType", t.Elem)
	default:
		m["elemTypeId"] = typeID(t.Elem)
		sub(f, m, "elemType", t.Elem)
	}
	return m
}

func sub(f *File, m map[string]any, key string, t *Type) {
	if t = t.Resolved(); t.Kind.IsStruct() || t.Kind.IsContainer() {
		m[key] = typeSpec(f, t)
	}
}

// renderValue writes a constant as the generator does: numbers as
// numbers (booleans 0 and 1, enums their value), lists as arrays, maps and
// structs as objects with string keys.
func renderValue(v *Value) any {
	switch k := v.Type.Resolved().Kind; {
	case k == BoolKind:
		if v.Bool {
			return json.Number("1")
		}
		return json.Number("0")
	case k >= I8Kind && k <= I64Kind || k == EnumKind:
		return json.Number(strconv.FormatInt(v.Int, 10))
	case k == DoubleKind:
		return json.Number(strconv.FormatFloat(v.Double, 'g', 15, 64))
	case k == StringKind || k == BinaryKind || k == UUIDKind:
		return v.String
	case k == ListKind || k == SetKind:
		out := []any{}
		for _, e := range v.List {
			out = append(out, renderValue(e))
		}
		return out
	}
	out := map[string]any{}
	for _, e := range v.Map {
		key := renderValue(e.Key)
		if n, ok := key.(json.Number); ok {
			key = string(n)
		}
		out[key.(string)] = renderValue(e.Value)
	}
	return out
}
