//go:build !amd64 || purego

package utf8x

// useAVX2, validAVX2 and scanJSONAVX2 stand in for the amd64 vector code
// so that the tests that compare it with the Go code build everywhere;
// here there is only the Go code, which they call.
const useAVX2 = false

func validAVX2(b []byte) bool { return validGeneric(b) }

func scanJSONAVX2(b []byte) (ok bool, esc int) { return scanJSONGeneric(b) }
