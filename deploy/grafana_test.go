package deploy_test

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDashboardsAreCurrent: deploy/grafana holds what dashgen writes today,
// and scaffold/monitoring the copies of the dashboards and rules.
func TestDashboardsAreCurrent(t *testing.T) {
	statAll(t, "grafana/*.json", "prometheus/*.yaml", "../scaffold/monitoring/*", "../internal/tools/dashgen/*.go")
	cmd := exec.Command("go", "run", "./internal/tools/dashgen", "-check")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// statAll stats the files of patterns, read by other processes, so that go
// test's cache runs the test again when one of them changes.
func statAll(t *testing.T, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files match %s (%v)", p, err)
		}
		for _, f := range files {
			if _, err := os.Stat(f); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// grafanaDir holds the dashboards internal/tools/dashgen writes.
const grafanaDir = "grafana"

// A dashboard is what the live test reads of a Grafana dashboard model:
// its variables and its panels' queries.
type dashboard struct {
	file       string
	Title      string
	Templating struct {
		List []variable
	}
	Panels []struct {
		Title   string
		Targets []struct{ Expr string }
	}
}

// A variable is a dashboard variable: its name, type and query.
type variable struct {
	Name, Type string
	Query      any // label_values(...) of a query variable
}

// loadDashboards reads the dashboards of grafanaDir.
func loadDashboards(t *testing.T) []*dashboard {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(grafanaDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in deploy/%s (%v)", grafanaDir, err)
	}
	var out []*dashboard
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d := &dashboard{file: file}
		if err := json.Unmarshal(data, d); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, d)
	}
	return out
}

// labelValues matches a query variable's label_values(series, label).
var labelValues = regexp.MustCompile(`^label_values\((.+), *(\w+)\)$`)

// checkDashboard evaluates d's variables, in order, and its panels'
// queries as Grafana would with every variable at "All" and
// $__rate_interval at rateInterval: each must return data.
func checkDashboard(t *testing.T, prom *prometheus, d *dashboard) {
	vars := map[string]string{"$__rate_interval": rateInterval}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, _ := v.Query.(string)
		m := labelValues.FindStringSubmatch(q)
		if m == nil {
			t.Errorf("%s: variable %s: query %q is not label_values(series, label)", d.file, v.Name, q)
			continue
		}
		values, err := prom.labelValues(m[2], expandVars(m[1], vars))
		switch {
		case err != nil:
			t.Errorf("%s: variable %s: %s: %v", d.file, v.Name, q, err)
		case len(values) == 0:
			t.Errorf("%s: variable %s: %s has no values", d.file, v.Name, q)
		}
		vars["$"+v.Name] = allOf(values)
	}
	for _, p := range d.Panels {
		for _, target := range p.Targets {
			expr := expandVars(target.Expr, vars)
			n, err := prom.query(expr)
			switch {
			case err != nil:
				t.Errorf("%s: panel %q: %s: %v", d.file, p.Title, expr, err)
			case n == 0:
				t.Errorf("%s: panel %q: no data for %s", d.file, p.Title, expr)
			}
		}
	}
}

// expandVars replaces the dashboard variables in s, longest names first.
func expandVars(s string, vars map[string]string) string {
	names := slices.Collect(maps.Keys(vars))
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
	for _, name := range names {
		s = strings.ReplaceAll(s, name, vars[name])
	}
	return s
}

// allOf is a multi-value variable's "All" in a regex matcher, as Grafana
// writes it for Prometheus: the values, regex-quoted, as alternatives, in
// a PromQL string. With no values it matches anything.
func allOf(values []string) string {
	if len(values) == 0 {
		return ".*"
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(v), `\`, `\\`)
	}
	return "(" + strings.Join(quoted, "|") + ")"
}
