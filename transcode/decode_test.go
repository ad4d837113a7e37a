package transcode

import (
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// decCase is one input for Unmarshal and protojson. err empty: both must
// succeed with equal messages; else both must fail and our message must
// contain err.
type decCase struct {
	in   string
	err  string
	opts UnmarshalOptions
}

var discard = UnmarshalOptions{DiscardUnknown: true}

func runDecCases(t *testing.T, md protoreflect.MessageDescriptor, cases []decCase) {
	t.Helper()
	for _, c := range cases {
		r := decCheck(t, md, c.opts, c.in)
		switch {
		case c.err == "" && r.gotErr != nil:
			t.Errorf("%s: unexpected error %v", c.in, r.gotErr)
		case c.err != "" && r.gotErr == nil:
			t.Errorf("%s: no error, want %q", c.in, c.err)
		case c.err != "" && !strings.Contains(r.gotErr.Error(), c.err):
			t.Errorf("%s: error %q does not contain %q", c.in, r.gotErr, c.err)
		}
	}
}

func TestUnmarshalNames(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fInt32":1}`},
		{in: `{"f_int32":1}`},
		{in: `{"customDouble":1.5}`},
		{in: `{"o_double":1.5}`},
		{in: `{"oDouble":1.5}`, err: `unknown field "oDouble"`},
		{in: `{"fInt32":1,"f_int32":2}`, err: `duplicate field "f_int32"`},
		{in: `{"customDouble":1,"o_double":2}`, err: "duplicate field"},
		{in: `{"f\u0049nt32":7}`},
		{in: `{"nope":1}`, err: `line 1 col 2: unknown field "nope"`},
		{in: `{"nope":{"a":[1,{"b":null}],"c":"\u00e9"}}`, opts: discard},
		{in: `{"nope":{"a":[1,{"b":nul}]}}`, opts: discard, err: "invalid value nul"},
		{in: `{"nope":[1,]}`, opts: discard, err: "unexpected token ]"},
		{in: `{"child":{"child":{"fInt32":1}},"fLeaf":{"next":{"id":"5"}}}`},
	})
}

func TestUnmarshalIntegers(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fInt32":-2147483648,"fInt64":"-9223372036854775808","fUint32":4294967295,"fUint64":"18446744073709551615"}`},
		{in: `{"fSint32":-5,"fSint64":"-5","fFixed32":7,"fFixed64":"7","fSfixed32":-7,"fSfixed64":"-7"}`},
		{in: `{"fInt32":1e2,"fInt64":"1e2","fUint32":"1.0","fUint64":1.5e1,"fSint32":100e-2}`},
		{in: `{"fInt32":1e}`},
		{in: `{"fInt32":0.0,"fInt64":-0,"fUint64":"-0","fUint32":-0.0e5}`},
		{in: `{"fInt32":2147483648}`, err: `invalid int32 2147483648`},
		{in: `{"fInt64":"9223372036854775808"}`, err: "invalid int64"},
		{in: `{"fUint64":-1}`, err: "invalid uint64 -1"},
		{in: `{"fUint32":4294967296}`, err: "invalid uint32"},
		{in: `{"fUint32":-1}`, err: "invalid uint32 -1"},
		{in: `{"fUint32":"-2"}`, err: `invalid uint32 "-2"`},
		{in: `{"fUint32":2147483648,"oInt32":0,"oString":"","oKind":"KIND_UNSPECIFIED","customDouble":-0}`},
		{in: `{"fInt32":1.5}`, err: "invalid int32 1.5"},
		{in: `{"fInt32":" 1"}`, err: "invalid int32"},
		{in: `{"fInt32":"1 "}`, err: "invalid int32"},
		{in: `{"fInt32":"0x10"}`, err: "invalid int32"},
		{in: `{"fInt32":01}`, err: "invalid value 01"},
		{in: `{"fInt32":"1e"}`, err: "invalid int32"},
		{in: `{"fInt32":1e+}`, err: "invalid int32"},
		{in: `{"fInt32":true}`, err: "invalid int32 true"},
		{in: `{"fInt32":"12x"}`, err: `invalid int32 "12x"`},
		{in: `{"fInt64":123456789012345678901234567890}`, err: "invalid int64"},
		{in: `{"fInt64":1e19}`, err: "invalid int64"},
		{in: `{"fUint64":1e19}`},
		{in: `{"fUint64":"1844674407370955161.5e1"}`},
		{in: `{"fInt32":"\u0031\u0032"}`},
		{in: `{"fInt32":+1}`, err: "invalid value +1"},
		{in: `{"fInt32":1e-1}`, err: "invalid int32"},
		{in: `{"fInt32":10e-1}`},
	})
}

