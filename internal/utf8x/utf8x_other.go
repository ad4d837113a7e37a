//go:build !amd64 || purego

package utf8x

// Valid reports whether b is valid UTF-8, as utf8.Valid does; without the
// amd64 vector code it is the Go code.
func Valid(b []byte) bool { return validGeneric(b) }

// ScanJSON reports whether b is valid UTF-8 and, when it is, the index of
// the first byte that a JSON string must escape (below 0x20, '"' or '\\'),
// or len(b) if there is none; without the amd64 vector code it is the Go
// code.
func ScanJSON(b []byte) (ok bool, esc int) { return scanJSONGeneric(b) }
