// Package deploy holds rpckit's Kubernetes manifests (the *.yaml files
// here) and the Dockerfile of the image they run. It has no code: its tests
// decode every manifest strictly into the Kubernetes API types, check that
// probes, Services and rpckit flags fit together, and run the containers'
// rpckit commands and the bench Job on loopback.
package deploy