func TestUnmarshalFloats(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fFloat":"NaN","fDouble":"-Infinity"}`},
		{in: `{"fFloat":"Infinity","fDouble":"NaN"}`},
		{in: `{"fFloat":3.4028235e38,"fDouble":1.7976931348623157e308}`},
		{in: `{"fFloat":-0,"fDouble":-0.0}`},
		{in: `{"fFloat":1e-50,"fDouble":"1e-400"}`},
		{in: `{"fFloat":"1.5","fDouble":"-2.5e-3"}`},
		{in: `{"fFloat":"\u004eaN"}`},
		{in: `{"fFloat":3.5e38}`, err: "invalid float 3.5e38"},
		{in: `{"fDouble":1e400}`, err: "invalid double"},
		{in: `{"fDouble":"nan"}`, err: "invalid double"},
		{in: `{"fDouble":"1.5 "}`, err: "invalid double"},
		{in: `{"fDouble":.5}`, err: "invalid value"},
		{in: `{"fDouble":1.}`, err: "invalid value"},
		{in: `{"rFloat":[1,"NaN",2.5],"rDouble":[],"uDouble":["Infinity",0]}`},
	})
}

func TestUnmarshalStringsBytesBools(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fString":"caf\u00e9 \"\\\/\b\f\n\r\t \ud83d\ude00 東京"}`},
		{in: `{"fString":""}`},
		{in: `{"fString":"\ud800"}`, err: "unpaired surrogate \\ud800"},
		{in: `{"fString":"\ud800xxxxxx"}`, err: "unpaired surrogate"},
		{in: `{"fString":"\ud800\u0041"}`, err: "unpaired surrogate"},
		{in: `{"fString":"\udc00\udc00"}`, err: "unpaired surrogate"},
		{in: `{"fString":"\x"}`, err: "invalid escape"},
		{in: `{"fString":"\u12"}`, err: "invalid escape"},
		{in: "{\"fString\":\"a\xffb\"}", err: "line 1 col 14: field \"fString\": invalid UTF-8"},
		{in: "{\"fString\":\"a\x01\"}", err: "invalid character"},
		{in: "{\"fStr\xffing\":1}", err: "invalid UTF-8"},
		{in: `{"fString":1}`, err: "invalid string 1"},
		{in: `{"fBytes":"AQID","rBytes":["-_8","AQI","AQI=","",""]}`},
		{in: `{"fBytes":"AQ\nID"}`},
		{in: `{"fBytes":"AQ\u003d\u003d"}`},
		{in: `{"fBytes":"!!"}`, err: `invalid bytes "!!"`},
		{in: `{"fBytes":"AQIDB"}`, err: "invalid bytes"},
		{in: `{"fBytes":"-_+/"}`, err: "invalid bytes"},
		{in: `{"fBool":true,"rBool":[false,true],"uBool":[true]}`},
		{in: `{"fBool":"true"}`, err: `invalid bool "true"`},
		{in: `{"fBool":1}`, err: "invalid bool 1"},
		{in: `{"fBool":tru}`, err: "invalid value tru"},
		{in: `{"fBool":truex}`, err: "invalid value truex"},
	})
}

func TestUnmarshalEnums(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fKind":"KIND_ALPHA","oKind":"KIND_UNSPECIFIED","rKind":["KIND_BETA",2,-1,99],"uKind":[3,"KIND_NEGATIVE"]}`},
		{in: `{"fKind":-1}`},
		{in: `{"fKind":2147483648}`, err: "invalid enum"},
		{in: `{"fKind":"KIND_NOPE"}`, err: `invalid value for enum rpckit.fixture.v1.Kind: "KIND_NOPE"`},
		{in: `{"fKind":"1"}`, err: "invalid value for enum"},
		{in: `{"fKind":"KIND_NOPE","oKind":"KIND_NOPE","rKind":["KIND_NOPE",1],"uKind":["KIND_NOPE"],"mKind":{"a":"KIND_NOPE","b":1}}`, opts: discard},
		{in: `{"cKind":"KIND_NOPE","cInt32":1}`, opts: discard, err: "already set"},
		{in: `{"mKind":{"a":"KIND_NOPE","a":1}}`, opts: discard},
		{in: `{"mKind":{"a":1,"a":"KIND_NOPE"}}`, opts: discard, err: "duplicate map key"},
		{in: `{"fKind":true}`, err: "invalid enum true"},
		{in: `{"fKind":1.0}`},
	})
}

