package lean

import (
	"os/exec"
	"strings"
	"testing"
)

// The package keeps grpc-go's transport out: of grpc-go it may use only
// the codes, status and metadata types (and what they need).
func TestNoGRPCTransport(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "google.golang.org/grpc" || strings.Contains(dep, "grpc/internal/transport") || strings.HasPrefix(dep, "google.golang.org/grpc/credentials") {
			t.Errorf("invoke/lean depends on %s", dep)
		}
	}
}
