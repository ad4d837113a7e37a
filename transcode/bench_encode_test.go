package transcode

import (
	"encoding/json"
	"testing"

	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
)

// BenchmarkMarshal measures wire -> JSON on the Small and Medium fixtures:
// transcode, and as baselines in the same run protojson on the generated
// types (printing a message already parsed, and from-wire: proto.Unmarshal
// then protojson.Marshal, the same input and output as transcode's),
// protojson on dynamicpb (parsing included, as a dynamic gateway must), and
// encoding/json on plain Go structs holding the same data.
func BenchmarkMarshal(b *testing.B) {
	for _, c := range benchFixtures(b) {
		runOps(b, c.name, len(c.wire),
			benchOp{"transcode", c.marshal},
			benchOp{"transcode-append", c.marshalAppend},
			benchOp{"protojson-generated", c.protojsonPrint},
			benchOp{"protojson-generated-from-wire", c.protojsonFromWire},
			benchOp{"protojson-dynamicpb", c.dynamicpbFromWire},
			benchOp{"encoding-json-struct", c.jsonMarshal})
	}
}

// Plain Go structs with the fixtures' data and JSON names, for the
// encoding/json reference both ways (64-bit integers as strings, as in
// proto JSON).
type (
	smallJSON struct {
		ID     int64   `json:"id,string"`
		Name   string  `json:"name"`
		Score  float64 `json:"score"`
		Count  int32   `json:"count"`
		Status string  `json:"status"`
		Token  []byte  `json:"token"`
	}
	mediumJSON struct {
		ID         int64                `json:"id,string"`
		Title      string               `json:"title"`
		Header     *headerJSON          `json:"header"`
		Entries    []*entryJSON         `json:"entries"`
		Samples    []string             `json:"samples"`
		Labels     []string             `json:"labels"`
		Statuses   []string             `json:"statuses"`
		Attributes map[string]string    `json:"attributes"`
		Names      map[int64]string     `json:"names"`
		Counters   map[string]string    `json:"counters"`
		Index      map[string]entryJSON `json:"index"`
		Score      float64              `json:"score"`
		Archived   bool                 `json:"archived,omitempty"`
	}
	headerJSON struct {
		Source  string    `json:"source"`
		Created int64     `json:"created,string"`
		Meta    *metaJSON `json:"meta"`
	}
	metaJSON struct {
		Region string      `json:"region"`
		Origin *originJSON `json:"origin"`
		Tags   []string    `json:"tags"`
	}
	originJSON struct {
		Host      string  `json:"host"`
		Port      int32   `json:"port"`
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	}
	entryJSON struct {
		ID       int64       `json:"id,string"`
		Name     string      `json:"name"`
		Price    float64     `json:"price"`
		Quantity int32       `json:"quantity,omitempty"`
		Status   string      `json:"status"`
		Tags     []string    `json:"tags"`
		Origin   *originJSON `json:"origin"`
	}
)

func plainSmall(m *fixturev1.Small) smallJSON {
	return smallJSON{m.Id, m.Name, m.Score, m.Count, m.Status.String(), m.Token}
}

func plainOrigin(o *fixturev1.Origin) *originJSON {
	return &originJSON{o.Host, o.Port, o.Latitude, o.Longitude}
}

func plainEntry(e *fixturev1.Entry) entryJSON {
	return entryJSON{e.Id, e.Name, e.Price, e.Quantity, e.Status.String(), e.Tags, plainOrigin(e.Origin)}
}

func plainMedium(m *fixturev1.Medium) mediumJSON {
	h := m.Header
	p := mediumJSON{
		ID: m.Id, Title: m.Title, Score: m.Score, Archived: m.Archived, Labels: m.Labels,
		Header:     &headerJSON{h.Source, h.Created, &metaJSON{h.Meta.Region, plainOrigin(h.Meta.Origin), h.Meta.Tags}},
		Attributes: m.Attributes, Names: m.Names, Counters: map[string]string{}, Index: map[string]entryJSON{},
	}
	for _, e := range m.Entries {
		pe := plainEntry(e)
		p.Entries = append(p.Entries, &pe)
	}
	for _, s := range m.Samples {
		p.Samples = append(p.Samples, jsonInt(s))
	}
	for _, s := range m.Statuses {
		p.Statuses = append(p.Statuses, s.String())
	}
	for k, v := range m.Counters {
		p.Counters[k] = jsonInt(v)
	}
	for k, v := range m.Index {
		p.Index[k] = plainEntry(v)
	}
	return p
}

func jsonInt(v int64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
