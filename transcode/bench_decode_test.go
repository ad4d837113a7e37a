package transcode

import "testing"

// BenchmarkUnmarshal measures JSON -> wire on the Small and Medium
// fixtures: transcode, and as baselines in the same run protojson into the
// generated types (parsing only, and to-wire: protojson.Unmarshal then
// proto.Marshal, the same input and output as transcode's), protojson into
// dynamicpb, and encoding/json into plain Go structs of the same shape.
func BenchmarkUnmarshal(b *testing.B) {
	for _, c := range benchFixtures(b) {
		runOps(b, c.name, len(c.js),
			benchOp{"transcode", c.unmarshal},
			benchOp{"protojson-generated", c.protojsonParse},
			benchOp{"protojson-generated-to-wire", c.protojsonToWire},
			benchOp{"protojson-dynamicpb", c.dynamicpbParse},
			benchOp{"encoding-json-struct", c.jsonUnmarshal})
	}
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
