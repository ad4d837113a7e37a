package transcode

import "testing"

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
