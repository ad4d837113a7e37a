package transcode_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// BenchmarkTargets pairs each direction with its baselines
// (internal/benchpair) on Small, Medium and Large in both protocols and
// reports x, the baseline's time over ours. Ours allocates its result, once.
//
//	ToJSON          Marshal, against the generated Read + encoding/json    >= 3x
//	ToJSONGeneric   Marshal, against the generic map[string]any codec      >= 10x
//	FromJSON        Unmarshal, against encoding/json into the generated
//	                struct + Write                                         >= 3x
//	FromJSONGeneric Unmarshal, against the generic codec                   >= 10x
//
// Large's map keyed by Small goes through encoding/json as a list of
// key-value entries, as in this package's mapping (encoding/json has no
// form for struct keys).
func BenchmarkTargets(b *testing.B) {
	b.Run("ToJSON", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchToJSON) })
	b.Run("ToJSONGeneric", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchToJSONGeneric) })
	b.Run("FromJSON", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchFromJSON) })
	b.Run("FromJSONGeneric", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchFromJSONGeneric) })
}

func benchToJSON(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	g := thriftfixture.NewGenerated(b, p, data)
	typ := benchType(b, s.Type)
	o := transcode.MarshalOptions{Protocol: p}
	mustMarshal(b, o, s, data)
	benchpair.Compare(b, func() {
		if _, err := goMarshal(g.Read(s.Type)); err != nil {
			b.Fatal(err)
		}
	}, func() {
		if _, err := o.Marshal(typ, data); err != nil {
			b.Fatal(err)
		}
	})
}

func benchToJSONGeneric(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	typ := benchType(b, s.Type)
	o := transcode.MarshalOptions{Protocol: p}
	mustMarshal(b, o, s, data)
	benchpair.Compare(b, func() {
		if _, err := genericToJSON(p, typ, data); err != nil {
			b.Fatal(err)
		}
	}, func() {
		if _, err := o.Marshal(typ, data); err != nil {
			b.Fatal(err)
		}
	})
}

func benchFromJSON(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	g := thriftfixture.NewGenerated(b, p, data)
	typ := benchType(b, s.Type)
	j := mustMarshal(b, transcode.MarshalOptions{Protocol: p}, s, data)
	goJSON, err := goMarshal(g.Read(s.Type))
	if err != nil {
		b.Fatal(err)
	}
	o := transcode.UnmarshalOptions{Protocol: p}
	benchpair.Compare(b, func() {
		v, err := goUnmarshal(s.Type, goJSON)
		if err != nil {
			b.Fatal(err)
		}
		g.Write(v)
	}, func() {
		if _, err := o.Unmarshal(typ, j); err != nil {
			b.Fatal(err)
		}
	})
}

func benchFromJSONGeneric(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	typ := benchType(b, s.Type)
	j := mustMarshal(b, transcode.MarshalOptions{Protocol: p}, s, data)
	out, err := genericFromJSON(p, typ, j)
	if err != nil {
		b.Fatal(err)
	}
	if c, err := thriftfixture.Canonical(p, out); err != nil || !bytes.Equal(c, data) {
		b.Fatalf("the generic codec does not give the specimen back: %v", err)
	}
	o := transcode.UnmarshalOptions{Protocol: p}
	benchpair.Compare(b, func() {
		if _, err := genericFromJSON(p, typ, j); err != nil {
			b.Fatal(err)
		}
	}, func() {
		if _, err := o.Unmarshal(typ, j); err != nil {
			b.Fatal(err)
		}
	})
}

// mustMarshal converts the specimen and checks that it comes back.
func mustMarshal(b *testing.B, o transcode.MarshalOptions, s thriftfixture.Specimen, data []byte) []byte {
	typ := benchType(b, s.Type)
	j, err := o.Marshal(typ, data)
	if err != nil {
		b.Fatal(err)
	}
	back, err := transcode.UnmarshalOptions{Protocol: o.Protocol}.Unmarshal(typ, j)
	if err != nil || !bytes.Equal(back, data) {
		b.Fatalf("%s does not come back from JSON: %v", s.Name, err)
	}
	return j
}

// largeJSON is Large for encoding/json, its map keyed by Small a list of
// entries.
type largeJSON struct {
	*bench.Large
	BySmall []smallEntry `json:"bySmall"`
}

type smallEntry struct {
	Key   *bench.Small  `json:"key"`
	Value *bench.Medium `json:"value"`
}

func goMarshal(v thrift.TStruct) ([]byte, error) {
	if l, ok := v.(*bench.Large); ok {
		w := largeJSON{Large: l, BySmall: make([]smallEntry, 0, len(l.BySmall))}
		for k, m := range l.BySmall {
			w.BySmall = append(w.BySmall, smallEntry{k, m})
		}
		return json.Marshal(w)
	}
	return json.Marshal(v)
}

func goUnmarshal(name string, in []byte) (thrift.TStruct, error) {
	v := thriftfixture.New(name)
	l, ok := v.(*bench.Large)
	if !ok {
		return v, json.Unmarshal(in, v)
	}
	w := largeJSON{Large: l}
	if err := json.Unmarshal(in, &w); err != nil {
		return nil, err
	}
	l.BySmall = make(map[*bench.Small]*bench.Medium, len(w.BySmall))
	for _, e := range w.BySmall {
		l.BySmall[e.Key] = e.Value
	}
	return l, nil
}
