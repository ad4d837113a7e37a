//go:build !purego

package utf8x

// validAVX2 and scanJSONAVX2 are the vector code for any length: inputs
// too short for it go to the Go code. The caller makes sure the CPU has
// AVX2.
func validAVX2(b []byte) bool {
	if len(b) < avx2MinLen {
		return validGeneric(b)
	}
	return validAVX2Asm(b)
}

func scanJSONAVX2(b []byte) (ok bool, esc int) {
	if len(b) < avx2MinLen {
		return scanJSONGeneric(b)
	}
	return scanJSONAVX2Asm(b)
}
