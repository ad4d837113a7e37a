package transcode

import (
	"encoding/json"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

// benchFixture is a benchmark message in both encodings, with its Type and
// the plain Go values encoding/json works on as a reference: plain holds
// the message's data, newPlain makes a value to decode into.
type benchFixture struct {
	name     string
	msg      proto.Message
	wire, js []byte
	t        *dynamic.Type
	plain    any
	newPlain func() any
}

// benchFixtures returns the Small and Medium fixtures.
func benchFixtures(b *testing.B) []benchFixture {
	small, medium := fixture.Small(), fixture.Medium()
	out := []benchFixture{
		{name: "Small", msg: small, plain: plainSmall(small), newPlain: func() any { return new(smallJSON) }},
		{name: "Medium", msg: medium, plain: plainMedium(medium), newPlain: func() any { return new(mediumJSON) }},
	}
	for i := range out {
		c := &out[i]
		var err error
		if c.wire, err = proto.Marshal(c.msg); err != nil {
			b.Fatal(err)
		}
		if c.js, err = protojson.Marshal(c.msg); err != nil {
			b.Fatal(err)
		}
		c.t = typeOf(c.msg)
	}
	return out
}

// The operations of the benchmarks, each made ready for a fixture and
// returning a function that does it once: wire -> JSON first, then
// JSON -> wire.

func (c benchFixture) marshal(b *testing.B) func() {
	return func() {
		if _, err := Marshal(c.t, c.wire); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) marshalAppend(b *testing.B) func() {
	buf := make([]byte, 0, 64<<10)
	return func() {
		if _, err := (MarshalOptions{}).MarshalAppend(buf[:0], c.t, c.wire); err != nil {
			b.Fatal(err)
		}
	}
}

// protojsonPrint prints a message already parsed into the generated type.
func (c benchFixture) protojsonPrint(b *testing.B) func() {
	m := c.newMsg()
	if err := proto.Unmarshal(c.wire, m); err != nil {
		b.Fatal(err)
	}
	return func() {
		if _, err := protojson.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// protojsonFromWire is proto.Unmarshal into the generated type then
// protojson.Marshal: transcode.Marshal's input and output, the baseline of
// its targets.
func (c benchFixture) protojsonFromWire(b *testing.B) func() {
	return func() {
		m := c.newMsg()
		if err := proto.Unmarshal(c.wire, m); err != nil {
			b.Fatal(err)
		}
		if _, err := protojson.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

// dynamicpbFromWire is protojsonFromWire on dynamicpb, as a dynamic
// gateway must do it.
func (c benchFixture) dynamicpbFromWire(b *testing.B) func() {
	md := c.msg.ProtoReflect().Descriptor()
	return func() {
		m := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(c.wire, m); err != nil {
			b.Fatal(err)
		}
		if _, err := protojson.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) jsonMarshal(b *testing.B) func() {
	return func() {
		if _, err := json.Marshal(c.plain); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) unmarshal(b *testing.B) func() {
	return func() {
		if _, err := Unmarshal(c.t, c.js); err != nil {
			b.Fatal(err)
		}
	}
}

// protojsonParse is protojson.Unmarshal into the generated type, which
// stops short of the wire bytes.
func (c benchFixture) protojsonParse(b *testing.B) func() {
	return func() {
		if err := protojson.Unmarshal(c.js, c.newMsg()); err != nil {
			b.Fatal(err)
		}
	}
}

// protojsonToWire is protojson.Unmarshal into the generated type then
// proto.Marshal: transcode.Unmarshal's input and output, the baseline of
// its targets.
func (c benchFixture) protojsonToWire(b *testing.B) func() {
	return func() {
		m := c.newMsg()
		if err := protojson.Unmarshal(c.js, m); err != nil {
			b.Fatal(err)
		}
		if _, err := proto.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) dynamicpbParse(b *testing.B) func() {
	md := c.msg.ProtoReflect().Descriptor()
	return func() {
		if err := protojson.Unmarshal(c.js, dynamicpb.NewMessage(md)); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) jsonUnmarshal(b *testing.B) func() {
	return func() {
		if err := json.Unmarshal(c.js, c.newPlain()); err != nil {
			b.Fatal(err)
		}
	}
}

func (c benchFixture) newMsg() proto.Message { return c.msg.ProtoReflect().New().Interface() }

// benchOp is one way of doing a benchmark's task.
type benchOp struct {
	name string
	op   func(*testing.B) func()
}

// runOps runs each op as the sub-benchmark name/op, with throughput over
// size bytes and allocations reported.
func runOps(b *testing.B, name string, size int, ops ...benchOp) {
	for _, o := range ops {
		b.Run(name+"/"+o.name, func(b *testing.B) {
			f := o.op(b)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
}

// BenchmarkTargets measures transcode against protojson on generated types
// for each speed target, the two in alternating rounds (see
// internal/benchpair); x is how many times faster transcode is. Each
// baseline takes the same input to the same output as transcode: Marshal's
// is proto.Unmarshal of the wire bytes then protojson.Marshal, Unmarshal's
// protojson.Unmarshal of the JSON then proto.Marshal. UnmarshalParse has
// protojson.Unmarshal alone as its baseline, which stops short of the wire
// bytes. Run it with -benchtime 30x for 30 pairs of rounds.
func BenchmarkTargets(b *testing.B) {
	for _, c := range benchFixtures(b) {
		for _, t := range []struct {
			name       string
			base, ours func(*testing.B) func()
		}{
			{"Marshal/", c.protojsonFromWire, c.marshal},
			{"Unmarshal/", c.protojsonToWire, c.unmarshal},
			{"UnmarshalParse/", c.protojsonParse, c.unmarshal},
		} {
			b.Run(t.name+c.name, func(b *testing.B) {
				benchpair.Compare(b, t.base(b), t.ours(b))
			})
		}
	}
}
