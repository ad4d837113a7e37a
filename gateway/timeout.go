package gateway

import (
	"fmt"
	"strconv"
	"time"
)

// parseGRPCTimeout reads a gRPC timeout: up to 8 digits and a unit, H M S
// m u n (hours down to nanoseconds), as in the Grpc-Timeout header.
func parseGRPCTimeout(s string) (time.Duration, error) {
	if len(s) < 2 || len(s) > 9 {
		return 0, fmt.Errorf("want 1 to 8 digits and a unit (H, M, S, m, u, n)")
	}
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad number %q", s[:len(s)-1])
	}
	unit, ok := map[byte]time.Duration{
		'H': time.Hour, 'M': time.Minute, 'S': time.Second,
		'm': time.Millisecond, 'u': time.Microsecond, 'n': time.Nanosecond,
	}[s[len(s)-1]]
	if !ok {
		return 0, fmt.Errorf("bad unit %q", s[len(s)-1])
	}
	return time.Duration(n) * unit, nil
}
