package ranking

import (
	"hash/fnv"
	"math/rand/v2"
	"sync"
)

// recentLen is how many recently watched or clicked titles a user keeps.
const recentLen = 32

// learningRate is how far a click moves the user's embedding toward the
// clicked title.
const learningRate = 0.08

// userState is one user's online features.
type userState struct {
	mu          sync.Mutex
	emb         []float32
	genrePref   [numGenres]float32
	impressions [numGenres]uint32
	clicks      [numGenres]uint32
	events      uint32
	recent      [recentLen]uint32
	recentN     int // titles ever added; recent is a ring
}

// userFeatures is a snapshot of a user's features for one ranking.
type userFeatures struct {
	emb       []float32
	genrePref [numGenres]float32
	genreCTR  [numGenres]float32
	activity  float32
	recent    []uint32
}

const userShards = 64

// userStore holds user states, created on first sight from a hash of the
// user id, so a user's cold-start features are deterministic. It keeps at
// most about maxUsers users, evicting arbitrary ones past that.
type userStore struct {
	cat      *catalogue
	seed     uint64
	perShard int
	shards   [userShards]struct {
		mu sync.Mutex
		m  map[string]*userState
	}
}

func newUserStore(cat *catalogue, seed uint64, maxUsers int) *userStore {
	s := &userStore{cat: cat, seed: seed, perShard: max(1, maxUsers/userShards)}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*userState)
	}
	return s
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// get returns the user's state, creating it on first sight.
func (s *userStore) get(id string) *userState {
	h := hashString(id)
	sh := &s.shards[h%userShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if u, ok := sh.m[id]; ok {
		return u
	}
	if len(sh.m) >= s.perShard {
		for k := range sh.m { // evict one arbitrary user
			delete(sh.m, k)
			break
		}
	}
	u := s.coldStart(h)
	sh.m[id] = u
	return u
}

// coldStart makes a user who likes two or three genres.
func (s *userStore) coldStart(h uint64) *userState {
	rng := rand.New(rand.NewPCG(h, s.seed))
	u := &userState{emb: make([]float32, s.cat.dim)}
	for range 2 + rng.IntN(2) {
		g := rng.IntN(numGenres)
		u.genrePref[g] += 0.3 + 0.4*float32(rng.Float64())
		w := float32(rng.Float64())
		for d, c := range s.cat.genreCentres[g] {
			u.emb[d] += w * c
		}
	}
	for d := range u.emb {
		u.emb[d] += 0.2 * float32(rng.NormFloat64()) / float32(s.cat.dim)
	}
	normalize(u.emb)
	return u
}

// snapshot copies the features a ranking needs into f, reusing its slices.
func (u *userState) snapshot(f *userFeatures) {
	u.mu.Lock()
	defer u.mu.Unlock()
	f.emb = append(f.emb[:0], u.emb...)
	f.genrePref = u.genrePref
	for g := range f.genreCTR {
		f.genreCTR[g] = (float32(u.clicks[g]) + 1) / (float32(u.impressions[g]) + 10)
	}
	f.activity = float32(min(u.events, 1000)) / 1000
	n := min(u.recentN, recentLen)
	f.recent = append(f.recent[:0], u.recent[:n]...)
}

// impression records that the user was shown a title.
func (u *userState) impression(g uint8) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.impressions[g]++
	u.events++
}

// engage records a click or a completed playback (weight > 0) or a skip
// (weight < 0): the embedding and the genre preference move toward or away
// from the title, which joins the recent ones.
func (u *userState) engage(id uint32, g uint8, v []float32, weight float32) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if weight > 0 {
		u.clicks[g]++
	}
	u.events++
	lr := learningRate * weight
	for d := range u.emb {
		u.emb[d] += lr * (v[d] - u.emb[d])
	}
	normalize(u.emb)
	u.genrePref[g] = min(max(u.genrePref[g]+0.05*weight, -1), 1)
	u.recent[u.recentN%recentLen] = id
	u.recentN++
}
