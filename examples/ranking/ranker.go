package ranking

import (
	"context"
	"math"
	"time"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
)

// ctxCheckEvery is how many candidates are scored between context checks.
const ctxCheckEvery = 256

// query is what one ranking knows besides the candidates.
type query struct {
	user      userFeatures
	hour      int
	day       int32
	country   int // index in countries, -1 for none
	bigScreen bool
	// durationPref is the runtime the device favours, in [0, 1].
	durationPref float32
	// exclude is a title never to return (the one just played).
	exclude uint32
	hasExcl bool
}

// setContext fills the request-dependent parts of q.
func (q *query) setContext(rc *rankingv1.RequestContext, now time.Time) {
	if ts := rc.GetTimestamp(); ts != nil {
		now = ts.AsTime()
	}
	now = now.UTC()
	q.hour = now.Hour()
	q.day = int32(now.Unix() / 86400)
	q.country = -1
	for i, c := range countries {
		if c == rc.GetCountry() {
			q.country = i
		}
	}
	q.bigScreen = rc.GetDevice() == rankingv1.Device_DEVICE_TV || rc.GetPlatform() == rankingv1.Platform_PLATFORM_SMART_TV
	q.durationPref = devicePref(rc.GetDevice())
}

func devicePref(d rankingv1.Device) float32 {
	switch d {
	case rankingv1.Device_DEVICE_PHONE:
		return 0.2
	case rankingv1.Device_DEVICE_TABLET:
		return 0.5
	case rankingv1.Device_DEVICE_TV:
		return 0.9
	}
	return 0.6
}

// ranker scores candidates with the model over the catalogue.
type ranker struct {
	cat   *catalogue
	model *model
}

// features computes the model input for title id.
func (r *ranker) features(q *query, id uint32, x *[numFeatures]float32) {
	it := &r.cat.items[id]
	x[fAffinity] = dot(q.user.emb, r.cat.vector(id))
	x[fPopularity] = it.popularity
	age := float64(max(q.day-it.releaseDay, 0))
	x[fRecency] = float32(math.Exp(-age / 180))
	x[fGenrePref] = q.user.genrePref[it.genre]
	x[fGenreCTR] = q.user.genreCTR[it.genre]
	x[fDeviceFit] = 1 - abs32(it.duration-q.durationPref)
	x[fPlatform] = 0
	if it.hdr && q.bigScreen {
		x[fPlatform] = 1
	}
	x[fLocal] = 0
	if int(it.country) == q.country {
		x[fLocal] = 1
	}
	x[fDaypart] = daypart(q.hour, int(it.peakHour))
	x[fSeen] = seen(q.user.recent, id)
	x[fQuality] = it.quality
	x[fActivity] = q.user.activity
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// daypartTable[d] is cos(2πd/24) for an hour distance d.
var daypartTable = func() (t [24]float32) {
	for d := range t {
		t[d] = float32(math.Cos(2 * math.Pi * float64(d) / 24))
	}
	return t
}()

func daypart(hour, peak int) float32 { return daypartTable[(hour-peak+24)%24] }

func seen(recent []uint32, id uint32) float32 {
	for _, r := range recent {
		if r == id {
			return 1
		}
	}
	return 0
}

// rank scores the candidates and returns the best limit of them, best
// first. It checks ctx every ctxCheckEvery candidates and returns its
// error once it is done.
func (r *ranker) rank(ctx context.Context, q *query, candidates []uint32, limit int) ([]scored, error) {
	top := newTopK(limit)
	var x [numFeatures]float32
	for i, id := range candidates {
		if i%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if q.hasExcl && id == q.exclude {
			continue
		}
		r.features(q, id, &x)
		top.push(scored{id: id, score: r.model.score(&x)})
	}
	return top.sorted(), nil
}
