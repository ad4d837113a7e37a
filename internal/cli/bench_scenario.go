package cli

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A scenario file lists the flows of one bench run:
//
//	duration: 10s          # settings for every flow: bench flag names
//	plaintext: true
//	rate: 400              # the overall rate flows with a weight share
//	flows:
//	  - name: rank         # unique; default: the method's or URL path's last part
//	    target: 127.0.0.1:50051
//	    method: pkg.Svc/Rank
//	    data: '{"userId": "u1"}'
//	    weight: 3
//	    slo: p99<200ms,errors<1%
//	  - name: page
//	    url: http://127.0.0.1:8080/v1/page
//	    concurrency: 4     # its own executor: rate, concurrency, callers
//
// Settings are keyed by bench flag name (data_file for data-file too); a flow's own win over the top
// level's, and flags on the command line win over both. The outputs
// (format, output, html, ...) are the run's, at the top level only.
type scenarioFile struct {
	path  string
	top   []scenarioSetting
	flows []flowSpec
}

// A scenarioSetting is one key of a scenario file with its value or values.
type scenarioSetting struct {
	key    string
	line   int
	values []string
}

// A flowSpec is one entry of flows:.
type flowSpec struct {
	line     int
	name     string
	target   string // gRPC host:port
	method   string
	url      string // or an HTTP URL
	weight   float64
	steps    []chainStepSpec // a chained flow's calls
	settings []scenarioSetting
}

// maxScenarioFile bounds the size of a scenario file.
const maxScenarioFile = 1 << 20

// maxFlows bounds the flows of one scenario.
const maxFlows = 64

// flowKeys are the keys of a flow that are not flags.
var flowKeys = map[string]bool{"name": true, "target": true, "method": true, "url": true, "weight": true, "steps": true}

// runKeys are the settings of the whole run, not of a flow.
var runKeys = map[string]bool{
	"format": true, "output": true, "html": true, "hdr-log": true, "spectrum": true,
	"progress": true, "config": true, "scenario": true, "print-scenario": true, "push": true,
	"target-metrics": true, "target-metric": true,
}

func readScenario(path string) (*scenarioFile, error) {
	data, err := readFileLimited(path, maxScenarioFile)
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	data = envRef.ReplaceAllFunc(data, func(ref []byte) []byte {
		return []byte(os.Getenv(string(envRef.FindSubmatch(ref)[1])))
	})
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sf := &scenarioFile{path: path}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of settings and a list of flows", path)
	}
	if err := sf.parseTop(doc.Content[0]); err != nil {
		return nil, err
	}
	if len(sf.flows) == 0 {
		return nil, fmt.Errorf("%s: no flows (want flows: with at least one)", path)
	}
	return sf, nil
}

func readFileLimited(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return os.ReadFile(path)
}

// errAt is an error at a line of the file.
func (sf *scenarioFile) errAt(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", sf.path, line, fmt.Sprintf(format, args...))
}

func (sf *scenarioFile) parseTop(m *yaml.Node) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value == "flows" {
			if err := sf.parseFlows(v); err != nil {
				return err
			}
			continue
		}
		if flowKeys[k.Value] {
			return sf.errAt(k.Line, "%q belongs to a flow (under flows:)", k.Value)
		}
		s, err := sf.parseSetting(k, v)
		if err != nil {
			return err
		}
		sf.top = append(sf.top, s)
	}
	return nil
}

func (sf *scenarioFile) parseFlows(v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return sf.errAt(v.Line, "flows: want a list of flows")
	}
	if len(v.Content) > maxFlows {
		return sf.errAt(v.Line, "flows: %d flows, more than %d", len(v.Content), maxFlows)
	}
	for _, n := range v.Content {
		f, err := sf.parseFlow(n)
		if err != nil {
			return err
		}
		sf.flows = append(sf.flows, f)
	}
	return nil
}

