package scaffold

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"go/format"
	"path"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.ParseFS(templateFS, "templates/*.tmpl"))

// monitoringFS holds rpckit's Grafana dashboards (*.json) and Prometheus
// rules with their unit tests (*.yaml), copied from deploy/ by
// internal/tools/dashgen: a module gets them as they are.
//
//go:embed monitoring
var monitoringFS embed.FS

// Result lists the files Generate wrote, those it left as they were and
// the stale stubs it removed, by their slash-separated path in the module.
type Result struct {
	Module  string
	Written []string
	Kept    []string
	Removed []string
	// Replace is set when go.mod requires a version of rpckit that is no
	// release (rpckit was built from a checkout): go.mod then needs a
	// replace directive pointing at that checkout.
	Replace bool
}

// Generate writes the module (or, with opts.Update, its stubs).
func Generate(ctx context.Context, opts Options) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	module, err := opts.modulePath()
	if err != nil {
		return nil, err
	}
	c, err := compile(ctx, opts, module)
	if err != nil {
		return nil, err
	}
	gen, stubs, err := generateStubs(c, module)
	if err != nil {
		return nil, err
	}
	m, err := newModel(gen, module, protoNames(opts))
	if err != nil {
		return nil, err
	}
	files, err := protoCopies(c, opts)
	if err != nil {
		return nil, err
	}
	for name, data := range stubs {
		files[name] = data
	}
	var own map[string][]byte
	if !opts.Update {
		if own, err = m.render(); err != nil {
			return nil, err
		}
	}
	res := &Result{Module: module, Replace: !opts.Update && m.RpckitVersion == noVersion}
	if err := res.write(opts.Dir, files, true); err != nil {
		return nil, err
	}
	if opts.Update {
		return res, res.removeStale(opts.Dir, stubs)
	}
	return res, res.write(opts.Dir, own, false)
}

// protoCopies are the .proto files under proto/, so that the module holds
// what its stubs come from and `make gen` regenerates them.
func protoCopies(c *compiled, opts Options) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, fd := range c.files {
		data, err := readSource(fd.Path(), opts)
		if err != nil {
			return nil, err
		}
		out[path.Join("proto", fd.Path())] = data
	}
	return out, nil
}

// write writes files in dir, sorted; files already there are replaced
// when replace is set and kept otherwise.
func (r *Result) write(dir string, files map[string][]byte, replace bool) error {
	for _, name := range sortedKeys(files) {
		if err := r.writeOne(dir, name, files[name], replace); err != nil {
			return err
		}
	}
	return nil
}

// writeOne writes the file name in dir, or keeps the one there unless
// replace is set, and records which it did.
func (r *Result) writeOne(dir, name string, data []byte, replace bool) error {
	if !replace && exists(dir, name) {
		r.record(name, false)
		return nil
	}
	wrote, err := writeFile(dir, name, data)
	if err != nil {
		return err
	}
	r.record(name, wrote)
	return nil
}

// record lists name as written, or as kept.
func (r *Result) record(name string, written bool) {
	if written {
		r.Written = append(r.Written, name)
		return
	}
	r.Kept = append(r.Kept, name)
}

// render executes the templates of the module's own files.
func (m *model) render() (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, tmpl := range m.ownTemplates() {
		if err := renderFile(out, name, tmpl, m); err != nil {
			return nil, err
		}
	}
	if err := addMonitoring(out); err != nil {
		return nil, err
	}
	for _, s := range m.Services {
		if err := renderHandler(out, s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ownTemplates maps the module's own files, but the handlers, to their
// templates.
func (m *model) ownTemplates() map[string]string {
	return map[string]string{"go.mod": "go.mod.tmpl", "main.go": "main.go.tmpl",
		"Makefile": "Makefile.tmpl", "Dockerfile": "Dockerfile.tmpl", ".gitignore": "gitignore.tmpl", "README.md": "README.md.tmpl",
		"deploy/" + m.Name + ".yaml": "deploy.yaml.tmpl"}
}

// renderHandler renders a service's handler and its test.
func renderHandler(out map[string][]byte, s service) error {
	if err := renderFile(out, "handler/"+s.File+".go", "handler.go.tmpl", s); err != nil {
		return err
	}
	return renderFile(out, "handler/"+s.File+"_test.go", "handler_test.go.tmpl", s)
}

// renderFile executes tmpl with data into out[name], formatted when name
// is Go source.
func renderFile(out map[string][]byte, name, tmpl string, data any) error {
	src, err := execute(tmpl, data)
	if err == nil && strings.HasSuffix(name, ".go") {
		src, err = format.Source(src)
	}
	if err != nil {
		return fmt.Errorf("scaffold: %s: %w", name, err)
	}
	out[name] = src
	return nil
}

// execute executes the template tmpl with data.
func execute(tmpl string, data any) ([]byte, error) {
	var b bytes.Buffer
	err := templates.ExecuteTemplate(&b, tmpl, data)
	return b.Bytes(), err
}

// addMonitoring adds the dashboards as deploy/grafana/*.json and the rules
// as deploy/prometheus/*.yaml.
func addMonitoring(out map[string][]byte) error {
	entries, err := monitoringFS.ReadDir("monitoring")
	if err != nil {
		return fmt.Errorf("scaffold: %w", err)
	}
	for _, e := range entries {
		data, err := monitoringFS.ReadFile("monitoring/" + e.Name())
		if err != nil {
			return fmt.Errorf("scaffold: %w", err)
		}
		out[monitoringPath(e.Name())] = data
	}
	return nil
}

// monitoringPath is where the module keeps a monitoring file: dashboards
// under deploy/grafana, rules under deploy/prometheus.
func monitoringPath(name string) string {
	if path.Ext(name) == ".json" {
		return "deploy/grafana/" + name
	}
	return "deploy/prometheus/" + name
}
