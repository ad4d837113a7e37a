// Package thriftfixture builds the values of thrift/testdata/bench.thrift
// that the Thrift side's tests and benchmarks share: the Small (about 150
// bytes), Medium (about 6 KB) and Large (about 100 KB) specimens, random
// values of every struct, and their encodings by the Apache Thrift Go
// library, the oracle. Everything is deterministic: the specimens are
// built from fixed seeds, and map entries, which the generated code writes
// in Go's random map order, are sorted by their encoded keys.
//
// For the tests and benchmarks of several packages it also gives
// bench.thrift's compiled Types, the specimens' files and the generated
// code's side of a benchmark.
//
// It imports the generated code, the Apache Thrift library, thrift/wire
// (to sort map entries), thrift/idl and thrift/dynamic (bench.thrift's
// Types) and the standard library.
package thriftfixture

import (
	"fmt"
	"math/rand/v2"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
)

// words are the texts the strings are made of; some are not ASCII.
var words = [...]string{
	"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"grüße", "café", "naïve", "Zürich", "東京", "пример", "ελληνικά", "😀",
}

// text returns n words picked by r, joined by spaces.
func text(r *rand.Rand, n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += " "
		}
		s += words[r.IntN(len(words))]
	}
	return s
}

func blob(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// Small returns the small specimen: six scalar fields, about 150 bytes.
func Small() *bench.Small { return small(newRand(1), 1) }

// small returns a Small whose id is id, the rest drawn from r.
func small(r *rand.Rand, id int64) *bench.Small {
	return &bench.Small{
		Tiny:  int8(r.IntN(256) - 128),
		ID:    id*1_000_003 + r.Int64N(1_000_000),
		Score: float64(r.IntN(1_000_000)) / 1024,
		Count: r.Int32N(1 << 20),
		Name:  fmt.Sprintf("small #%d: %s", id, text(r, 6)),
		Blob:  blob(r, 32+r.IntN(32)),
	}
}

// Medium returns the medium specimen: every field of Medium set, lists
// and maps of seventeen entries, about 6 KB.
func Medium() *bench.Medium { return medium(newRand(2), 1, 17) }

// medium returns a Medium with n entries in each list and map.
func medium(r *rand.Rand, id int64, n int) *bench.Medium {
	m := &bench.Medium{
		Title:  fmt.Sprintf("medium #%d — %s", id, text(r, 8)),
		Ratio:  r.Float64(),
		Code:   r.Int32N(600),
		Total:  r.Int64() - r.Int64(),
		Labels: map[string]string{},
		Head:   small(r, id*100),
		Totals: map[int32]int64{},
		Raw:    blob(r, 64),
		Names:  map[int64]string{},
		Flag:   int8(r.IntN(2)),
		ByName: map[string]*bench.Small{},
		Level:  bench.LevelPtr(bench.Level(1 + r.IntN(3))),
		At:     bench.MillisPtr(bench.Millis(1_700_000_000_000 + r.Int64N(1e10))),
	}
	for i := range n {
		k := int64(i)
		m.Items = append(m.Items, small(r, id*100+k+1))
		m.Counts = append(m.Counts, r.Int32()-r.Int32())
		m.Labels[fmt.Sprintf("label-%d-%s", i, words[i%len(words)])] = text(r, 3)
		m.Totals[int32(i*7)] = r.Int64N(1 << 40)
		m.Tags = append(m.Tags, text(r, 2))
		m.Names[k*1_000_000_007] = text(r, 2)
		m.Ids = append(m.Ids, r.Int64())
		m.Kinds = append(m.Kinds, fmt.Sprintf("kind-%d %s", i, words[(i+3)%len(words)]))
	}
	for i := range n / 4 {
		m.ByName[fmt.Sprintf("by-%d %s", i, words[(i+8)%len(words)])] = small(r, id*100+50+int64(i))
	}
	return m
}

// Large returns the large specimen: Mediums in a list, a set and a map
// keyed by Smalls, about 100 KB.
func Large() *bench.Large {
	r := newRand(3)
	l := &bench.Large{
		BySmall: map[*bench.Small]*bench.Medium{},
		Head:    small(r, 7),
		Flag:    1,
		Ratio:   r.Float64(),
		Total:   r.Int64(),
		Main:    medium(r, 1000, 17),
		Raw:     blob(r, 2048),
		Note:    text(r, 40),
		Count:   r.Int32(),
	}
	for i := range int64(6) {
		l.BySmall[small(r, 2000+i)] = medium(r, 2000+i, 10)
	}
	for i := range int64(12) {
		l.Pages = append(l.Pages, medium(r, 3000+i, 10))
	}
	for i := range int64(6) {
		l.Unique = append(l.Unique, medium(r, 4000+i, 10))
	}
	return l
}
