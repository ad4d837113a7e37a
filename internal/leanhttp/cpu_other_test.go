//go:build !unix

package leanhttp

import "time"

// processCPU is not measured here.
func processCPU() time.Duration { return 0 }
