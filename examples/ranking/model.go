package ranking

import (
	"math"
	"math/rand/v2"
)

// The scorer's input features, in order.
const (
	fAffinity   = iota // user-title embedding dot product
	fPopularity        // log-scaled views
	fRecency           // exp(-age / 180 days)
	fGenrePref         // the user's preference for the title's genre
	fGenreCTR          // the user's smoothed click rate on the genre
	fDeviceFit         // runtime against what the device favours
	fPlatform          // HDR title on a big screen
	fLocal             // title from the request's country
	fDaypart           // hour of day against the title's peak hour
	fSeen              // recently watched or clicked by the user
	fQuality           // editorial quality
	fActivity          // how active the user is
	numFeatures
)

const hiddenUnits = 16

// ModelVersion names the scorer's architecture and weights.
const ModelVersion = "affinity-mlp-12x16-v1"

// model scores a feature vector: a logistic layer whose hand-set weights
// carry the main effects, plus a one-hidden-layer ReLU MLP for
// interactions, through a sigmoid.
type model struct {
	wLin [numFeatures]float32
	bias float32
	w1   [hiddenUnits][numFeatures]float32
	b1   [hiddenUnits]float32
	w2   [hiddenUnits]float32
}

func newModel(seed uint64) *model {
	m := &model{
		wLin: [numFeatures]float32{
			fAffinity: 3.0, fPopularity: 1.2, fRecency: 0.8, fGenrePref: 1.5, fGenreCTR: 2.0,
			fDeviceFit: 0.4, fPlatform: 0.3, fLocal: 0.5, fDaypart: 0.3, fSeen: -2.5,
			fQuality: 0.7, fActivity: 0.1,
		},
		bias: -3.0,
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6f64656c))
	for h := range m.w1 {
		for f := range m.w1[h] {
			m.w1[h][f] = float32(rng.NormFloat64()) * 0.5
		}
		m.b1[h] = float32(rng.NormFloat64()) * 0.1
		m.w2[h] = float32(rng.NormFloat64()) * 0.15
	}
	return m
}

// score returns the click probability for x.
func (m *model) score(x *[numFeatures]float32) float32 {
	z := m.bias
	for f, w := range m.wLin {
		z += w * x[f]
	}
	for h := range m.w1 {
		a := m.b1[h]
		row := &m.w1[h]
		for f, w := range row {
			a += w * x[f]
		}
		if a > 0 {
			z += m.w2[h] * a
		}
	}
	return sigmoid(z)
}

func sigmoid(z float32) float32 { return float32(1 / (1 + math.Exp(-float64(z)))) }
