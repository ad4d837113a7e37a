package transcode

import (
	"testing"

	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// BenchmarkTargets measures transcode against protojson on generated types
// for each speed target, the two in alternating rounds (see
// internal/benchpair); x is how many times faster transcode is. Each
// baseline takes the same input to the same output as transcode: Marshal's
// is proto.Unmarshal of the wire bytes then protojson.Marshal, Unmarshal's
// protojson.Unmarshal of the JSON then proto.Marshal. UnmarshalParse has
// protojson.Unmarshal alone as its baseline, which stops short of the wire
// bytes. Run it with -benchtime 30x for 30 pairs of rounds.
func BenchmarkTargets(b *testing.B) {
	for _, c := range []struct {
		name string
		msg  proto.Message
	}{{"Small", fixture.Small()}, {"Medium", fixture.Medium()}} {
		wire, err := proto.Marshal(c.msg)
		if err != nil {
			b.Fatal(err)
		}
		js, err := protojson.Marshal(c.msg)
		if err != nil {
			b.Fatal(err)
		}
		t := typeOf(c.msg)
		b.Run("Marshal/"+c.name, func(b *testing.B) {
			benchpair.Compare(b, func() {
				m := c.msg.ProtoReflect().New().Interface()
				if err := proto.Unmarshal(wire, m); err != nil {
					b.Fatal(err)
				}
				if _, err := protojson.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}, func() {
				if _, err := Marshal(t, wire); err != nil {
					b.Fatal(err)
				}
			})
		})
		for _, v := range []struct {
			name   string
			toWire bool
		}{{"Unmarshal/", true}, {"UnmarshalParse/", false}} {
			b.Run(v.name+c.name, func(b *testing.B) {
				benchpair.Compare(b, func() {
					m := c.msg.ProtoReflect().New().Interface()
					if err := protojson.Unmarshal(js, m); err != nil {
						b.Fatal(err)
					}
					if !v.toWire {
						return
					}
					if _, err := proto.Marshal(m); err != nil {
						b.Fatal(err)
					}
				}, func() {
					if _, err := Unmarshal(t, js); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}
