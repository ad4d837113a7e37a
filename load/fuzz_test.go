package load

import (
	"testing"
	"time"
)

func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"100", "50:400:+50", "300:100:-100", "0.1:0.3:+0.1", "1:2", "::", "1e308:1e308:+1", "1:1e308:+1e-300", "1e-100", "1e-100:1:+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := ParseRate(spec, time.Second)
		if err != nil {
			return
		}
		prev := time.Duration(-1)
		for i := int64(0); i < 100; i++ {
			at, ok := p.At(i)
			if !ok {
				break
			}
			if at < prev {
				t.Fatalf("%q: At(%d) = %v before %v", spec, i, at, prev)
			}
			prev = at
		}
	})
}
