package ranking

import (
	"math"
	"math/rand/v2"
)

// genres names the catalogue's genres; an item's genre indexes it.
var genres = [...]string{
	"drama", "comedy", "thriller", "documentary", "animation", "action",
	"romance", "horror", "sci-fi", "crime", "family", "music",
	"sport", "history", "fantasy", "reality",
}

const numGenres = len(genres)

// countries are the home countries of local titles.
var countries = [...]string{"US", "GB", "FR", "DE", "ES", "IT", "JP", "KR", "IN", "BR", "MX", "CA"}

// releaseSpanDays is how far back the catalogue's release dates go.
const releaseSpanDays = 3650

// catalogueEpochDay is the day (since 1970) the newest titles come out;
// fixed so the catalogue does not depend on the clock.
const catalogueEpochDay = 20454 // 2026-01-01

// item holds one title's precomputed features.
type item struct {
	genre      uint8
	country    uint8
	peakHour   uint8   // hour of day it is watched most
	popularity float32 // log-scaled views, in [0, 1]
	quality    float32 // in [0, 1]
	duration   float32 // normalized runtime, in [0, 1]
	releaseDay int32   // days since 1970
	hdr        bool    // has a high-dynamic-range master
}

// catalogue is the synthetic title catalogue. Embeddings are stored flat,
// item i at emb[i*dim : (i+1)*dim], and have unit norm.
type catalogue struct {
	dim   int
	items []item
	emb   []float32
	// genreCentres are the unit vectors titles of a genre cluster around.
	genreCentres [][]float32
}

// newCatalogue generates size titles with dim-dimensional embeddings from
// seed; the same arguments give the same catalogue.
func newCatalogue(size, dim int, seed uint64) *catalogue {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := &catalogue{dim: dim, items: make([]item, size), emb: make([]float32, size*dim)}
	c.genreCentres = make([][]float32, numGenres)
	for g := range c.genreCentres {
		c.genreCentres[g] = randomUnit(rng, dim)
	}
	for i := range c.items {
		c.items[i] = randomItem(rng, i, size)
		c.embed(rng, i)
	}
	return c
}

// randomItem draws a title's features; popularity follows a Zipf-like law
// over a random rank.
func randomItem(rng *rand.Rand, i, size int) item {
	rank := 1 + rng.IntN(size)
	return item{
		genre:      uint8(rng.IntN(numGenres)),
		country:    uint8(rng.IntN(len(countries))),
		peakHour:   uint8(rng.IntN(24)),
		popularity: float32(1 - math.Log(float64(rank))/math.Log(float64(size)+1)),
		quality:    float32(rng.Float64()),
		duration:   float32(rng.Float64()),
		releaseDay: int32(catalogueEpochDay - rng.IntN(releaseSpanDays)),
		hdr:        rng.IntN(3) == 0,
	}
}

// embed places item i near its genre's centre.
func (c *catalogue) embed(rng *rand.Rand, i int) {
	v := c.emb[i*c.dim : (i+1)*c.dim]
	centre := c.genreCentres[c.items[i].genre]
	for d := range v {
		v[d] = centre[d] + 0.8*float32(rng.NormFloat64())/float32(math.Sqrt(float64(c.dim)))
	}
	normalize(v)
}

func (c *catalogue) size() int { return len(c.items) }

// vector returns item i's embedding.
func (c *catalogue) vector(i uint32) []float32 {
	return c.emb[int(i)*c.dim : (int(i)+1)*c.dim]
}

func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for d := range v {
		v[d] = float32(rng.NormFloat64())
	}
	normalize(v)
	return v
}

func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(n))
	for d := range v {
		v[d] *= inv
	}
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// draw returns n distinct item ids, a deterministic function of key: a
// walk from a key-chosen start with a stride coprime to the catalogue size.
func (c *catalogue) draw(key uint64, n int, out []uint32) []uint32 {
	size := uint64(c.size())
	start := key % size
	stride := coprimeStride(key>>20, size)
	for k := uint64(0); k < uint64(n); k++ {
		out = append(out, uint32((start+k*stride)%size))
	}
	return out
}

// coprimeStride picks a stride near a large fraction of size that shares
// no factor with it, so the walk visits distinct items.
func coprimeStride(key, size uint64) uint64 {
	if size <= 2 {
		return 1
	}
	s := size/3 + key%(size/3+1)
	for i := uint64(0); i < size; i++ { // bounded: some s < size is coprime
		if c := (s+i)%(size-1) + 1; gcd(c, size) == 1 {
			return c
		}
	}
	return 1
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
