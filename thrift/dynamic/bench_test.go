package dynamic_test

import (
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// deepPaths are the fields BenchmarkTargets' Get reads, one per specimen:
// for Medium and Large a field of a struct in a map near the end of the
// struct, so that Get skips most of the bytes before it.
var deepPaths = map[string]string{
	"small":  "name",
	"medium": `byName["by-2 naïve"].name`,
	"large":  `main.byName["by-2 naïve"].name`,
}

// deepGo reads the same field from the generated value.
var deepGo = map[string]func(thrift.TStruct) string{
	"small":  func(s thrift.TStruct) string { return s.(*bench.Small).Name },
	"medium": func(s thrift.TStruct) string { return s.(*bench.Medium).ByName["by-2 naïve"].Name },
	"large":  func(s thrift.TStruct) string { return s.(*bench.Large).Main.ByName["by-2 naïve"].Name },
}

// frontPaths are deep fields near the front of each specimen, for
// BenchmarkTargets' GetFront: Get's time then goes to the path rather than
// to skipping the rest of the struct.
var frontPaths = map[string]string{
	"small":  "id",
	"medium": "items[8].name",
	"large":  "head.name",
}

var frontGo = map[string]func(thrift.TStruct) string{
	"small":  func(s thrift.TStruct) string { return string(rune(s.(*bench.Small).ID)) },
	"medium": func(s thrift.TStruct) string { return s.(*bench.Medium).Items[8].Name },
	"large":  func(s thrift.TStruct) string { return s.(*bench.Large).Head.Name },
}

// BenchmarkTargets pairs each operation with the generated code doing the
// same work (internal/benchpair) and reports x, the generated code's time
// over ours, on every specimen in both protocols. The targets are on
// Medium:
//
//	Get     one deep field, against Read then the field      >= 20x
//	        (GetFront: a deep field near the front, no target)
//	Set     one field, against Read, change, Write           >= 10x
//	Delete  one field, against Read, clear, Write            >= 10x
//	Keep    to MediumPart, against Read, copy, Write part    >= 3x
//	        (and Small to SmallPart; Large has no part type)
//	DOMLoad a reused Doc's Load, against Read                >= 2x
//	DOMEdit Load, Set, AppendTo, against Read, change, Write (no target)
func BenchmarkTargets(b *testing.B) {
	b.Run("Get", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchGet) })
	b.Run("GetFront", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchGetFront) })
	b.Run("Set", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchSet) })
	b.Run("Delete", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchDelete) })
	b.Run("Keep", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchKeep) })
	b.Run("DOMLoad", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchDOMLoad) })
	b.Run("DOMEdit", func(b *testing.B) { thriftfixture.EachSpecimen(b, benchDOMEdit) })
}

func benchDOMLoad(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	g := thriftfixture.NewGenerated(b, p, data)
	ty := thriftfixture.BenchType(b, s.Type)
	d := dynamic.NewDoc()
	benchpair.Compare(b, func() { g.Read(s.Type) }, func() {
		if err := d.Load(ty, p, data); err != nil {
			b.Fatal(err)
		}
	})
}

func benchDOMEdit(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	ty := thriftfixture.BenchType(b, s.Type)
	d := dynamic.NewDoc()
	path := dynamic.MustParsePath(setPaths[s.Name])
	buf := make([]byte, 0, 2*len(data))
	benchEdit(b, s, p, data, setGo[s.Name], func(_ dynamic.Value, dst []byte) ([]byte, error) {
		if err := d.Load(ty, p, data); err != nil {
			return nil, err
		}
		if err := d.Set(path, dynamic.StringVal("a new name")); err != nil {
			return nil, err
		}
		if dst == nil {
			return d.Marshal(), nil
		}
		buf = d.AppendTo(buf[:0])
		return buf, nil
	})
}

// partGo is Keep done on the generated structs.
var partGo = map[string]func(thrift.TStruct) thrift.TStruct{
	"small":  func(s thrift.TStruct) thrift.TStruct { return smallPart(s.(*bench.Small)) },
	"medium": func(s thrift.TStruct) thrift.TStruct { return mediumPart(s.(*bench.Medium)) },
}

