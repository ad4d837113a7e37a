package gateway

import (
	"math"
	"testing"
	"time"
)

func TestParseGRPCTimeout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"1S", time.Second},
		{"100m", 100 * time.Millisecond},
		{"7n", 7},
		{"99999999u", 99999999 * time.Microsecond},
		{"2562047H", 2562047 * time.Hour},
		// Past what a Duration holds: clamped to the longest one, as
		// grpc-go does, rather than wrapping around to a deadline passed.
		{"2562048H", math.MaxInt64},
		{"99999999H", math.MaxInt64},
		{"99999999M", 99999999 * time.Minute},
		{"99999999S", 99999999 * time.Second},
	} {
		got, err := parseGRPCTimeout(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseGRPCTimeout(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "S", "1", "123456789S", "1x", "-1S", "+1S", "1.5S", " 1S"} {
		if d, err := parseGRPCTimeout(in); err == nil {
			t.Errorf("parseGRPCTimeout(%q) = %v, want an error", in, d)
		}
	}
}