func TestUnmarshalNulls(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"fInt32":null,"fLeaf":null,"rInt32":null,"mString":null,"oInt32":null,"child":null}`},
		{in: `{"cInt32":null,"cString":"x"}`},
		{in: `{"fInt32":null,"fInt32":1}`, err: "duplicate field"},
		{in: `{"rInt32":[null]}`, err: "invalid int32 null"},
		{in: `{"rLeaf":[null]}`, err: "unexpected token null"},
		{in: `{"mString":{"a":null}}`, err: "invalid string null"},
		{in: `{"mLeaf":{"a":null}}`, err: "unexpected token null"},
		{in: `null`, err: "unexpected token null"},
	})
}

func TestUnmarshalOneofs(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"cInt32":0}`},
		{in: `{"cString":""}`},
		{in: `{"cLeaf":{}}`},
		{in: `{"cInt32":1,"dDouble":2}`},
		{in: `{"cInt32":1,"cString":"x"}`, err: `line 1 col 13: field "cString": oneof rpckit.fixture.v1.Rich.choice is already set`},
		{in: `{"dRich":{"cLeaf":{"a":"x","b":"1"}}}`, err: `field "dRich.cLeaf.b"`},
	})
}

func TestUnmarshalMaps(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"mInt32":{"1":"a","-2":"b","07":"c","+3":"d"},"mInt64":{"-9223372036854775808":""}}`},
		{in: `{"mUint32":{"4294967295":"x"},"mUint64":{"18446744073709551615":"y"},"mSint32":{"-1":"z"},"mSint64":{"-2":"w"}}`},
		{in: `{"mFixed32":{"1":"a"},"mFixed64":{"2":"b"},"mSfixed32":{"-3":"c"},"mSfixed64":{"-4":"d"}}`},
		{in: `{"mBool":{"true":"t","false":"f"},"mString":{"":"e","\u00e9":"é"}}`},
		{in: `{"mLeaf":{"a":{"name":"x"},"b":{}},"mKind":{"k":"KIND_BETA"},"mBytes":{"5":"AQID"},"mDouble":{"d":"NaN"}}`},
		{in: `{"mInt32":{}}`},
		{in: `{"mInt32":{"1.0":"a"}}`, err: `invalid value for int32 key: "1.0"`},
		{in: `{"mInt32":{"2147483648":"a"}}`, err: "invalid value for int32 key"},
		{in: `{"mUint64":{"-1":"a"}}`, err: "invalid value for uint64 key"},
		{in: `{"mUint64":{"+1":"a"}}`, err: "invalid value for uint64 key"},
		{in: `{"mBool":{"True":"a"}}`, err: "invalid value for bool key"},
		{in: `{"mInt32":{" 1":"a"}}`, err: "invalid value for int32 key"},
		{in: `{"mString":{"a":"1","a":"2"}}`, err: `duplicate map key "a"`},
		{in: `{"mString":{"a":"1","\u0061":"2"}}`, err: "duplicate map key"},
		{in: `{"mInt32":{"1":"a","01":"b"}}`, err: "duplicate map key"},
		{in: `{"mBool":{"true":"a","true":"b"}}`, err: "duplicate map key"},
		{in: `{"mString":{"a":"1",}}`, err: "unexpected token }"},
		{in: `{"mString":[]}`, err: "unexpected token ["},
		{in: `{"mLeaf":{"k":{"id":"x"}}}`, err: `field "mLeaf[\"k\"].id": invalid int64 "x"`},
		{in: `{"mInt64":{"7":1}}`, err: `field "mInt64[7]": invalid string 1`},
	})
	var big strings.Builder
	big.WriteString(`{"mString":{`)
	for i := range 100 {
		if i > 0 {
			big.WriteString(",")
		}
		big.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":"v"`)
	}
	runDecCases(t, decRich, []decCase{
		{in: big.String() + "}}"},
		{in: big.String() + `,"kbd":"dup"}}`, err: "duplicate map key"},
	})
}

