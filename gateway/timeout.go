package gateway

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// timeoutUnits are the units of a Grpc-Timeout value.
var timeoutUnits = map[byte]time.Duration{
	'H': time.Hour, 'M': time.Minute, 'S': time.Second,
	'm': time.Millisecond, 'u': time.Microsecond, 'n': time.Nanosecond,
}

// parseGRPCTimeout reads a gRPC timeout: up to 8 digits and a unit, H M S
// m u n (hours down to nanoseconds), as in the Grpc-Timeout header. A
// value past the longest time.Duration (about 2562047 hours) is clamped to
// it, as grpc-go does, rather than overflowing into a deadline passed.
func parseGRPCTimeout(s string) (time.Duration, error) {
	if len(s) < 2 || len(s) > 9 {
		return 0, errors.New("want 1 to 8 digits and a unit (H, M, S, m, u, n)")
	}
	digits := s[:len(s)-1]
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || digits[0] < '0' || digits[0] > '9' {
		return 0, fmt.Errorf("bad number %q", digits)
	}
	unit, ok := timeoutUnits[s[len(s)-1]]
	if !ok {
		return 0, fmt.Errorf("bad unit %q", s[len(s)-1])
	}
	if n > math.MaxInt64/int64(unit) {
		return math.MaxInt64, nil
	}
	return time.Duration(n) * unit, nil
}
