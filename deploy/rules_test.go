package deploy_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// rulesFile holds the SLO's recording and alert rules; ruleTests, their
// promtool unit tests.
const rulesFile = "prometheus/rpckit-slo.yaml"

var ruleTests = []string{"prometheus/rpckit-slo.test.yaml", "prometheus/rpckit-slo-slow.test.yaml"}

// TestAlertRules: promtool accepts the rules, and their unit tests (series
// that make each alert fire and not fire) pass.
func TestAlertRules(t *testing.T) {
	t.Parallel()
	promtool := lookTool(t, "promtool")
	for _, args := range [][]string{
		{"check", "rules", rulesFile},
		append([]string{"test", "rules"}, ruleTests...),
	} {
		out, err := exec.Command(promtool, args...).CombinedOutput()
		if err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestRuleTestsCoverEveryAlert: each alert has a test in which it fires
// and one in which it does not.
func TestRuleTestsCoverEveryAlert(t *testing.T) {
	fires, quiet := map[string]bool{}, map[string]bool{}
	for _, file := range ruleTests {
		var f struct {
			Tests []struct {
				AlertRuleTest []struct {
					Alertname string
					ExpAlerts []any `yaml:"exp_alerts"`
				} `yaml:"alert_rule_test"`
			}
		}
		readYAML(t, file, &f)
		for _, test := range f.Tests {
			for _, a := range test.AlertRuleTest {
				if len(a.ExpAlerts) > 0 {
					fires[a.Alertname] = true
				} else {
					quiet[a.Alertname] = true
				}
			}
		}
	}
	for _, r := range loadRules(t) {
		if r.Alert != "" && (!fires[r.Alert] || !quiet[r.Alert]) {
			t.Errorf("alert %s: tested firing %v, not firing %v; want both", r.Alert, fires[r.Alert], quiet[r.Alert])
		}
	}
}

// lookTool finds a program the tests need, which make deps installs.
func lookTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed; `make deps` installs it (Debian's prometheus)", name)
	}
	return path
}

// rule is a recording or alert rule of rulesFile.
type rule struct {
	Record, Alert, Expr string
}

func loadRules(t *testing.T) []rule {
	t.Helper()
	var f struct{ Groups []struct{ Rules []rule } }
	readYAML(t, rulesFile, &f)
	var out []rule
	for _, g := range f.Groups {
		out = append(out, g.Rules...)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no rules", rulesFile)
	}
	return out
}

func readYAML(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// comparison is a comparison operator between spaces, as the alerts
// write them (label matchers have none around them).
var comparison = regexp.MustCompile(`(\s)(>=|<=|==|!=|>|<)(\s)`)

// checkRules: every recording rule's expression and recorded series, and
// each "or" branch of every alert's expression with its comparisons made
// bool (it returns 0 or 1 for each series instead of only the firing
// ones, and nothing when a series it reads is missing), return data, and
// Prometheus reports every rule healthy.
func checkRules(t *testing.T, prom *prometheus) {
	rules := loadRules(t)
	for _, r := range rules {
		exprs := []string{r.Expr, r.Record}
		if r.Alert != "" {
			exprs = alertBranches(r.Expr)
		}
		for _, expr := range exprs {
			if n, err := prom.query(expr); err != nil || n == 0 {
				t.Errorf("rule %s%s: %s: no data (%v)", r.Record, r.Alert, expr, err)
			}
		}
	}
	var data struct {
		Groups []struct {
			Rules []struct{ Name, Health, LastError string }
		}
	}
	if err := prom.api("/api/v1/rules", nil, &data); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range data.Groups {
		for _, r := range g.Rules {
			n++
			if r.Health != "ok" {
				t.Errorf("rule %s: health %s: %s", r.Name, r.Health, r.LastError)
			}
		}
	}
	if n != len(rules) {
		t.Errorf("prometheus has %d rules, %s %d", n, rulesFile, len(rules))
	}
}

// orOperator splits an alert's expression into the branches it fires on.
var orOperator = regexp.MustCompile(`\s+or\s+`)

// alertBranches are the branches of an alert's expression, each with its
// comparisons made bool.
func alertBranches(expr string) []string {
	var out []string
	for _, b := range orOperator.Split(expr, -1) {
		out = append(out, comparison.ReplaceAllString(b, "${1}${2} bool${3}"))
	}
	return out
}
