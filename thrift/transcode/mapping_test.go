package transcode_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

const testIDL = `
enum Color { RED = 1, GREEN = 2 }
struct Inner {
  1: required string name
  2: optional i64 big (api.js_conv)
}
struct Outer {
  1: required Inner inner
  2: list<Inner> items
  3: map<Color, double> weights
  4: map<Inner, i32> byInner
  5: i64 plain
  6: binary data
  7: Color color
  8: bool on
  9: set<i16> small
  10: uuid id
  11: optional string text = "default"
}
union Choice {
  1: i32 n
  2: string s
}
struct Deep { 1: optional Deep next }
`

func testType(t *testing.T, name string) *dynamic.Type {
	t.Helper()
	f, err := idl.Parse("test.thrift", []byte(testIDL), idl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c dynamic.Cache
	return c.Type(f.Type(name))
}

// roundTrip converts JSON to Thrift and back with the given options.
func roundTrip(t *testing.T, typ *dynamic.Type, in string, mo transcode.MarshalOptions) string {
	t.Helper()
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		b, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(typ, []byte(in))
		if err != nil {
			t.Fatalf("Unmarshal(%s): %v", in, err)
		}
		if err := dynamic.Validate(typ, p, b); err != nil {
			t.Fatalf("Unmarshal(%s) wrote bytes that do not validate: %v", in, err)
		}
		mo.Protocol = p
		out, err := mo.Marshal(typ, b)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if p == wire.Compact {
			return string(out)
		}
	}
	return ""
}

