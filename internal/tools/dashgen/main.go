// Command dashgen writes rpckit's Grafana dashboards, as JSON models to
// import, into deploy/grafana/ from the panels defined here (with
// grafana-foundation-sdk's builders): rpckit-service.json, the server side
// of a service (grpc_server_* and rpckit_server_draining, with the SLO
// burn rates recorded by deploy/prometheus/rpckit-slo.yaml), and
// rpckit-dependencies.json, the client side of its calls to each upstream
// (grpc_client_*, rpckit_client_retries_total, rpckit_client_breaker_state).
// It copies them, and deploy/prometheus's rules and their tests, into
// scaffold/monitoring, which rpckit new writes into a module's deploy/.
//
//	go run ./internal/tools/dashgen           # write the dashboards and copies
//	go run ./internal/tools/dashgen -check    # fail if any would change
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// outDir is where the dashboards go, from the module's root; scaffoldDir
// gets a copy of them and of the Prometheus rules and their tests, for
// rpckit new to write into the modules it makes.
const (
	outDir      = "deploy/grafana"
	scaffoldDir = "scaffold/monitoring"
)

// rulesFiles are deploy/prometheus's files the scaffold copies.
var rulesFiles = []string{"rpckit-slo.yaml", "rpckit-slo.test.yaml", "rpckit-slo-slow.test.yaml"}

// A board is a dashboard and the file it is written to.
type board struct {
	file  string
	build func() *builder
}

var boards = []board{
	{file: "rpckit-service.json", build: serviceDashboard},
	{file: "rpckit-dependencies.json", build: dependenciesDashboard},
}

func main() {
	check := flag.Bool("check", false, "report dashboards that regeneration would change, write nothing")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "dashgen:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	files, err := outputs()
	if err != nil {
		return err
	}
	var stale []string
	for _, f := range files {
		if !check {
			if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
				return err
			}
			continue
		}
		if old, err := os.ReadFile(f.path); err != nil || !bytes.Equal(old, f.data) {
			stale = append(stale, f.path)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("stale, run make gen: %v", stale)
	}
	return nil
}

// An output is a file dashgen writes and its contents.
type output struct {
	path string
	data []byte
}

// outputs are the dashboards, in outDir and scaffoldDir, and the copies of
// the rules in scaffoldDir.
func outputs() ([]output, error) {
	var out []output
	for _, b := range boards {
		data, err := render(b)
		if err != nil {
			return nil, err
		}
		out = append(out, output{filepath.Join(outDir, b.file), data}, output{filepath.Join(scaffoldDir, b.file), data})
	}
	for _, name := range rulesFiles {
		data, err := os.ReadFile(filepath.Join("deploy/prometheus", name))
		if err != nil {
			return nil, err
		}
		out = append(out, output{filepath.Join(scaffoldDir, name), data})
	}
	return out, nil
}

// render builds a board's dashboard as indented JSON.
func render(b board) ([]byte, error) {
	d, err := b.build().Build()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.file, err)
	}
	numberPanels(d.Panels)
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.file, err)
	}
	return append(data, '\n'), nil
}

// numberPanels gives the rows and panels ids 1, 2, ... in order, as
// Grafana wants each to have its own.
func numberPanels(panels []dashboard.PanelOrRowPanel) {
	for i, p := range panels {
		id := uint32(i + 1)
		switch {
		case p.Panel != nil:
			p.Panel.Id = &id
		case p.RowPanel != nil:
			p.RowPanel.Id = id
		}
	}
}
