// Command dashgen writes rpckit's Grafana dashboards, as JSON models to
// import, into deploy/grafana/ from the panels defined here (with
// grafana-foundation-sdk's builders): rpckit-service.json, the server side
// of a service (grpc_server_* and rpckit_server_draining, with the SLO
// burn rates recorded by deploy/prometheus/rpckit-slo.yaml), and
// rpckit-dependencies.json, the client side of its calls to each upstream
// (grpc_client_*, rpckit_client_retries_total, rpckit_client_breaker_state).
//
//	go run ./internal/tools/dashgen           # write the dashboards
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

// outDir is where the dashboards go, from the module's root.
const outDir = "deploy/grafana"

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
	var stale []string
	for _, b := range boards {
		data, err := render(b)
		if err != nil {
			return err
		}
		path := filepath.Join(outDir, b.file)
		if !check {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return err
			}
			continue
		}
		if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, data) {
			stale = append(stale, path)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("stale, run make gen: %v", stale)
	}
	return nil
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
