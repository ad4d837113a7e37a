// Package conformance runs protobuf's conformance suite (binary and JSON,
// required and recommended) against rpckit.
//
// The suite's runner is C++ from protobuf's sources; build-runner.sh builds
// it from Debian's protobuf source package and caches it, with the unpacked
// source tree, outside the repository. The runner starts a testee and
// sends it ConformanceRequests over a pipe; the testees here answer them:
// testee/ with rpckit's transcode and dynamic packages, protojsontestee/
// with protojson over dynamicpb, as a baseline that proves the harness.
//
// This package holds what both testees share: the pipe protocol
// ([Serve], [Request], [Response]), the test schemas compiled from the
// cached source tree ([CompileProtos]), and the canonical re-encoding of
// binary messages the suite expects byte for byte ([Canonical]).
package conformance
