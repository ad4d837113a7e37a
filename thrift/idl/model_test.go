package idl

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

func parseCorpus(t *testing.T, name string) *File {
	t.Helper()
	f, err := ParseFile(name, corpusOptions())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func structOf(t *testing.T, f *File, name string) *Struct {
	t.Helper()
	typ := f.Type(name)
	if typ == nil || typ.Struct == nil {
		t.Fatalf("no struct %s in %s", name, f.Path)
	}
	return typ.Struct
}

// TestResolvedTypes: named types are shared pointers, typedefs stay
// visible and resolve, containers hold resolved element types.
func TestResolvedTypes(t *testing.T) {
	f := parseCorpus(t, "all.thrift")
	shared := f.Includes[0].File
	base := f.Includes[1].File
	if shared.Includes[0].File != base {
		t.Error("base.thrift, included twice, was parsed twice")
	}
	every := structOf(t, f, "Everything")
	shape := every.FieldByName("shape").Type
	if shape != shared.Type("Shape") || shape.Kind != StructKind || shape.Struct.File != shared {
		t.Errorf("shape field type %+v is not shared.Shape's Ref", shape)
	}
	count := every.FieldByName("typedef_field").Type
	if count.Kind != TypedefKind || count.Name != "Count" || count.Resolved().Kind != I32Kind {
		t.Errorf("typedef_field: %v %s resolves to %v", count.Kind, count.Name, count.Resolved().Kind)
	}
	if got := count.Typedef.Type.Name; got != "Int" {
		t.Errorf("Count aliases %s, want the typedef Int", got)
	}
	keys := every.FieldByName("struct_keys").Type
	if keys.Key != shape || keys.Elem.Kind != SetKind || keys.Elem.Elem != f.Type("Status") {
		t.Errorf("struct_keys is %s", keys)
	}
	if got := every.FieldByName("container_keys").Type.String(); got != "map<list<i32>,map<set<string>,Status>>" {
		t.Errorf("container_keys prints %s", got)
	}
	if got := every.FieldByName("origin").Type.Resolved(); got != base.Type("Point") {
		t.Errorf("origin resolves to %s, want base.Point", got)
	}
	if f := every.FieldByName("tiny").Type.Resolved(); f.Kind != I8Kind {
		t.Errorf("byte resolves to %v", f.Kind)
	}
}

func TestFields(t *testing.T) {
	f := parseCorpus(t, "all.thrift")
	var got []string
	for _, fd := range structOf(t, f, "Implicit").Fields {
		got = append(got, fmt.Sprintf("%d:%s:%v:%v", fd.ID, fd.Name, fd.Implicit, fd.Required))
	}
	want := "-1:first:true:default 2:second:false:default -2:third:true:default -3:fourth:true:required -4:fifth:true:optional"
	if strings.Join(got, " ") != want {
		t.Errorf("Implicit fields\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	every := structOf(t, f, "Everything")
	if fd := every.Field(32767); fd == nil || fd.Name != "max_id" {
		t.Errorf("Field(32767) = %v", fd)
	}
	if !every.FieldByName("self_ref").Reference || every.FieldByName("recursive").Reference {
		t.Error("& reference not kept")
	}
	if ct := every.FieldByName("cpp_map").Type.CppType; ct != "std::unordered_map<int32_t, std::string>" {
		t.Errorf("cpp_type %q", ct)
	}
	if !structOf(t, f, "XsdAll").XsdAll {
		t.Error("xsd_all not kept")
	}
	either := structOf(t, f, "Either")
	if either.Kind != UnionKind || either.FieldByName("ignored_requiredness").Required != Optional {
		t.Error("union members are not optional")
	}
	if structOf(t, f, "Failure").Kind != ExceptionKind {
		t.Error("Failure is not an exception")
	}
}

func TestAnnotations(t *testing.T) {
	f := parseCorpus(t, "all.thrift")
	every := structOf(t, f, "Everything")
	labels := every.FieldByName("labels")
	if v, ok := labels.Annotations.Get("field.note"); !ok || v != "annotated field" {
		t.Errorf("field annotation %q %v", v, ok)
	}
	if v, _ := labels.Annotations.Get("flag"); v != "1" {
		t.Errorf("annotation without a value is %q, want 1", v)
	}
	if v, _ := labels.Type.Resolved().Annotations.Get("kind"); v != "labels" {
		t.Errorf("container annotation through the typedef: %q", v)
	}
	if v, _ := every.FieldByName("annotated_list").Type.Annotations.Get("container.note"); v != "on the list" {
		t.Errorf("list annotation %q", v)
	}
	status := f.Type("Status").Enum
	if v, _ := status.Annotations.Get("enum.note"); v != "statuses" {
		t.Errorf("enum annotation %q", v)
	}
	if v, _ := status.Value("ACTIVE").Annotations.Get("label"); v != "on" {
		t.Errorf("enum value annotation %q", v)
	}
	svc := f.Service("Everywhere")
	if v, _ := svc.Annotations.Get("service.note"); v != "the service" {
		t.Errorf("service annotation %q", v)
	}
	pick := svc.Function("pick")
	if m := pick.Annotations.Map(); m["http.method"] != "GET" || m["http.path"] != "/pick" {
		t.Errorf("function annotations %v", m)
	}
	if v, _ := f.Typedefs[9].Annotations.Get("doc.note"); v != "a typedef of a typedef" {
		t.Errorf("typedef annotation %q", v)
	}
	shared := f.Includes[0].File
	if shared.Namespaces[1].Annotations[0].Value != "kept" {
		t.Error("namespace annotation lost")
	}
	// The compiler's JSON never shows a base type's annotations, so the
	// oracle cannot check them.
	g, err := Parse("base.thrift", []byte(`struct S { 1: i64 (js.conv = "string") id }`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := g.Structs[0].Fields[0].Type.Annotations.Get("js.conv"); v != "string" {
		t.Errorf("base type annotation %q", v)
	}
	repeated := Annotations{{Key: "k", Value: "a"}, {Key: "k", Value: "b"}}
	if v, _ := repeated.Get("k"); v != "b" || repeated.Map()["k"] != "b" {
		t.Error("a repeated key does not take its last value")
	}
}

func TestEnumsAndConsts(t *testing.T) {
	f := parseCorpus(t, "all.thrift")
	var got []string
	for _, v := range f.Type("Status").Enum.Values {
		got = append(got, fmt.Sprintf("%s=%d", v.Name, v.Value))
	}
	if s := strings.Join(got, " "); s != "UNKNOWN=0 ACTIVE=1 PAUSED=16 STOPPED=17 NEGATIVE=-3 AFTER_NEGATIVE=-2 LAST=2147483647" {
		t.Errorf("Status values %s", s)
	}
	c := func(name string) *Value {
		t.Helper()
		k := f.Const(name)
		if k == nil {
			t.Fatalf("no constant %s", name)
		}
		return k.Value
	}
	if v := c("C_FROM_INT"); v.Double != 42 || v.Int != 0 {
		t.Errorf("double from an integer: %+v", v)
	}
	if !c("C_TRUE").Bool || c("C_FALSE").Bool || !c("C_ONE").Bool {
		t.Error("bool constants")
	}
	if v := c("C_HEX"); v.Int != 31 {
		t.Errorf("+0x1F = %d", v.Int)
	}
	if v := c("C_I16"); v.Int != -32768 {
		t.Errorf("-0x8000 = %d", v.Int)
	}
	if v := c("C_SQ"); v.String != `single 'quoted' \ backslash and "double" inside` {
		t.Errorf("escapes: %q", v.String)
	}
	if v := c("C_REF_DOUBLE"); v.Ref != "C_I32" || v.Double != 2147483647 {
		t.Errorf("reference widened to double: %+v", v)
	}
	if v := c("C_ENUM"); v.Enum == nil || v.Enum.Name != "PAUSED" || v.Int != 16 || v.Ref != "Status.PAUSED" {
		t.Errorf("enum constant %+v", v)
	}
	if v := c("C_ENUM_INT"); v.Enum == nil || v.Enum.Name != "ACTIVE" {
		t.Errorf("enum constant from an integer %+v", v)
	}
	if v := c("C_INCLUDED_ENUM"); v.Enum == nil || v.Enum.Enum.File.Name != "base" {
		t.Errorf("included enum constant %+v", v)
	}
	st := c("C_STRUCT")
	if len(st.Map) != 3 || st.Map[0].Field == nil || st.Map[0].Field.Name != "name" || st.Map[2].Value.List[1].Map[1].Value.Double != 1.5 {
		t.Errorf("struct constant %+v", st)
	}
	if v := c("C_MAP"); len(v.Map) != 3 || v.Map[2].Key.String != "three" || v.Map[2].Value.Int != 3 {
		t.Errorf("map constant in the order written: %+v", v.Map)
	}
	def := structOf(t, f, "Everything").FieldByName("i64_field").Default
	if def.Ref != "C_I64_MAX" || def.Int != 9223372036854775807 {
		t.Errorf("default from a constant %+v", def)
	}
}

func TestServices(t *testing.T) {
	f := parseCorpus(t, "all.thrift")
	third := f.Service("Third")
	every := f.Service("Everywhere")
	if third.Extends != every || every.Extends != f.Includes[0].File.Service("Shared") || every.Extends.Extends.Name != "Base" {
		t.Error("extends chain not resolved")
	}
	if fn := third.Function("ping"); fn == nil || fn.Service.Name != "Base" {
		t.Error("Function does not look through extends")
	}
	fire := every.Function("fire")
	if !fire.Oneway || fire.Return.Kind != VoidKind || fire.Args.Name != "fire_args" || len(fire.Args.Fields) != 2 {
		t.Errorf("fire: %+v", fire)
	}
	if !every.Function("legacy_async").Oneway {
		t.Error("async is not oneway")
	}
	echo := every.Function("echo")
	if len(echo.Throws.Fields) != 3 || echo.Throws.Fields[2].Type.Struct.Name != "NotFound" {
		t.Errorf("echo throws %v", echo.Throws.Fields)
	}
	var result []string
	for _, fd := range echo.Result.Fields {
		result = append(result, fmt.Sprintf("%d:%s:%s:%v", fd.ID, fd.Name, fd.Type, fd.Required))
	}
	if got := strings.Join(result, " "); echo.Result.Name != "echo_result" || got != "0:success:Everything:optional 1:failure:Failure:optional 2:other:Other:optional 3:nf:NotFound:optional" {
		t.Errorf("%s: %s", echo.Result.Name, got)
	}
	if r := every.Function("nothing").Result; len(r.Fields) != 0 {
		t.Errorf("void function's result has %d fields", len(r.Fields))
	}
	if fire.Result != nil {
		t.Error("oneway function has a result")
	}
	many := every.Function("many")
	if many.Args.FieldByName("filter").Required != Default || many.Args.FieldByName("count").Required != Required {
		t.Error("optional in arguments is not ignored, or required lost")
	}
	if id := many.Args.FieldByName("implicit_arg").ID; id != -1 {
		t.Errorf("implicit argument id %d", id)
	}
	if id := every.Function("counted").Args.Fields[0].ID; id != -1 {
		t.Errorf("argument -1: id %d", id)
	}
	if f.Namespace("go") != "rpckit.all" || f.Includes[1].File.Namespace("java") != "rpckit.base.all" || f.Namespace("rb") != "" {
		t.Error("namespaces")
	}
	if len(f.CppIncludes) != 1 || f.CppIncludes[0] != "<unordered_map>" {
		t.Errorf("cpp_include %v", f.CppIncludes)
	}
}

// TestUUID covers what the 0.17 compiler cannot check: uuid fields,
// typedefs, constants, defaults and map keys.
func TestUUID(t *testing.T) {
	f := parseCorpus(t, "uuid.thrift")
	tracked := structOf(t, f, "Tracked")
	if k := tracked.FieldByName("id").Type.Kind; k != UUIDKind {
		t.Errorf("uuid field is %v", k)
	}
	other := tracked.FieldByName("other")
	if other.Type.Resolved().Kind != UUIDKind || other.Default.String != "00000000-0000-0000-0000-000000000001" || other.Default.Ref != "C_UUID" {
		t.Errorf("uuid typedef field %+v", other)
	}
	if ids := tracked.FieldByName("ids").Default; ids.List[0].String != "6B29FC40-CA47-1067-B31D-00DD010662DA" {
		t.Errorf("list<uuid> default %+v", ids)
	}
	if names := tracked.FieldByName("names").Type; names.Key.Kind != UUIDKind {
		t.Errorf("map<uuid, string> key %v", names.Key.Kind)
	}
	if c := f.Const("C_ID").Value; c.String != "{6b29fc40-ca47-1067-b31d-00dd010662da}" {
		t.Errorf("braced uuid constant %q", c.String)
	}
}

// TestConstReferences: constants of container types refer to others,
// converted to the element types they are given, in any order.
func TestConstReferences(t *testing.T) {
	src := `
const list<double> D = I
const list<i32> I = [1, 2]
const map<string, list<i64>> M = {"a": I}
const P ORIGIN = {"x": 1}
struct P { 1: double x, 2: set<i32> none = {} }
`
	f, err := Parse("refs.thrift", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := f.Const("D").Value; d.Ref != "I" || d.List[1].Double != 2 || d.List[1].Type.Kind != DoubleKind {
		t.Errorf("D = %+v", d)
	}
	if m := f.Const("M").Value; m.Map[0].Value.List[0].Int != 1 || m.Map[0].Value.List[0].Type.Kind != I64Kind {
		t.Errorf("M = %+v", m)
	}
	if o := f.Const("ORIGIN").Value; o.Map[0].Value.Double != 1 {
		t.Errorf("ORIGIN = %+v", o)
	}
	if none := f.Type("P").Struct.FieldByName("none").Default; none == nil || len(none.List) != 0 || none.Type.Kind != SetKind {
		t.Errorf("{} for a set: %+v", none)
	}
}

// TestBounded: constants that double at every reference are refused
// once they pass MaxValues, instead of growing exponentially.
func TestBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("const list<i32> C0 = [1, 2]\n")
	typ := "list<i32>"
	for i := 1; i <= 40; i++ {
		typ = "list<" + typ + ">"
		fmt.Fprintf(&b, "const %s C%d = [C%d, C%d]\n", typ, i, i-1, i-1)
	}
	fmt.Fprintf(&b, "const %s WIDE = C40\n", strings.ReplaceAll(typ, "i32", "i64"))
	_, err := Parse("big.thrift", []byte(b.String()), Options{MaxDepth: 100})
	checkError(t, "doubling constants", err, "big.thrift:42:264: constants too large: more than 1048576 values")
}

// TestDocs: doc comments reach the elements the Apache compiler gives
// them to (TestOracle compares every one of docs.thrift's).
func TestDocs(t *testing.T) {
	f := parseCorpus(t, "docs.thrift")
	if !strings.HasPrefix(f.Doc, "The file's doc comment") {
		t.Errorf("file doc %q", f.Doc)
	}
	entry := structOf(t, f, "Entry")
	if d := entry.FieldByName("count").Doc; d != "by the newer doc comment\n" {
		t.Errorf("count doc %q", d)
	}
	if d := f.Service("Docs").Function("get").Throws.Fields[0].Doc; d != "When there is none.\n" {
		t.Errorf("throws doc %q", d)
	}
	if d := f.Type("Mood").Enum.Value("HAPPY").Doc; d != "Happy, with trailing blanks.\n" {
		t.Errorf("enum value doc %q", d)
	}
}

// TestIncludeSearch: an include is looked for next to the including file
// first, then in the include paths in order; a leading / starts at the
// root of the file system.
func TestIncludeSearch(t *testing.T) {
	fsys := fstest.MapFS{
		"svc/main.thrift":   {Data: []byte("include \"common.thrift\"\ninclude \"/abs/root.thrift\"\nstruct M { 1: common.C c, 2: root.R r }")},
		"svc/common.thrift": {Data: []byte("struct C { 1: i32 near }")},
		"one/common.thrift": {Data: []byte("struct C { 1: i32 far }")},
		"one/other.thrift":  {Data: []byte("struct O {}")},
		"two/other.thrift":  {Data: []byte("struct O { 1: i32 second }")},
		"abs/root.thrift":   {Data: []byte("include \"other.thrift\"\nstruct R { 1: other.O o }")},
	}
	f, err := ParseFile("svc/main.thrift", Options{FS: fsys, IncludePaths: []string{"one", "two"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Includes[0].File.Path; p != "svc/common.thrift" {
		t.Errorf("common.thrift found at %s, want next to main.thrift", p)
	}
	root := f.Includes[1].File
	if root.Path != "abs/root.thrift" || root.Includes[0].File.Path != "one/other.thrift" {
		t.Errorf("root at %s includes %s, want abs/root.thrift and one/other.thrift", root.Path, root.Includes[0].File.Path)
	}
}
