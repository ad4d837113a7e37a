package thriftfixture_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
)

var update = flag.Bool("update", false, "rewrite thrift/testdata/specimens")

const specimenDir = "../../thrift/testdata/specimens"

// TestSpecimens checks that building and encoding the specimens again
// gives the bytes of thrift/testdata/specimens (-update rewrites them),
// and that the generated code reads them back to equal values.
func TestSpecimens(t *testing.T) {
	for _, s := range thriftfixture.Specimens {
		for _, p := range thriftfixture.Protocols {
			path := filepath.Join(specimenDir, s.Name+"."+p.Ext)
			got, err := thriftfixture.Encode(p.Proto, s.Value())
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			t.Logf("%s: %d bytes", path, len(got))
			if *update {
				write(t, path, got)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: regenerating gives other bytes (%d, file %d); run go test ./internal/thriftfixture -update", path, len(got), len(want))
			}
			checkRoundTrip(t, s, p.Proto, want)
		}
	}
}

func write(t *testing.T, path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