func TestUnmarshalRepeated(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: `{"rInt32":[1,-1,"2"],"rInt64":["-3"],"rUint32":[4],"rUint64":["5"],"rSint32":[-6],"rSint64":["-7"]}`},
		{in: `{"rFixed32":[8],"rFixed64":["9"],"rSfixed32":[-10],"rSfixed64":["-11"],"rFloat":[1.5],"rDouble":[2.5],"rBool":[true]}`},
		{in: `{"rString":["a",""],"rBytes":["AQ=="],"rLeaf":[{},{"name":"x"}],"rKind":[]}`},
		{in: `{"uInt32":[1,2],"uSint64":["-1"],"uFixed32":[3],"uDouble":[1],"uBool":[false],"uKind":[1]}`},
		{in: `{"rInt32":[1,]}`, err: "unexpected token ]"},
		{in: `{"rInt32":[1 2]}`, err: "unexpected token 2"},
		{in: `{"rInt32":1}`, err: "unexpected token 1"},
		{in: `{"rLeaf":[{"id":"1"},{"id":"x"}]}`, err: `field "rLeaf[1].id"`},
	})
}

func TestUnmarshalSyntax(t *testing.T) {
	runDecCases(t, decRich, []decCase{
		{in: " \t\r\n{ \"fInt32\" : 1 , \"fBool\" :true } \n"},
		{in: ``, err: "unexpected end of input"},
		{in: `   `, err: "unexpected end of input"},
		{in: `{`, err: "unexpected end of input"},
		{in: `{"fInt32"`, err: "unexpected end of input"},
		{in: `{"fInt32":`, err: "unexpected end of input"},
		{in: `{"fInt32":1`, err: "unexpected end of input"},
		{in: `{"fString":"abc`, err: "unterminated string"},
		{in: `{} x`, err: "line 1 col 4: unexpected token x"},
		{in: `{}}`, err: "unexpected token }"},
		{in: `{}{}`, err: "unexpected token {"},
		{in: `[]`, err: "unexpected token ["},
		{in: `"x"`, err: `unexpected token "x"`},
		{in: `{"fInt32":1,}`, err: "unexpected token }"},
		{in: `{,}`, err: "unexpected token ,"},
		{in: `{"fInt32" 1}`, err: `missing ":" after field name`},
		{in: `{"fInt32":1 "fBool":true}`, err: `unexpected token "fBool"`},
		{in: `{'fInt32':1}`, err: "unexpected token '"},
		{in: "{\"fInt32\":1}\x00", err: "unexpected token"},
		{in: `{"fInt32":1}/**/`, err: "unexpected token /"},
	})
}

