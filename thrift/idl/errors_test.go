package idl

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// TestErrors: bad IDL fails with the position and the words of the
// problem, what was expected and what was found.
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// Lexical.
		{"struct S {\n  1: string s = \"abc\n}", "bad.thrift:2:21: string not terminated: expected \", found end of line"},
		{"const string S = 'abc", "bad.thrift:1:18: string not terminated: expected ', found end of file"},
		{"const string S = \"a\\qb\"", "bad.thrift:1:20: bad escape in string: expected one of \\r \\n \\t \\\" \\' \\\\, found \\ and 'q'"},
		{"/* never closed\nstruct S {}", "bad.thrift:1:1: comment not terminated: expected \"*/\", found end of file"},
		{"struct S { 1: i32 a } @", "bad.thrift:1:23: unexpected character '@'"},
		{"struct S { 1: i32 é }", "bad.thrift:1:19: unexpected character 'é'"},
		{"const string S = \"é\" x", "bad.thrift:1:22: expected a definition (const, typedef, enum, struct, union, exception or service), found \"x\""},
		{"const i64 X = 0X1F", "bad.thrift:1:16: expected a definition (const, typedef, enum, struct, union, exception or service), found \"X1F\""},
		{"const i64 X = 99999999999999999999", "bad.thrift:1:15: integer 99999999999999999999 out of range of i64"},
		{"const i64 X = 0x10000000000000000", "bad.thrift:1:15: integer 0x10000000000000000 out of range of i64"},
		// Syntax.
		{"struct S {\n  1: i32\n}", "bad.thrift:3:1: expected the field's name, found \"}\""},
		{"struct S {\n  1: i32 a = \n}", "bad.thrift:3:1: expected a constant value, found \"}\""},
		{"struct {}", "bad.thrift:1:8: expected the struct's name, found \"{\""},
		{"struct S { 1 i32 a }", "bad.thrift:1:14: expected \":\", found \"i32\""},
		{"struct S { 1: i32 a", "bad.thrift:1:20: expected a type, found end of file"},
		{"struct S { 1: i32 struct }", "bad.thrift:1:19: expected the field's name, found \"struct\""},
		{"struct a.b { }", "bad.thrift:1:8: expected the struct's name, found \"a.b\": a declared name has no dots"},
		{"service S { void f( }", "bad.thrift:1:21: expected a type, found \"}\""},
		{"service S { void f() throws }", "bad.thrift:1:29: expected \"(\", found \"}\""},
		{"enum E { A = B }", "bad.thrift:1:14: expected an integer, found \"B\""},
		{"enum E { A = 2147483648 }", "bad.thrift:1:10: enum value A is 2147483648: expected a value within i32"},
		{"typedef list<i32 L", "bad.thrift:1:18: expected \">\", found \"L\""},
		{"typedef map<i32> M", "bad.thrift:1:16: expected \",\", found \">\""},
		{"struct S { 1: i32 a (k = v) }", "bad.thrift:1:26: expected the annotation's value in quotes, found \"v\""},
		{"struct S {}\nnamespace go x", "bad.thrift:2:1: expected a definition, found \"namespace\": includes and namespaces come before the definitions"},
		{"foo bar", "bad.thrift:1:1: expected a definition (const, typedef, enum, struct, union, exception or service), found \"foo\""},
		{"cpp_namespace x", "bad.thrift:1:1: \"cpp_namespace\" is no longer supported: use namespace cpp"},
		{"struct S { 1: senum s }", "bad.thrift:1:15: \"senum\" is no longer supported: use string"},
		{"include foo", "bad.thrift:1:9: expected the included file's path in quotes, found \"foo\""},
		{"struct S { 40000: i32 a }", "bad.thrift:1:12: field id 40000 out of range: expected 1 to 32767"},
		{"const list<i32> L = " + strings.Repeat("[", 70), "bad.thrift:1:85: nesting deeper than 64"},
		{"typedef " + strings.Repeat("list<", 70) + "i32", "bad.thrift:1:329: nesting deeper than 64"},
		// Names.
		{"struct S { 1: Missing m }", "bad.thrift:1:15: unknown type \"Missing\""},
		{"struct S { 1: list<map<string, Nope>> m }", "bad.thrift:1:32: unknown type \"Nope\""},
		{"struct S {}\nenum S { A }", "bad.thrift:2:1: S is already defined at bad.thrift:1:1"},
		{"const i32 A = 1\nconst i32 A = 2", "bad.thrift:2:1: constant A is already defined at bad.thrift:1:1"},
		{"enum E { A, B, A }", "bad.thrift:1:16: enum value E.A is already defined at bad.thrift:1:10"},
		{"struct S {\n  1: i32 a\n  1: i32 b\n}", "bad.thrift:3:3: field b of S: id 1 is already used by a at bad.thrift:2:3"},
		{"struct S {\n  1: i32 a\n  2: i64 a\n}", "bad.thrift:3:3: field a of S: the name is already used at bad.thrift:2:3"},
		{"typedef B A\ntypedef A B", "bad.thrift:1:1: typedef cycle: A -> B -> A"},
		{"typedef list<A> A", "bad.thrift:1:1: typedef cycle: A -> A"},
		{"typedef map<string, set<C>> B\ntypedef B C", "bad.thrift:1:1: typedef cycle: B -> C -> B"},
		{"service S extends T {}", "bad.thrift:1:19: service S extends unknown service \"T\""},
		{"service A extends B {}\nservice B extends A {}", "bad.thrift:1:1: service extends itself: A -> B -> A"},
		{"service S { void f()\n void f() }", "bad.thrift:2:2: function f of S is already defined at bad.thrift:1:13"},
		{"service B { void f() }\nservice S extends B { i32 f() }", "bad.thrift:2:23: function f of S is already defined by B at bad.thrift:1:13"},
		{"struct E {}\nservice S { void f() throws (1: E e) }", "bad.thrift:2:30: f throws e: expected an exception, found struct E"},
		{"service S { oneway i32 f() }", "bad.thrift:1:13: oneway function f: expected void, found i32"},
		{"exception X {}\nservice S { oneway void f() throws (1: X x) }", "bad.thrift:2:13: oneway function f: expected no throws, found 1"},
		{"union U { 1: i32 a = 1\n 2: i32 b = 2 }", "bad.thrift:2:2: union U: fields a and b both have a default: expected one at most"},
		// Constant values.
		{"const i32 X = \"one\"", "bad.thrift:1:15: constant X: expected i32, found string \"one\""},
		{"const i8 X = 128", "bad.thrift:1:14: constant X: expected i8, found 128"},
		{"const bool B = 2", "bad.thrift:1:16: constant B: expected bool, found 2"},
		{"const string S = 1.5", "bad.thrift:1:18: constant S: expected string, found 1.5"},
		{"const i32 X = 1.5", "bad.thrift:1:15: constant X: expected i32, found 1.5"},
		{"const list<i32> L = [1, \"two\"]", "bad.thrift:1:25: constant L: expected i32, found string \"two\""},
		{"const map<string, i32> M = [1]", "bad.thrift:1:28: constant M: expected map<string,i32>, found a list"},
		{"const i32 X = {}", "bad.thrift:1:15: constant X: expected i32, found a map"},
		{"const i32 X = Y", "bad.thrift:1:15: constant X: unknown constant or enum value \"Y\""},
		{"const i32 A = B\nconst i32 B = A", "bad.thrift:1:1: constant A refers to itself"},
		{"const string S = \"s\"\nconst i32 X = S", "bad.thrift:2:15: constant X: expected i32, found S (string \"s\", string)"},
		{"enum E { A = 1 }\nconst E X = 2", "bad.thrift:2:13: constant X: expected E, found 2"},
		{"enum E { A }\nenum F { B }\nconst E X = F.B", "bad.thrift:3:13: constant X: expected E, found F.B (0, F)"},
		{"struct P { 1: i32 x }\nconst P C = {\"y\": 1}", "bad.thrift:2:14: constant C: P has no field \"y\""},
		{"struct P { 1: i32 x }\nconst P C = {1: 1}", "bad.thrift:2:14: constant C: expected a field name of P in quotes, found 1"},
		{"struct P { 1: i32 x }\nconst P C = {\"x\": \"1\"}", "bad.thrift:2:19: constant C.x: expected i32, found string \"1\""},
		{"struct S { 1: i16 a = 70000 }", "bad.thrift:1:23: default of S.a: expected i16, found 70000"},
		{"const uuid U = \"not-a-uuid\"", "bad.thrift:1:16: constant U: expected uuid, found string \"not-a-uuid\""},
	} {
		_, err := Parse("bad.thrift", []byte(tc.src), Options{})
		checkError(t, tc.src, err, tc.want)
	}
}

