package transcode

import (
	"encoding/json"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Plain Go structs of the benchmark messages, for encoding/json as a
// reference point.
type (
	decSmall struct {
		ID     string  `json:"id"`
		Name   string  `json:"name"`
		Score  float64 `json:"score"`
		Count  int32   `json:"count"`
		Status string  `json:"status"`
		Token  []byte  `json:"token"`
	}
	decMedium struct {
		ID         string               `json:"id"`
		Title      string               `json:"title"`
		Header     *decHeader           `json:"header"`
		Entries    []*decEntry          `json:"entries"`
		Samples    []string             `json:"samples"`
		Labels     []string             `json:"labels"`
		Statuses   []string             `json:"statuses"`
		Attributes map[string]string    `json:"attributes"`
		Names      map[string]string    `json:"names"`
		Counters   map[string]string    `json:"counters"`
		Index      map[string]*decEntry `json:"index"`
		Score      float64              `json:"score"`
		Archived   bool                 `json:"archived"`
	}
	decHeader struct {
		Source  string   `json:"source"`
		Created string   `json:"created"`
		Meta    *decMeta `json:"meta"`
	}
	decMeta struct {
		Region string     `json:"region"`
		Origin *decOrigin `json:"origin"`
		Tags   []string   `json:"tags"`
	}
	decOrigin struct {
		Host      string  `json:"host"`
		Port      int32   `json:"port"`
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	}
	decEntry struct {
		ID       string     `json:"id"`
		Name     string     `json:"name"`
		Price    float64    `json:"price"`
		Quantity int32      `json:"quantity"`
		Status   string     `json:"status"`
		Tags     []string   `json:"tags"`
		Origin   *decOrigin `json:"origin"`
	}
)

// BenchmarkUnmarshal measures JSON -> wire on the Small and Medium
// fixtures: transcode, and as baselines in the same run protojson into the
// generated types (parsing only, and to-wire: protojson.Unmarshal then
// proto.Marshal, the same input and output as transcode's), protojson into
// dynamicpb, and encoding/json into plain Go structs of the same shape.
func BenchmarkUnmarshal(b *testing.B) {
	cases := []struct {
		name  string
		msg   proto.Message
		plain func() any
	}{
		{"Small", fixture.Small(), func() any { return new(decSmall) }},
		{"Medium", fixture.Medium(), func() any { return new(decMedium) }},
	}
	for _, c := range cases {
		js, err := protojson.Marshal(c.msg)
		if err != nil {
			b.Fatal(err)
		}
		md := c.msg.ProtoReflect().Descriptor()
		typ := dynamic.TypeOf(md)
		b.Run(c.name+"/transcode", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Unmarshal(typ, js); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/protojson-generated", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				m := c.msg.ProtoReflect().New().Interface()
				if err := protojson.Unmarshal(js, m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/protojson-generated-to-wire", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				m := c.msg.ProtoReflect().New().Interface()
				if err := protojson.Unmarshal(js, m); err != nil {
					b.Fatal(err)
				}
				if _, err := proto.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/protojson-dynamicpb", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				m := dynamicpb.NewMessage(md)
				if err := protojson.Unmarshal(js, m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encoding-json-struct", func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(js, c.plain()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	_ = fixturev1.Small{}
}

// BenchmarkDecoderNext reads the benchmark messages from an endless NDJSON
// stream; the difference with BenchmarkUnmarshal is the cost of finding
// where each value ends.
func BenchmarkDecoderNext(b *testing.B) {
	for name, in := range decBenchInputs(b) {
		b.Run(name, func(b *testing.B) {
			dec := NewDecoder(&repeatReader{b: append(append([]byte(nil), in.js...), '\n')}, in.typ, UnmarshalOptions{})
			dst := make([]byte, 0, 2*len(in.js))
			b.SetBytes(int64(len(in.js) + 1))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dec.Next(dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
