package idl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestOracle compares the model of every file of the corpus with what the
// Apache compiler (thrift --gen json) makes of the same file, rendered in
// its JSON shape: names, namespaces, includes, enums and their values,
// typedefs, structs and every field's id, type, annotations, requiredness
// and default, constants and their values, services and their functions,
// doc comments.
// uuid.thrift is left out: the 0.17 compiler has no uuid.
func TestOracle(t *testing.T) {
	thrift, err := exec.LookPath("thrift")
	if err != nil {
		t.Fatal("the Apache Thrift compiler (thrift) is not installed; `make deps` installs it (Debian's thrift-compiler)")
	}
	for _, path := range corpusFiles() {
		name := strings.TrimPrefix(filepath.ToSlash(path), "testdata/")
		if name == "uuid.thrift" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want := oracleJSON(t, thrift, path)
			f, err := parseCorpusPath(path)
			if err != nil {
				t.Fatal(err)
			}
			got := normalize(t, render(f))
			for _, d := range diff("", want, got) {
				t.Error(d)
			}
		})
	}
}

func corpusOptions() Options {
	return Options{FS: os.DirFS("testdata"), IncludePaths: []string{"include"}}
}

// benchIDL is the Thrift side's shared schema, which the corpus takes in
// from where it lives (the generated code and the specimens come from it).
const benchIDL = "../testdata/bench.thrift"

// corpusFiles lists the corpus by path: testdata's files, its includes,
// and bench.thrift.
func corpusFiles() []string {
	files, _ := filepath.Glob("testdata/*.thrift")
	more, _ := filepath.Glob("testdata/include/*.thrift")
	return append(append(files, more...), benchIDL)
}

// parseCorpusPath parses a file of corpusFiles.
func parseCorpusPath(path string) (*File, error) {
	if path == benchIDL {
		return ParseFile(filepath.Base(path), Options{FS: os.DirFS(filepath.Dir(path))})
	}
	return ParseFile(strings.TrimPrefix(filepath.ToSlash(path), "testdata/"), corpusOptions())
}

func oracleJSON(t *testing.T, thrift, path string) any {
	out := t.TempDir()
	cmd := exec.Command(thrift, "--gen", "json", "-I", "testdata/include", "-out", out, path)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, msg)
	}
	b, err := os.ReadFile(filepath.Join(out, fileName(filepath.ToSlash(path))+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return decodeNumbers(t, b)
}

// normalize turns the rendering into what decoding its JSON gives, so
// both sides compare with reflect.DeepEqual.
func normalize(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decodeNumbers(t, b)
}

func decodeNumbers(t *testing.T, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in\n%s", err, b)
	}
	return canonNumbers(v)
}

// canonNumbers writes integers exactly and doubles with the compiler's 15
// significant digits.
func canonNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return strconv.FormatFloat(f, 'g', 15, 64)
	case []any:
		for i := range v {
			v[i] = canonNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = canonNumbers(v[k])
		}
	}
	return v
}

// diff lists where got differs from want, by path.
func diff(path string, want, got any) []string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		return diffMaps(path, wm, gm)
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		var out []string
		for i := range wl {
			out = append(out, diff(fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(want, got) && !sameDouble(want, got) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		return []string{fmt.Sprintf("%s: thrift has %s, idl has %s", path, w, g)}
	}
	return nil
}

// sameDouble: a double constant written as an integer stays an integer
// in the compiler's JSON, and becomes a double in the model; both print
// the same with 15 digits.
func sameDouble(want, got any) bool {
	w, wok := want.(string)
	g, gok := got.(string)
	if !wok || !gok {
		return false
	}
	_, werr := strconv.ParseInt(w, 10, 64)
	_, gerr := strconv.ParseInt(g, 10, 64)
	wf, werrf := strconv.ParseFloat(w, 64)
	gf, gerrf := strconv.ParseFloat(g, 64)
	return (werr != nil || gerr != nil) && werrf == nil && gerrf == nil &&
		strconv.FormatFloat(wf, 'g', 15, 64) == strconv.FormatFloat(gf, 'g', 15, 64)
}

func diffMaps(path string, want, got map[string]any) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		p := path + "." + k
		if n, ok := want["name"].(string); ok {
			p = path + "(" + n + ")." + k
		}
		w, wok := want[k]
		g, gok := got[k]
		switch {
		case !gok:
			out = append(out, fmt.Sprintf("%s: missing from idl's model", p))
		case !wok:
			out = append(out, fmt.Sprintf("%s: not in thrift's output", p))
		default:
			out = append(out, diff(p, w, g)...)
		}
	}
	return out
}