func benchKeep(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	part := partGo[s.Name]
	if part == nil {
		b.Skip("no part type of " + s.Type)
	}
	g := thriftfixture.NewGenerated(b, p, data)
	to := thriftfixture.BenchType(b, s.Type+"Part")
	v := dynamic.NewValue(thriftfixture.BenchType(b, s.Type), p, data)
	out, err := v.Keep(nil, to)
	if err != nil {
		b.Fatal(err)
	}
	if !sameValue(b, p, decode(b, p, s.Type+"Part", out), part(g.Read(s.Type))) {
		b.Fatal("Keep and the generated code's copy differ")
	}
	buf := make([]byte, 0, len(data))
	benchpair.Compare(b, func() { g.Write(part(g.Read(s.Type))) }, func() {
		if _, err := v.Keep(buf, to); err != nil {
			b.Fatal(err)
		}
	})
}

// setPaths and setGo are the field Set changes in each specimen, a string
// in a nested struct, and the same change on the generated value.
var setPaths = map[string]string{"small": "name", "medium": "head.name", "large": "main.head.name"}

var setGo = map[string]func(thrift.TStruct){
	"small":  func(s thrift.TStruct) { s.(*bench.Small).Name = "a new name" },
	"medium": func(s thrift.TStruct) { s.(*bench.Medium).Head.Name = "a new name" },
	"large":  func(s thrift.TStruct) { s.(*bench.Large).Main.Head.Name = "a new name" },
}

// deletePaths and deleteGo are the field Delete drops in each specimen.
var deletePaths = map[string]string{"small": "name", "medium": "head", "large": "main"}

var deleteGo = map[string]func(thrift.TStruct){
	"small":  func(s thrift.TStruct) { s.(*bench.Small).Name = "" },
	"medium": func(s thrift.TStruct) { s.(*bench.Medium).Head = nil },
	"large":  func(s thrift.TStruct) { s.(*bench.Large).Main = nil },
}

func benchSet(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	path := dynamic.MustParsePath(setPaths[s.Name])
	benchEdit(b, s, p, data, setGo[s.Name], func(v dynamic.Value, dst []byte) ([]byte, error) {
		return v.Set(dst, path, dynamic.StringVal("a new name"))
	})
}

func benchDelete(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	path := dynamic.MustParsePath(deletePaths[s.Name])
	benchEdit(b, s, p, data, deleteGo[s.Name], func(v dynamic.Value, dst []byte) ([]byte, error) {
		return v.Delete(dst, path)
	})
}

// benchEdit pairs an edit of the bytes, into a reused buffer, with the
// generated code's Read, change and Write, after checking that the two
// give the same value.
func benchEdit(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte,
	change func(thrift.TStruct), edit func(dynamic.Value, []byte) ([]byte, error)) {
	g := thriftfixture.NewGenerated(b, p, data)
	v := dynamic.NewValue(thriftfixture.BenchType(b, s.Type), p, data)
	out, err := edit(v, nil)
	if err != nil {
		b.Fatal(err)
	}
	want := g.Read(s.Type)
	change(want)
	if !sameValue(b, p, decode(b, p, s.Type, out), want) {
		b.Fatal("the edit and the generated code's change differ")
	}
	buf := make([]byte, 0, 2*len(data))
	benchpair.Compare(b, func() {
		m := g.Read(s.Type)
		change(m)
		g.Write(m)
	}, func() {
		if _, err := edit(v, buf); err != nil {
			b.Fatal(err)
		}
	})
}

func benchGet(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	benchGetPath(b, s, p, data, deepPaths[s.Name], deepGo[s.Name])
}

func benchGetFront(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) {
	benchGetPath(b, s, p, data, frontPaths[s.Name], frontGo[s.Name])
}

func benchGetPath(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte, ps string, field func(thrift.TStruct) string) {
	g := thriftfixture.NewGenerated(b, p, data)
	v := dynamic.NewValue(thriftfixture.BenchType(b, s.Type), p, data)
	path := dynamic.MustParsePath(ps)
	if got, err := v.Get(path); err != nil || !got.Exists() {
		b.Fatalf("Get(%s) = %v", path, err)
	}
	var sink int
	benchpair.Compare(b, func() { sink += len(field(g.Read(s.Type))) }, func() {
		got, err := v.Get(path)
		if err != nil {
			b.Fatal(err)
		}
		sink += len(got.Binary())
	})
}
