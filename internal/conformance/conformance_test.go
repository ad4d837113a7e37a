package conformance

import "testing"

// TestTranscodeConformance runs the binary and JSON conformance suite,
// required and recommended tests, against the testee backed by transcode
// and dynamic. Every test must pass: there is no failure list, and none
// may be skipped.
func TestTranscodeConformance(t *testing.T) {
	runSuite(t, "./testee")
}

// TestProtojsonConformance runs the binary and JSON conformance suite,
// required and recommended tests, against protojson over dynamicpb: the
// baseline that shows the harness (runner, schemas, pipe protocol) sound.
func TestProtojsonConformance(t *testing.T) {
	runSuite(t, "./protojsontestee")
}
