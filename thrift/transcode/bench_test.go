package transcode_test

import (
	"bytes"
	"context"
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
	b.Run("ToJSON", func(b *testing.B) { eachSpecimen(b, benchToJSON) })
	b.Run("ToJSONGeneric", func(b *testing.B) { eachSpecimen(b, benchToJSONGeneric) })
	b.Run("FromJSON", func(b *testing.B) { eachSpecimen(b, benchFromJSON) })
	b.Run("FromJSONGeneric", func(b *testing.B) { eachSpecimen(b, benchFromJSONGeneric) })
}

// eachSpecimen runs fn for every specimen in both protocols.
func eachSpecimen(b *testing.B, fn func(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte)) {
	for _, s := range thriftfixture.Specimens {
		for _, pr := range thriftfixture.Protocols {
			data := readSpecimen(b, s.Name, pr.Ext)
			b.Run(s.Name+"."+pr.Ext, func(b *testing.B) { fn(b, s, pr.Proto, data) })
		}
	}
}

func benchToJSON(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	g := newGenerated(b, p, data)
	typ := benchType(b, s.Type)
	o := transcode.MarshalOptions{Protocol: p}
	mustMarshal(b, o, s, data)
	benchpair.Compare(b, func() {
		if _, err := goMarshal(g.read(s.Type)); err != nil {
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
	g := newGenerated(b, p, data)
	typ := benchType(b, s.Type)
	j := mustMarshal(b, transcode.MarshalOptions{Protocol: p}, s, data)
	goJSON, err := goMarshal(g.read(s.Type))
	if err != nil {
		b.Fatal(err)
	}
	o := transcode.UnmarshalOptions{Protocol: p}
	benchpair.Compare(b, func() {
		v, err := goUnmarshal(s.Type, goJSON)
		if err != nil {
			b.Fatal(err)
		}
		g.write(v)
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

// generated holds the generated code's side of a benchmark: a memory
// transport to read from and write to, and a protocol over it.
type generated struct {
	b    testing.TB
	in   []byte
	buf  *thrift.TMemoryBuffer
	prot thrift.TProtocol
}

func newGenerated(b testing.TB, p wire.Protocol, in []byte) *generated {
	buf := thrift.NewTMemoryBufferLen(2 * len(in))
	return &generated{b, in, buf, thriftfixture.Protocol(p, buf)}
}

func (g *generated) read(name string) thrift.TStruct {
	g.buf.Reset()
	g.buf.Write(g.in)
	s := thriftfixture.New(name)
	if err := s.Read(context.Background(), g.prot); err != nil {
		g.b.Fatal(err)
	}
	return s
}

func (g *generated) write(s thrift.TStruct) {
	g.buf.Reset()
	if err := s.Write(context.Background(), g.prot); err != nil {
		g.b.Fatal(err)
	}
	if err := g.prot.Flush(context.Background()); err != nil {
		g.b.Fatal(err)
	}
}
