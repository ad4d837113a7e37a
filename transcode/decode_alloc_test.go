package transcode

import (
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// decBenchInputs are the benchmark messages' JSON with their types.
func decBenchInputs(t testing.TB) map[string]struct {
	typ *dynamic.Type
	js  []byte
} {
	inputs := map[string]struct {
		typ *dynamic.Type
		js  []byte
	}{}
	for name, m := range map[string]proto.Message{"Small": fixture.Small(), "Medium": fixture.Medium()} {
		js, err := protojson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = struct {
			typ *dynamic.Type
			js  []byte
		}{dynamic.TypeOf(m.ProtoReflect().Descriptor()), js}
	}
	return inputs
}

// TestUnmarshalAllocs holds Unmarshal to one allocation, the output, and
// UnmarshalAppend into a buffer with room to none.
func TestUnmarshalAllocs(t *testing.T) {
	for name, in := range decBenchInputs(t) {
		if a := testing.AllocsPerRun(200, func() {
			if _, err := Unmarshal(in.typ, in.js); err != nil {
				t.Fatal(err)
			}
		}); a > 1 {
			t.Errorf("%s: Unmarshal makes %v allocations, want 1", name, a)
		}
		dst := make([]byte, 0, 2*len(in.js))
		if a := testing.AllocsPerRun(200, func() {
			if _, err := (UnmarshalOptions{}).UnmarshalAppend(dst, in.typ, in.js); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: UnmarshalAppend makes %v allocations, want 0", name, a)
		}
	}
}

// repeatReader reads b over and over.
type repeatReader struct {
	b   []byte
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.b[r.off:])
	r.off = (r.off + n) % len(r.b)
	return n, nil
}

// TestDecoderAllocs holds a Decoder in its steady state to no allocations
// per message.
func TestDecoderAllocs(t *testing.T) {
	for name, in := range decBenchInputs(t) {
		dec := NewDecoder(&repeatReader{b: append(append([]byte(nil), in.js...), '\n')}, in.typ, UnmarshalOptions{})
		dst := make([]byte, 0, 2*len(in.js))
		for range 10 {
			dec.Next(dst)
		}
		if a := testing.AllocsPerRun(200, func() {
			if _, err := dec.Next(dst); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: Decoder.Next makes %v allocations, want 0", name, a)
		}
	}
}
