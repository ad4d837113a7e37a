package cli

import (
	"errors"
	"strings"
	"time"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/spf13/pflag"
)

// durationValue is a duration flag that refuses negative values, which
// would otherwise run as if no limit were set.
type durationValue time.Duration

func durationVar(fs *pflag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationValue)(p), name, usage)
}

func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want a duration such as 500ms, 10s or 1m")
	}
	if v < 0 {
		return errors.New("a negative duration; give a positive one, or 0 for none")
	}
	*d = durationValue(v)
	return nil
}

// String is "0" for zero, which help takes for no default worth showing.
func (d *durationValue) String() string {
	if *d == 0 {
		return "0"
	}
	return time.Duration(*d).String()
}
func (d *durationValue) Type() string { return "duration" }

// pathsValue is a repeatable flag of field paths, comma-separated, read
// with dynamic.ParsePath as --get reads its path: a comma inside brackets
// or quotes (m["a,b"]) does not split.
type pathsValue struct {
	paths []dynamic.Path
	text  []string
}

func (v *pathsValue) Set(s string) error {
	for _, part := range splitPaths(s) {
		p, err := parseFieldPath(part)
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), "dynamic: "))
		}
		if len(p) == 0 {
			return errors.New("an empty path")
		}
		v.paths = append(v.paths, p)
		v.text = append(v.text, part)
	}
	return nil
}

func (v *pathsValue) String() string { return strings.Join(v.text, ",") }
func (v *pathsValue) Type() string   { return "paths" }

// splitPaths splits s at the commas outside brackets and quoted strings.
func splitPaths(s string) []string {
	var out []string
	for {
		i := topLevelIndex(s, ',')
		if i < 0 {
			return append(out, s)
		}
		out, s = append(out, s[:i]), s[i+1:]
	}
}

// topLevelIndex returns the index of the first sep of s outside brackets
// and quoted strings (where a backslash escapes the next byte), or -1.
func topLevelIndex(s string, sep byte) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case c == sep && depth == 0:
			return i
		}
	}
	return -1
}

// parseFieldPath parses s as dynamic.ParsePath does, and also takes the
// `*` segment that a field mask allows after a list or map (items.*.sku).
func parseFieldPath(s string) (dynamic.Path, error) {
	p, err := dynamic.ParsePath(s)
	if err == nil || !strings.Contains(s, "*") {
		return p, err
	}
	var out dynamic.Path
	for _, seg := range strings.Split(s, ".") {
		if seg != "*" && !isFieldName(seg) {
			return nil, err
		}
		out = append(out, dynamic.FieldStep(seg))
	}
	return out, nil
}

func isFieldName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && !('0' <= c && c <= '9') && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}
