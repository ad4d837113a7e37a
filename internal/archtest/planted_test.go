package archtest

import (
	"slices"
	"strings"
	"testing"
)

// TestRulesCatchPlantedViolations runs each rule on a small package in
// testdata that breaks it in known ways, and checks that the rule reports
// exactly those.
func TestRulesCatchPlantedViolations(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T) []string
		want []string // one substring per expected report, in order
	}{
		{"internal imports", plantedImports, []string{"imports internal/errtext, which a user of the module cannot import"}},
		{"package variables", plantedVars, []string{"globals.go:12:2: package variable globals.calls is not in"}},
		{"init panics", plantedInit, []string{"initpanic.go:14:3: init may panic (panic)", "initpanic.go:18:20: init may panic (regexp.MustCompile)"}},
		{"API types", plantedAPI, []string{
			"apitypes.Flags uses github.com/spf13/pflag.FlagSet",
			"apitypes.Options.Bind uses github.com/spf13/pflag.Value",
			"apitypes.Options.Set uses github.com/spf13/pflag.FlagSet",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.run(t)
			slices.Sort(got)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d reports, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("report %d is %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func plantedImports(t *testing.T) []string {
	files, _, err := parseDir("testdata/examples")
	if err != nil {
		t.Fatal(err)
	}
	return internalImports("examples/demo", importsOf(files))
}

func plantedVars(t *testing.T) []string {
	files, fset, err := parseDir("testdata/globals")
	if err != nil {
		t.Fatal(err)
	}
	return packageVars("globals", files, fset, map[string]string{"table": "a table"})
}

func plantedInit(t *testing.T) []string {
	files, fset, err := parseDir("testdata/initpanic")
	if err != nil {
		t.Fatal(err)
	}
	return initPanics(files, fset)
}

func plantedAPI(t *testing.T) []string {
	pkgs, err := loadTypes(".", "./testdata/apitypes")
	if err != nil {
		t.Fatal(err)
	}
	return foreignAPITypes(pkgs[0])
}
