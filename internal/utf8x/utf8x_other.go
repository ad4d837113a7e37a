//go:build !amd64 || purego

package utf8x

// Valid reports whether b is valid UTF-8, as utf8.Valid does; without the
// amd64 vector code it is the Go code.
func Valid(b []byte) bool { return validGeneric(b) }

// copyJSON is CopyJSON with the destination as a pointer to its first
// byte; without the amd64 vector code it is the Go code.
func copyJSON(b []byte, to *byte) (ok bool, esc int) { return copyJSONGeneric(b, to) }

// StringEnd returns the index of the first byte of b that ends a run of
// JSON string text, a quote, a backslash or a control character (below
// 0x20), or len(b) if there is none; and whether a byte before it is not
// ASCII. Without the amd64 vector code it is the Go code.
func StringEnd(b []byte) (n int, high bool) { return stringEndGeneric(b) }