func TestUnmarshalDepth(t *testing.T) {
	nest := func(n int) string {
		return strings.Repeat(`{"child":`, n-1) + `{}` + strings.Repeat(`}`, n-1)
	}
	runDecCases(t, decRich, []decCase{
		{in: nest(3), opts: UnmarshalOptions{MaxDepth: 3}},
		{in: nest(4), opts: UnmarshalOptions{MaxDepth: 3}, err: "exceeded maximum nesting depth"},
		{in: `{"nope":[[{}]]}`, opts: UnmarshalOptions{MaxDepth: 4, DiscardUnknown: true}},
		{in: `{"nope":[[{}]]}`, opts: UnmarshalOptions{MaxDepth: 3, DiscardUnknown: true}, err: "exceeded maximum nesting depth"},
		{in: nest(10000)},
		{in: nest(10001), err: "exceeded maximum nesting depth"},
	})
	runDecCases(t, decKnown, []decCase{
		{in: `{"value":[[[]]]}`, opts: UnmarshalOptions{MaxDepth: 4}},
		{in: `{"value":[[[[]]]]}`, opts: UnmarshalOptions{MaxDepth: 4}, err: "exceeded maximum nesting depth"},
		{in: `{"struct":{"a":{"b":{}}}}`, opts: UnmarshalOptions{MaxDepth: 4}},
		{in: `{"struct":{"a":{"b":{}}}}`, opts: UnmarshalOptions{MaxDepth: 3}, err: "exceeded maximum nesting depth"},
		{in: `{"any":{"x":[[1]],"@type":"type.googleapis.com/rpckit.fixture.v1.Leaf"}}`, opts: UnmarshalOptions{MaxDepth: 5, DiscardUnknown: true}},
		{in: `{"any":{"x":[[1]],"@type":"type.googleapis.com/rpckit.fixture.v1.Leaf"}}`, opts: UnmarshalOptions{MaxDepth: 4, DiscardUnknown: true}, err: "exceeded maximum nesting depth"},
	})
}

// TestUnmarshalErrorPosition checks the parts of an *Error: line and
// column of the offending token, its offset, and the field path.
func TestUnmarshalErrorPosition(t *testing.T) {
	in := "{\n  \"rLeaf\": [\n    {\"name\": \"é\"},\n    {\"next\": {\"id\": \"12x\"}}\n  ]\n}"
	_, err := Unmarshal(dynamic.TypeOf(decRich), []byte(in))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not *Error", err)
	}
	want := Error{Line: 4, Col: 21, Offset: strings.Index(in, `"12x"`), Path: "rLeaf[1].next.id", Msg: `invalid int64 "12x"`}
	if e.Line != want.Line || e.Col != want.Col || e.Offset != want.Offset || e.Path != want.Path || e.Msg != want.Msg {
		t.Errorf("got %+v\nwant %+v", *e, want)
	}
	if s := err.Error(); s != `transcode: line 4 col 21: field "rLeaf[1].next.id": invalid int64 "12x"` {
		t.Errorf("Error() = %s", s)
	}
	_, err = Unmarshal(dynamic.TypeOf(decRich), []byte("{\"fString\":\"é\u00e9"))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated input: %v does not wrap io.ErrUnexpectedEOF", err)
	}
}

func TestUnmarshalAppend(t *testing.T) {
	typ := dynamic.TypeOf(decRich)
	dst := []byte("prefix")
	out, err := UnmarshalOptions{}.UnmarshalAppend(dst, typ, []byte(`{"fInt32":1}`))
	if err != nil || string(out) != "prefix\x08\x01" {
		t.Fatalf("UnmarshalAppend = %q, %v", out, err)
	}
	out, err = UnmarshalOptions{}.UnmarshalAppend(dst, typ, []byte(`{"fInt32":1,"x":2}`))
	if err == nil || string(out) != "prefix" {
		t.Fatalf("UnmarshalAppend on error = %q, %v", out, err)
	}
}

func TestUnmarshalTopLevelWellKnown(t *testing.T) {
	for _, c := range []struct {
		md protoreflect.MessageDescriptor
		in string
		ok bool
	}{
		{(&timestamppb.Timestamp{}).ProtoReflect().Descriptor(), `"2024-02-29T12:00:00.5+01:00"`, true},
		{(&durationpb.Duration{}).ProtoReflect().Descriptor(), `"-1.5s"`, true},
		{(&wrapperspb.Int64Value{}).ProtoReflect().Descriptor(), `"12"`, true},
		{(&wrapperspb.Int64Value{}).ProtoReflect().Descriptor(), `null`, false},
		{(&wrapperspb.StringValue{}).ProtoReflect().Descriptor(), `""`, true},
		{(&structpb.Value{}).ProtoReflect().Descriptor(), `null`, true},
		{(&structpb.Value{}).ProtoReflect().Descriptor(), `[1,"a",{"b":null}]`, true},
		{(&structpb.Value{}).ProtoReflect().Descriptor(), `1 2`, false},
		{(&structpb.Struct{}).ProtoReflect().Descriptor(), `{"a":1}`, true},
		{(&structpb.ListValue{}).ProtoReflect().Descriptor(), `{"a":1}`, false},
	} {
		r := decCheck(t, c.md, UnmarshalOptions{}, c.in)
		if (r.gotErr == nil) != c.ok {
			t.Errorf("%s %s: error %v", c.md.FullName(), c.in, r.gotErr)
		}
	}
}