func TestMapping(t *testing.T) {
	outer := testType(t, "Outer")
	tests := []struct {
		name, in, want string
		opts           transcode.MarshalOptions
	}{
		{"names and numbers", `{"inner":{"name":"x","big":"12"},"plain":-3,"color":2,"on":true}`,
			`{"inner":{"name":"x","big":"12"},"plain":-3,"color":2,"on":true}`, transcode.MarshalOptions{}},
		{"js_conv accepts a number", `{"inner":{"name":"x","big":12}}`, `{"inner":{"name":"x","big":"12"}}`, transcode.MarshalOptions{}},
		{"i64 strings in and out", `{"inner":{"name":""},"plain":"9007199254740993"}`,
			`{"inner":{"name":""},"plain":"9007199254740993"}`, transcode.MarshalOptions{I64Strings: true}},
		{"enum names", `{"inner":{"name":""},"color":"GREEN","weights":{"RED":1.5,"2":-0.25}}`,
			`{"inner":{"name":""},"color":"GREEN","weights":{"RED":1.5,"GREEN":-0.25}}`, transcode.MarshalOptions{EnumNames: true}},
		{"enum numbers", `{"inner":{"name":""},"color":"GREEN","weights":{"RED":1.5}}`,
			`{"inner":{"name":""},"color":2,"weights":{"1":1.5}}`, transcode.MarshalOptions{}},
		{"ids as keys", `{"1":{"1":"n"},"5":7}`, `{"1":{"1":"n"},"5":7}`, transcode.MarshalOptions{UseIDs: true}},
		{"base64 url and unpadded in, std out", `{"inner":{"name":""},"data":"-_8"}`, `{"inner":{"name":""},"data":"+/8="}`, transcode.MarshalOptions{}},
		{"NaN and infinities", `{"inner":{"name":""},"weights":{"1":"NaN","2":"-Infinity"}}`,
			`{"inner":{"name":""},"weights":{"1":"NaN","2":"-Infinity"}}`, transcode.MarshalOptions{}},
		{"struct keys as entries", `{"inner":{"name":""},"byInner":[{"value":3,"key":{"name":"k"}},{"key":{"name":"j"},"value":4}]}`,
			`{"inner":{"name":""},"byInner":[{"key":{"name":"k"},"value":3},{"key":{"name":"j"},"value":4}]}`, transcode.MarshalOptions{}},
		{"sets and lists", `{"inner":{"name":""},"items":[{"name":"a"},{"name":"b\u00e9\n"}],"small":[1,-2]}`,
			`{"inner":{"name":""},"items":[{"name":"a"},{"name":"bé\n"}],"small":[1,-2]}`, transcode.MarshalOptions{}},
		{"uuid", `{"inner":{"name":""},"id":"00112233-4455-6677-8899-AABBCCDDEEFF"}`,
			`{"inner":{"name":""},"id":"00112233-4455-6677-8899-aabbccddeeff"}`, transcode.MarshalOptions{}},
		{"null is absent, defaults are not filled in", `{"inner":{"name":"","big":null},"text":null}`, `{"inner":{"name":""}}`, transcode.MarshalOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := roundTrip(t, outer, tt.in, tt.opts); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestLongContainers(t *testing.T) {
	outer := testType(t, "Outer")
	var b strings.Builder
	b.WriteString(`{"inner":{"name":""},"small":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strings.Repeat("1", 1+i%4))
	}
	b.WriteString(`],"weights":{`)
	for i := range 200 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString(`},"inner":null}`)
	in := strings.Replace(b.String(), `,"inner":null}`, `}`, 1)
	if got := roundTrip(t, outer, in, transcode.MarshalOptions{}); got != in {
		t.Errorf("got  %s\nwant %s", got, in)
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct {
		typ, in, want string
		opts          transcode.UnmarshalOptions
	}{
		{"Outer", `{"inner":{"name":"x"},`, `line 1 col 23: unexpected end of input, expected a field name`, transcode.UnmarshalOptions{}},
		{"Outer", "{\n \"inner\": {\"name\": 3}}", `line 2 col 20: field "inner.name": a number where a string is due`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{}}`, `line 1 col 10: field "inner.name": required field missing`, transcode.UnmarshalOptions{}},
		{"Outer", `{"items":[{"name":"a"},{}],"inner":{"name":""}}`, `field "items[1].name": required field missing`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"nope":1}`, `line 1 col 22: unknown field "nope"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"plain":1.5}`, `field "plain": invalid i64 "1.5"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"color":"BLUE"}`, `field "color": invalid Color "BLUE"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"small":[1,70000]}`, `field "small[1]": invalid i16 "70000"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"data":"***"}`, `field "data": invalid base64 "***"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"weights":{"RED":"x"}}`, `field "weights[\"RED\"]": invalid double "x"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"byInner":[{"key":{"name":""}}]}`, `field "byInner[0]": a map entry needs both "key" and "value"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""},"plain":1,"plain":2}`, `duplicate field "plain"`, transcode.UnmarshalOptions{}},
		{"Outer", `{"inner":{"name":""}} x`, `text after the JSON object`, transcode.UnmarshalOptions{}},
		{"Outer", "{\"inner\":{\"name\":\"\"}}\x00", `line 1 col 22: text after the JSON object`, transcode.UnmarshalOptions{}},
		{"Outer", "{\"inner\":{\"name\":\"\x01\"}}", `invalid character`, transcode.UnmarshalOptions{}},
		{"Outer", "{\"inner\":{\"name\":\"\xff\"}}", `invalid UTF-8 in string`, transcode.UnmarshalOptions{}},
		{"Outer", `[]`, `line 1 col 1: unexpected "[", expected '{'`, transcode.UnmarshalOptions{}},
		{"Choice", `{}`, `union Choice has 0 fields set, not one`, transcode.UnmarshalOptions{}},
		{"Choice", `{"n":1,"s":""}`, `union Choice has 2 fields set, not one`, transcode.UnmarshalOptions{}},
		{"Deep", strings.Repeat(`{"next":`, 70) + "{}" + strings.Repeat("}", 70), `nesting too deep`, transcode.UnmarshalOptions{}},
		{"Deep", `{"next":{"next":{}}}`, `nesting too deep`, transcode.UnmarshalOptions{MaxDepth: 2}},
	}
	for _, tt := range tests {
		_, err := tt.opts.Unmarshal(testType(t, tt.typ), []byte(tt.in))
		var te *transcode.Error
		if !errors.As(err, &te) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Unmarshal(%s) = %v, want an *Error with %q", tt.in, err, tt.want)
		}
	}
}

func TestDiscardUnknown(t *testing.T) {
	typ := testType(t, "Outer")
	in := `{"x":{"a":[1,"b",{"c":null}],"d":true},"inner":{"name":"n","y":-1e5}}`
	b, err := transcode.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(typ, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := transcode.Marshal(typ, b)
	if err != nil || string(out) != `{"inner":{"name":"n"}}` {
		t.Fatalf("got %s, %v", out, err)
	}
}

func TestMarshalErrors(t *testing.T) {
	outer := testType(t, "Outer")
	good, err := transcode.Unmarshal(outer, []byte(`{"inner":{"name":"n"},"plain":5,"items":[{"name":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// An unknown field 99 (i32) before the Stop: skipped, or rejected.
	unknown := append(wire.Binary.AppendI32(wire.Binary.AppendFieldHeader(good[:len(good)-1:len(good)-1], wire.I32, 99, 0), 7), 0)
	if out, err := transcode.Marshal(outer, unknown); err != nil || !strings.Contains(string(out), `"plain":5`) {
		t.Errorf("unknown field: %s, %v", out, err)
	}
	if _, err := (transcode.MarshalOptions{RejectUnknown: true}).Marshal(outer, unknown); err == nil || !strings.Contains(err.Error(), "unknown field id 99") {
		t.Errorf("RejectUnknown: %v", err)
	}
	for n := range len(good) - 1 {
		_, err := transcode.Marshal(outer, good[:n])
		var te *transcode.Error
		if !errors.As(err, &te) {
			t.Fatalf("truncated at %d: %v, want an *Error", n, err)
		}
	}
	noName, _ := transcode.Unmarshal(testType(t, "Deep"), []byte(`{}`)) // a struct with no fields
	if _, err := transcode.Marshal(outer, append(wire.Binary.AppendFieldHeader(nil, wire.Struct, 1, 0), append(noName, 0)...)); err == nil ||
		!strings.Contains(err.Error(), `field "inner.name": required field missing`) {
		t.Errorf("missing required: %v", err)
	}
	if _, err := transcode.Marshal(testType(t, "Choice"), []byte{0}); err == nil || !strings.Contains(err.Error(), "0 fields set") {
		t.Errorf("empty union: %v", err)
	}
	twice := wire.Binary.AppendI64(wire.Binary.AppendFieldHeader(good[:len(good)-1:len(good)-1], wire.I64, 5, 0), 6)
	if _, err := transcode.Marshal(outer, append(twice, 0)); err == nil || !strings.Contains(err.Error(), "field plain appears twice") {
		t.Errorf("a field twice: %v", err)
	}
	if _, err := transcode.Marshal(outer, append(good, 1)); err == nil || !strings.Contains(err.Error(), "bytes after the struct") {
		t.Errorf("trailing bytes: %v", err)
	}
}

func TestMarshalValue(t *testing.T) {
	outer := testType(t, "Outer")
	b, err := transcode.Unmarshal(outer, []byte(`{"inner":{"name":"n"},"items":[{"name":"a"}],"weights":{"1":0.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := dynamic.NewValue(outer, wire.Binary, b)
	for path, want := range map[string]string{"items": `[{"name":"a"}]`, "weights": `{"RED":0.5}`, "inner.name": `"n"`, "items[0]": `{"name":"a"}`} {
		at, err := v.Get(dynamic.MustParsePath(path))
		if err != nil {
			t.Fatal(err)
		}
		got, err := transcode.MarshalOptions{EnumNames: true}.MarshalValue(nil, at.Type(), at.Raw())
		if err != nil || string(got) != want {
			t.Errorf("%s: %s, %v; want %s", path, got, err, want)
		}
	}
}
