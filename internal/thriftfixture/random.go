package thriftfixture

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
)

// Names lists the structs of bench.thrift, in declaration order.
var Names = []string{"Small", "SmallPart", "Medium", "MediumPart", "Large", "Pick", "BenchError"}

// Random returns a random value of the named struct of bench.thrift, drawn
// from seed: extreme numbers, empty and non-ASCII strings, empty and
// populated containers, unset optional fields.
func Random(name string, seed uint64) thrift.TStruct {
	g := gen{newRand(seed)}
	switch name {
	case "Small":
		return g.small()
	case "SmallPart":
		return g.smallPart()
	case "Medium":
		return g.medium(2)
	case "MediumPart":
		return g.mediumPart()
	case "Large":
		return g.large()
	case "Pick":
		return g.pick()
	case "BenchError":
		return &bench.BenchError{Code: g.i32(), Message: g.str()}
	}
	panic("thriftfixture: no struct " + name) // a test's typo
}

// New returns an empty value of the named struct, to read into.
func New(name string) thrift.TStruct {
	switch name {
	case "Small":
		return bench.NewSmall()
	case "SmallPart":
		return bench.NewSmallPart()
	case "Medium":
		return bench.NewMedium()
	case "MediumPart":
		return bench.NewMediumPart()
	case "Large":
		return bench.NewLarge()
	case "Pick":
		return bench.NewPick()
	case "BenchError":
		return bench.NewBenchError()
	}
	panic("thriftfixture: no struct " + name)
}

type gen struct{ r *rand.Rand }

// n returns a container size, often 0.
func (g gen) n(max int) int {
	if g.r.IntN(4) == 0 {
		return 0
	}
	return g.r.IntN(max + 1)
}

var edgeInts = []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 63, 64, -64, -65, 1 << 35}

func (g gen) i64() int64 {
	if g.r.IntN(3) == 0 {
		return edgeInts[g.r.IntN(len(edgeInts))]
	}
	return g.r.Int64() >> g.r.IntN(64)
}

func (g gen) i32() int32 { return int32(g.i64()) }
func (g gen) i8() int8   { return int8(g.i64()) }

var edgeDoubles = []float64{0, math.Copysign(0, -1), 1, -1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1)}

func (g gen) double() float64 {
	if g.r.IntN(3) == 0 {
		return edgeDoubles[g.r.IntN(len(edgeDoubles))]
	}
	return g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(40)-20))
}

func (g gen) str() string { return text(g.r, g.n(5)) }

func (g gen) bytes() []byte {
	if g.r.IntN(4) == 0 {
		return nil
	}
	return blob(g.r, g.r.IntN(300))
}

func (g gen) small() *bench.Small {
	return &bench.Small{Tiny: g.i8(), ID: g.i64(), Score: g.double(), Count: g.i32(), Name: g.str(), Blob: g.bytes()}
}

func (g gen) smallPart() *bench.SmallPart {
	return &bench.SmallPart{Tiny: g.i8(), Score: g.double(), Blob: g.bytes()}
}

// medium returns a random Medium; depth bounds the Smalls it holds.
func (g gen) medium(n int) *bench.Medium {
	m := &bench.Medium{
		Title: g.str(), Ratio: g.double(), Code: g.i32(), Total: g.i64(), Head: g.small(),
		Raw: g.bytes(), Flag: g.i8(), Labels: map[string]string{}, Totals: map[int32]int64{},
		Names: map[int64]string{}, ByName: map[string]*bench.Small{},
	}
	if g.r.IntN(2) == 0 {
		m.Head = nil
	}
	if g.r.IntN(2) == 0 {
		m.Level = bench.LevelPtr(bench.Level(g.i32()))
	}
	if g.r.IntN(2) == 0 {
		m.At = bench.MillisPtr(bench.Millis(g.i64()))
	}
	g.mediumLists(m, n)
	g.mediumMaps(m, n)
	return m
}

func (g gen) mediumLists(m *bench.Medium, n int) {
	for range g.n(n) {
		m.Items = append(m.Items, g.small())
	}
	for range g.n(4 * n) {
		m.Counts = append(m.Counts, g.i32())
	}
	for range g.n(n) {
		m.Tags = append(m.Tags, g.str())
	}
	for range g.n(4 * n) {
		m.Ids = append(m.Ids, g.i64())
	}
	for i := range g.n(n) { // a set: its elements differ
		m.Kinds = append(m.Kinds, fmt.Sprint(i, g.str()))
	}
}

func (g gen) mediumMaps(m *bench.Medium, n int) {
	for range g.n(n) {
		m.Labels[g.str()] = g.str()
	}
	for range g.n(n) {
		m.Totals[g.i32()] = g.i64()
	}
	for range g.n(n) {
		m.Names[g.i64()] = g.str()
	}
	for range g.n(n) {
		m.ByName[g.str()] = g.small()
	}
}

func (g gen) mediumPart() *bench.MediumPart {
	m := &bench.MediumPart{ByName: map[string]*bench.SmallPart{}}
	for range g.n(4) {
		m.Items = append(m.Items, g.smallPart())
	}
	if g.r.IntN(2) == 0 {
		m.Head = g.smallPart()
	}
	for range g.n(4) {
		m.ByName[g.str()] = g.smallPart()
	}
	return m
}

func (g gen) large() *bench.Large {
	l := &bench.Large{
		BySmall: map[*bench.Small]*bench.Medium{}, Head: g.small(), Flag: g.i8(), Ratio: g.double(),
		Total: g.i64(), Main: g.medium(2), Raw: g.bytes(), Note: g.str(), Count: g.i32(),
	}
	for i := range g.n(3) {
		k := g.small()
		k.ID = int64(i) // distinct keys
		l.BySmall[k] = g.medium(2)
	}
	for range g.n(3) {
		l.Pages = append(l.Pages, g.medium(2))
	}
	for i := range g.n(3) { // a set: its elements differ
		m := g.medium(2)
		m.Total = int64(i)
		l.Unique = append(l.Unique, m)
	}
	return l
}

func (g gen) pick() *bench.Pick {
	switch g.r.IntN(3) {
	case 0:
		return &bench.Pick{Small: g.small()}
	case 1:
		s := g.str()
		return &bench.Pick{Text: &s}
	}
	v := g.i64()
	return &bench.Pick{Number: &v}
}
