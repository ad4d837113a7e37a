//go:build !amd64 || purego

package dynamic

// validUTF8 is utf8.Valid; without the amd64 vector code it is the Go code.
func validUTF8(b []byte) bool { return validUTF8Generic(b) }

// useAVX2 and validUTF8AVX2 stand in for the amd64 vector code so that the
// tests that compare the two build everywhere; here there is only the Go
// code, which validUTF8AVX2 calls.
const useAVX2 = false

func validUTF8AVX2(b []byte) bool { return validUTF8Generic(b) }
