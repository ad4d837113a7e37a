// Package deploy holds rpckit's Kubernetes manifests (the *.yaml files
// here), the Dockerfile of the image they run, Grafana dashboards
// (grafana/, written by internal/tools/dashgen) and Prometheus rules
// (prometheus/). It has no code: its tests decode every manifest strictly
// into the Kubernetes API types, check that probes, Services and rpckit
// flags fit together, and run the containers' rpckit commands and the
// bench Job on loopback; they check the dashboards are current, run
// promtool on the rules and their unit tests, and have Prometheus scrape a
// ranking pod under load to evaluate every dashboard query and rule.
package deploy