func checkError(t *testing.T, src string, err error, want string) {
	t.Helper()
	var e *Error
	switch {
	case err == nil:
		t.Errorf("%q: no error, want %s", src, want)
	case !errors.As(err, &e):
		t.Errorf("%q: error %T %v is not an *idl.Error", src, err, err)
	case err.Error() != "idl: "+want:
		t.Errorf("%q:\n got %s\nwant idl: %s", src, err, want)
	}
}

// TestIncludeErrors: includes that are missing, cyclic or ambiguous.
func TestIncludeErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"a.thrift":       {Data: []byte("include \"b.thrift\"\nstruct A {}")},
		"b.thrift":       {Data: []byte("\ninclude \"sub/c.thrift\"")},
		"sub/c.thrift":   {Data: []byte("include \"../a.thrift\"")},
		"self.thrift":    {Data: []byte("include 'self.thrift'")},
		"missing.thrift": {Data: []byte("include \"nowhere.thrift\"")},
		"x/dup.thrift":   {Data: []byte("struct D {}")},
		"y/dup.thrift":   {Data: []byte("struct D {}")},
		"twice.thrift":   {Data: []byte("include \"x/dup.thrift\"\ninclude \"y/dup.thrift\"")},
		"bad.thrift":     {Data: []byte("include \"broken.thrift\"")},
		"broken.thrift":  {Data: []byte("struct {")},
		"uses.thrift":    {Data: []byte("include \"x/dup.thrift\"\nstruct U { 1: dup.Nope n }")},
	}
	for _, tc := range []struct{ file, want string }{
		{"a.thrift", "sub/c.thrift:1:1: include cycle: a.thrift -> b.thrift -> sub/c.thrift -> a.thrift"},
		{"self.thrift", "self.thrift:1:1: include cycle: self.thrift -> self.thrift"},
		{"missing.thrift", "missing.thrift:1:1: include \"nowhere.thrift\" not found: searched ., inc"},
		{"twice.thrift", "twice.thrift:2:1: include \"y/dup.thrift\": x/dup.thrift and y/dup.thrift would both be known as dup"},
		{"bad.thrift", "broken.thrift:1:8: expected the struct's name, found \"{\""},
		{"uses.thrift", "uses.thrift:2:15: unknown type \"dup.Nope\""},
		{"absent.thrift", "absent.thrift:1:1: cannot read absent.thrift: file does not exist"},
		{"./sub/../a.thrift", "sub/c.thrift:1:1: include cycle: a.thrift -> b.thrift -> sub/c.thrift -> a.thrift"},
	} {
		_, err := ParseFile(tc.file, Options{FS: fsys, IncludePaths: []string{"inc"}})
		checkError(t, tc.file, err, tc.want)
	}
	_, err := Parse("nofs.thrift", []byte("include \"a.thrift\""), Options{})
	checkError(t, "nofs.thrift", err, "nofs.thrift:1:1: include \"a.thrift\": no file system to read it from (Options.FS is nil)")
}
