package transcode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// decRandomMessage returns the i-th random message: Rich and Known in
// turn.
func decRandomMessage(r *rand.Rand, i int) proto.Message {
	if i%2 == 0 {
		return fixture.RandomRich(r)
	}
	return fixture.RandomKnown(r)
}

// decRandomJSON marshals m with random protojson options.
func decRandomJSON(t *testing.T, r *rand.Rand, m proto.Message) []byte {
	t.Helper()
	mo := protojson.MarshalOptions{
		UseProtoNames:   r.IntN(2) == 0,
		UseEnumNumbers:  r.IntN(2) == 0,
		EmitUnpopulated: r.IntN(2) == 0,
		Indent:          [...]string{"", "", "  ", "\t"}[r.IntN(4)],
	}
	js, err := mo.Marshal(m)
	if err != nil {
		t.Fatalf("protojson.Marshal(%v): %v", mo, err)
	}
	return js
}

// TestUnmarshalRandom converts protojson's JSON of random messages back and
// compares with what protojson.Unmarshal makes of it: proto.Equal, and the
// original message for Rich (Known loses what its JSON cannot carry:
// NullValue numbers other than 0, an unset Value written as null by
// EmitUnpopulated), and byte for byte with
// proto.Marshal's deterministic output, whose field and map orders are
// those of protojson's JSON.
func TestUnmarshalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2000))
	n := 2000
	if testing.Short() {
		n = 300
	}
	sameBytes, original := 0, 0
	for i := range n {
		m := decRandomMessage(r, i)
		js := decRandomJSON(t, r, m)
		want := m.ProtoReflect().New().Interface()
		if err := protojson.Unmarshal(js, want); err != nil {
			t.Fatalf("message %d: protojson.Unmarshal: %v\n%s", i, err, js)
		}
		wire, err := Unmarshal(dynamic.TypeOf(m.ProtoReflect().Descriptor()), js)
		if err != nil {
			t.Fatalf("message %d: %v\n%s", i, err, js)
		}
		got := m.ProtoReflect().New().Interface()
		if err := proto.Unmarshal(wire, got); err != nil {
			t.Fatalf("message %d: our bytes do not parse: %v", i, err)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("message %d differs\njson: %s\nwant: %v\ngot:  %v", i, js, want, got)
		}
		if proto.Equal(got, m) {
			original++
		} else if i%2 == 0 {
			t.Errorf("message %d: not equal to the original\nwant: %v\ngot:  %v", i, m, got)
		}
		wantBytes, _ := proto.MarshalOptions{Deterministic: true}.Marshal(want)
		if bytes.Equal(wantBytes, wire) {
			sameBytes++
		} else if !decHasNaN(want) {
			t.Errorf("message %d: bytes differ from proto.Marshal's\njson: %s\nwant: %x\ngot:  %x", i, js, wantBytes, wire)
		}
	}
	t.Logf("%d of %d equal to the original, %d byte for byte equal to proto.Marshal", original, n, sameBytes)
}

// decHasNaN reports whether m holds a NaN anywhere, whose bits JSON does
// not keep.
func decHasNaN(m proto.Message) bool {
	return strings.Contains(prototext.Format(m), "nan")
}

// decMutate returns js with one random edit: a byte range dropped,
// doubled or moved, or a token put in.
func decMutate(r *rand.Rand, js []byte) []byte {
	if len(js) == 0 {
		return js
	}
	i := r.IntN(len(js))
	j := i + r.IntN(min(len(js)-i, 24)+1)
	out := append([]byte(nil), js[:i]...)
	switch r.IntN(5) {
	case 0: // drop
		out = append(out, js[j:]...)
	case 1: // double
		out = append(append(out, js[i:j]...), js[i:]...)
	case 2: // insert a token
		tokens := [...]string{`null`, `,`, `"x":1,`, `{`, `}`, `[`, `]`, `"\u00e9"`, `1e5`, `-0`, `"NaN"`,
			`"\ud800"`, `1.5`, `"1"`, `true`, `:`, `"fInt32":2,`, `"f_int32":3,`, "\xff", ` `, `"@type":"x",`}
		out = append(append(out, tokens[r.IntN(len(tokens))]...), js[i:]...)
	case 3: // overwrite one byte
		out = append(append(out, "\"{}[],:0-e.\\ntu"[r.IntN(15)]), js[i+1:]...)
	default: // move a range elsewhere
		rest := append(append([]byte(nil), js[:i]...), js[j:]...)
		k := r.IntN(len(rest) + 1)
		out = append(append(append([]byte(nil), rest[:k]...), js[i:j]...), rest[k:]...)
	}
	return out
}

// TestUnmarshalMutations edits protojson's JSON of random messages at
// random and checks that Unmarshal fails exactly when protojson fails and
// otherwise builds the same message.
func TestUnmarshalMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	n := 4000
	if testing.Short() {
		n = 500
	}
	accepted := 0
	for i := range n {
		m := decRandomMessage(r, i)
		js := decRandomJSON(t, r, m)
		for range 1 + r.IntN(2) {
			js = decMutate(r, js)
		}
		o := UnmarshalOptions{DiscardUnknown: r.IntN(3) == 0}
		res := decBoth(m.ProtoReflect().Descriptor(), o, js)
		if msg := res.disagreement(); msg != "" {
			t.Fatalf("mutation %d, %+v\ninput: %s\n%s", i, o, js, msg)
		}
		if res.wantErr == nil {
			accepted++
		}
	}
	t.Logf("%d of %d edited inputs accepted", accepted, n)
}