// TestExactFloat64 checks the fast path of double parsing against
// strconv.ParseFloat on numbers it takes and numbers it must leave.
func TestExactFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	samples := []string{"0", "-0", "0.0", "1", "-1.5", "8.521700000000001", "4503599627370495", "4503599627370496",
		"0.0000000000000000000001", "0.00000000000000000000001", "123456789.123456789", "9007199254740993", "1e5", "0.1", "0.30000000000000004",
		"9007199254740991", "9007199254740992", "900719925474099.1", "0.9007199254740991", "47.426899999999996"}
	// Mantissas below 2^53 take the exact path: float64 holds them exactly.
	for _, s := range []string{"8.521700000000001", "9007199254740991", "0.9007199254740991", "-900719925474099.1"} {
		if _, ok := jsonx.ExactFloat64([]byte(s)); !ok {
			t.Errorf("jsonx.ExactFloat64(%s) leaves a mantissa below 2^53 to strconv", s)
		}
		d := decoder{in: []byte(s + ",")}
		if _, ok := d.plainDouble(); !ok {
			t.Errorf("plainDouble(%s) leaves a mantissa below 2^53 to the general path", s)
		}
	}
	for range 20000 {
		digits := strconv.FormatUint(r.Uint64()>>r.IntN(64), 10)
		at := r.IntN(len(digits) + 1)
		s := digits[:at] + "." + digits[at:]
		if at == 0 {
			s = "0" + s
		}
		if at == len(digits) {
			s = digits
		}
		samples = append(samples, s, "-"+s)
	}
	for _, s := range samples {
		want, _ := strconv.ParseFloat(s, 64)
		if got, ok := jsonx.ExactFloat64([]byte(s)); ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("jsonx.ExactFloat64(%s) = %v, strconv says %v", s, got, want)
		}
		if got, ok := jsonx.ParseFloat([]byte(s), 64); !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("jsonx.ParseFloat(%s) = %v, %v, strconv says %v", s, got, ok, want)
		}
		d := decoder{in: []byte(s + ",")}
		if got, ok := d.plainDouble(); ok && (math.Float64bits(got) != math.Float64bits(want) || d.pos != len(s)) {
			t.Fatalf("plainDouble(%s) = %v at %d, strconv says %v", s, got, d.pos, want)
		}
	}
}

// TestPlainInt checks the one-pass integer path against the general one.
func TestPlainInt(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	var samples []string
	for _, s := range []string{"0", "-0", "00", "-", "", "1", "-1", "2147483647", "2147483648", "-2147483648", "-2147483649",
		"4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615", "123456789012345678"} {
		samples = append(samples, s, `"`+s+`"`, s+"x", s+".0")
	}
	for range 20000 {
		s := strconv.FormatInt(r.Int64()>>r.IntN(64), 10)
		if r.IntN(4) == 0 {
			s = `"` + s + `"`
		}
		samples = append(samples, s)
	}
	for _, s := range samples {
		for _, k := range []struct {
			bits     int
			unsigned bool
		}{{32, false}, {64, false}, {32, true}, {64, true}} {
			d := decoder{in: []byte(s + "}")}
			got, ok := d.plainInt(k.bits, k.unsigned)
			if !ok {
				if d.pos != 0 {
					t.Fatalf("plainInt(%s) fails after consuming %d bytes", s, d.pos)
				}
				continue
			}
			num := strings.Trim(s, `"`)
			want, wantOK := jsonx.ParseInt([]byte(num), k.bits, k.unsigned)
			if !wantOK || got != want || d.pos != len(s) {
				t.Fatalf("plainInt(%s, %d, %v) = %d at %d; jsonx.ParseInt: %d, %v", s, k.bits, k.unsigned, got, d.pos, want, wantOK)
			}
		}
	}
}
