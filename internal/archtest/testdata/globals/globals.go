// Package globals holds one allowed table, a compile-time check and one
// piece of mutable state.
package globals

import "io"

var table = [...]string{"a", "b"}

var _ io.Writer = nil

var (
	calls int
)

func use() (string, int) { return table[0], calls }