func (sf *scenarioFile) parseFlow(n *yaml.Node) (flowSpec, error) {
	f := flowSpec{line: n.Line}
	if n.Kind != yaml.MappingNode {
		return f, sf.errAt(n.Line, "a flow: want a mapping of settings")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if runKeys[k.Value] {
			return f, sf.errAt(k.Line, "%q is a setting of the whole run; give it at the top level", k.Value)
		}
		if flowKeys[k.Value] {
			if err := sf.flowKey(&f, k, v); err != nil {
				return f, err
			}
			continue
		}
		s, err := sf.parseSetting(k, v)
		if err != nil {
			return f, err
		}
		f.settings = append(f.settings, s)
	}
	switch {
	case len(f.steps) > 0 && (f.url != "" || f.method != "" || f.target == ""):
		return f, sf.errAt(n.Line, "a flow of steps needs a target, and each step its method")
	case len(f.steps) > 0:
		return f, nil
	case f.url != "" && (f.target != "" || f.method != ""):
		return f, sf.errAt(n.Line, "a flow calls a url, or a target and method, not both")
	case f.url == "" && (f.target == "" || f.method == ""):
		return f, sf.errAt(n.Line, "a flow needs a target and a method (gRPC) or a url (HTTP)")
	case f.url != "" && !isURL(f.url):
		return f, sf.errAt(n.Line, "url %q: want http:// or https://", f.url)
	}
	return f, nil
}

func (sf *scenarioFile) flowKey(f *flowSpec, k, v *yaml.Node) error {
	if k.Value == "steps" {
		steps, err := sf.parseSteps(v)
		f.steps = steps
		return err
	}
	if v.Kind != yaml.ScalarNode || v.Value == "" {
		return sf.errAt(v.Line, "%s: want a value", k.Value)
	}
	switch k.Value {
	case "name":
		f.name = v.Value
	case "target":
		f.target = v.Value
	case "method":
		f.method = v.Value
	case "url":
		f.url = v.Value
	case "weight":
		w, err := strconv.ParseFloat(v.Value, 64)
		if err != nil || !(w > 0) || w > 1e9 {
			return sf.errAt(v.Line, "weight %q: want a positive number", v.Value)
		}
		f.weight = w
	}
	return nil
}

// parseSetting reads a flag's value: a scalar, or a list of scalars for a
// flag given several times.
func (sf *scenarioFile) parseSetting(k, v *yaml.Node) (scenarioSetting, error) {
	s := scenarioSetting{key: strings.ReplaceAll(k.Value, "_", "-"), line: k.Line}
	switch v.Kind {
	case yaml.ScalarNode:
		s.values = []string{v.Value}
	case yaml.SequenceNode:
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return s, sf.errAt(e.Line, "%s: want a value or a list of values", k.Value)
			}
			s.values = append(s.values, e.Value)
		}
	default:
		return s, sf.errAt(v.Line, "%s: want a value or a list of values", k.Value)
	}
	return s, nil
}

// parseSteps reads a chained flow's steps: each a name, a method and data.
func (sf *scenarioFile) parseSteps(v *yaml.Node) ([]chainStepSpec, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, sf.errAt(v.Line, "steps: want a list of steps")
	}
	if len(v.Content) > maxFlows {
		return nil, sf.errAt(v.Line, "steps: %d steps, more than %d", len(v.Content), maxFlows)
	}
	var steps []chainStepSpec
	names := map[string]bool{}
	for _, n := range v.Content {
		st, err := sf.parseStep(n)
		if err != nil {
			return nil, err
		}
		if names[st.name] {
			return nil, sf.errAt(n.Line, "two steps are named %q", st.name)
		}
		names[st.name] = true
		steps = append(steps, st)
	}
	return steps, nil
}

func (sf *scenarioFile) parseStep(n *yaml.Node) (chainStepSpec, error) {
	st := chainStepSpec{line: n.Line}
	if n.Kind != yaml.MappingNode {
		return st, sf.errAt(n.Line, "a step: want name, method and data")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return st, sf.errAt(v.Line, "%s: want a value", k.Value)
		}
		switch k.Value {
		case "name":
			st.name = v.Value
		case "method":
			st.method = v.Value
		case "data":
			st.data = v.Value
		default:
			return st, sf.errAt(k.Line, "unknown step setting %q (a step has name, method and data)", k.Value)
		}
	}
	if st.name == "" || st.method == "" || strings.ContainsAny(st.name, ".${}") {
		return st, sf.errAt(n.Line, "a step needs a name (without . $ { }) and a method")
	}
	return st, nil
}
