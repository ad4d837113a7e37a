package conformance

import "testing"

// TestProtojsonConformance runs the binary and JSON conformance suite,
// required and recommended tests, against protojson over dynamicpb: the
// baseline that shows the harness (runner, schemas, pipe protocol) sound.
func TestProtojsonConformance(t *testing.T) {
	runSuite(t, "./protojsontestee")
}
