package transcode_test

import (
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
)

// benchType returns the compiled Type of the named struct of bench.thrift.
func benchType(t testing.TB, name string) *dynamic.Type {
	t.Helper()
	return thriftfixture.BenchType(t, name)
}

func readSpecimen(t testing.TB, name, ext string) []byte {
	t.Helper()
	return thriftfixture.ReadSpecimen(t, name, ext)
}
