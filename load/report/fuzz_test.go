package report

import (
	"strings"
	"testing"
)

func FuzzParseSLO(f *testing.F) {
	for _, s := range []string{"p99<200ms,errors<0.1%", "rps>=10", "p99.9<=1s", "errors<3", "max<", "<1ms", "p<1ms"} {
		f.Add(s)
	}
	r := ramp()
	f.Fuzz(func(t *testing.T, s string) {
		slo, err := ParseSLO(s)
		if err != nil {
			return
		}
		for _, v := range slo.Check(r) {
			if !strings.HasPrefix(v.String(), v.Clause.Text+": ") {
				t.Fatalf("verdict %q", v)
			}
		}
	})
}

func FuzzReadLog(f *testing.F) {
	f.Add("#[StartTime: 1.5 (seconds since epoch)]\n0.000,1.000,1.500,HISTFAAAACZ42pJpmSzMwMDAzAABMJoRRFybvITB/gNEYLs4EyAAAP//YTAFWg==\n")
	f.Add("Tag=service,0,1,2,HISTFAAA\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ReadLog(strings.NewReader(s))
	})
}
