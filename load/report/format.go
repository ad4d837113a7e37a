package report

import (
	"math"
	"strconv"
	"time"
)

// ms is d in float milliseconds.
func ms(d time.Duration) float64 {
	return float64(d) / float64(time.Millisecond)
}

// fromMS is the duration of a float number of milliseconds.
func fromMS(v float64) time.Duration {
	return time.Duration(math.Round(v * float64(time.Millisecond)))
}

// fmtMS formats d as milliseconds with three decimals (microseconds).
func fmtMS(d time.Duration) string {
	return strconv.FormatFloat(ms(d), 'f', 3, 64)
}

// fmtFloat formats v with prec decimals.
func fmtFloat(v float64, prec int) string {
	return strconv.FormatFloat(v, 'f', prec, 64)
}
