package gateway

import (
	"fmt"
	"net/url"
	"strings"
)

// A Template is a parsed google.api.http path template:
//
//	Template = "/" Segments [ Verb ] ;
//	Segments = Segment { "/" Segment } ;
//	Segment  = "*" | "**" | LITERAL | Variable ;
//	Variable = "{" FieldPath [ "=" Segments ] "}" ;
//	Verb     = ":" LITERAL ;
//
// A variable without "=" matches one segment, as "{name=*}".
type Template struct {
	Segments []Segment
	Verb     string
	text     string
}

// A Segment is one element of a template: a literal, "*", "**", or the
// start of a variable binding the segments up to its end.
type Segment struct {
	Kind    SegmentKind
	Literal string // for Literal
	// For VarStart: the field path bound and how many segments follow up to
	// (not including) the matching VarEnd.
	Field string
}

// SegmentKind tells what a Segment matches.
type SegmentKind uint8

const (
	Literal  SegmentKind = iota
	Wildcard             // * : one segment
	Deep                 // ** : any number of segments, only last
	VarStart             // {field= ...
	VarEnd               // ... }
)

// TemplateError is a path template that does not parse; Pos is the byte
// offset of the problem.
type TemplateError struct {
	Template string
	Pos      int
	Msg      string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("gateway: path template %q: col %d: %s", e.Template, e.Pos+1, e.Msg)
}

// ParseTemplate parses a google.api.http path template.
func ParseTemplate(s string) (*Template, error) {
	p := &tmplParser{s: s}
	t, err := p.parse()
	if err != nil {
		return nil, err
	}
	t.text = s
	return t, nil
}

// String returns the template as written.
func (t *Template) String() string { return t.text }

type tmplParser struct {
	s     string
	pos   int
	inVar bool
}

func (p *tmplParser) fail(format string, args ...any) error {
	return &TemplateError{Template: p.s, Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *tmplParser) parse() (*Template, error) {
	if !strings.HasPrefix(p.s, "/") {
		return nil, p.fail("must start with /")
	}
	p.pos = 1
	t := &Template{}
	segs, err := p.segments()
	if err != nil {
		return nil, err
	}
	t.Segments = segs
	if p.pos < len(p.s) && p.s[p.pos] == ':' {
		p.pos++
		t.Verb = p.literal()
		if t.Verb == "" {
			return nil, p.fail("empty verb")
		}
	}
	if p.pos != len(p.s) {
		return nil, p.fail("unexpected %q", p.s[p.pos])
	}
	return t, p.check(t)
}

func (p *tmplParser) segments() ([]Segment, error) {
	var out []Segment
	for {
		seg, err := p.segment()
		if err != nil {
			return nil, err
		}
		out = append(out, seg...)
		if p.pos >= len(p.s) || p.s[p.pos] != '/' {
			return out, nil
		}
		p.pos++
	}
}

func (p *tmplParser) segment() ([]Segment, error) {
	switch {
	case strings.HasPrefix(p.s[p.pos:], "**"):
		p.pos += 2
		return []Segment{{Kind: Deep}}, nil
	case strings.HasPrefix(p.s[p.pos:], "*"):
		p.pos++
		return []Segment{{Kind: Wildcard}}, nil
	case strings.HasPrefix(p.s[p.pos:], "{"):
		return p.variable()
	}
	lit := p.literal()
	if lit == "" {
		return nil, p.fail("empty segment")
	}
	return []Segment{{Kind: Literal, Literal: lit}}, nil
}

func (p *tmplParser) variable() ([]Segment, error) {
	if p.inVar {
		return nil, p.fail("nested variable")
	}
	p.pos++ // {
	field, err := p.fieldPath()
	if err != nil {
		return nil, err
	}
	inner, err := p.varSegments()
	if err != nil {
		return nil, err
	}
	if p.pos >= len(p.s) || p.s[p.pos] != '}' {
		return nil, p.fail("variable %q not closed", field)
	}
	p.pos++
	out := append([]Segment{{Kind: VarStart, Field: field}}, inner...)
	return append(out, Segment{Kind: VarEnd, Field: field}), nil
}

// fieldPath reads a variable's dotted field path.
func (p *tmplParser) fieldPath() (string, error) {
	start := p.pos
	for p.pos < len(p.s) && (isIdent(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos++
	}
	field := p.s[start:p.pos]
	if field == "" || strings.HasPrefix(field, ".") || strings.HasSuffix(field, ".") || strings.Contains(field, "..") {
		return "", p.fail("bad field path %q", field)
	}
	return field, nil
}

// varSegments reads what a variable matches: the segments after "=", or
// one wildcard when it names none.
func (p *tmplParser) varSegments() ([]Segment, error) {
	if p.pos >= len(p.s) || p.s[p.pos] != '=' {
		return []Segment{{Kind: Wildcard}}, nil
	}
	p.pos++
	p.inVar = true
	inner, err := p.segments()
	if err != nil {
		return nil, err
	}
	p.inVar = false
	return inner, nil
}

// literal reads characters allowed in a segment: anything but / { } * : =.
func (p *tmplParser) literal() string {
	start := p.pos
	for p.pos < len(p.s) && !strings.ContainsRune("/{}*:=", rune(p.s[p.pos])) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// check enforces that "**" comes last and that a field is bound once.
func (p *tmplParser) check(t *Template) error {
	seen := map[string]bool{}
	for i, s := range t.Segments {
		if s.Kind == Deep && !deepIsLast(t.Segments[i+1:]) {
			p.pos = 0
			return p.fail("** must be the last segment")
		}
		if s.Kind == VarStart {
			if seen[s.Field] {
				return p.fail("field %q bound twice", s.Field)
			}
			seen[s.Field] = true
		}
	}
	return nil
}

func deepIsLast(rest []Segment) bool {
	for _, s := range rest {
		if s.Kind != VarEnd {
			return false
		}
	}
	return true
}

// Match matches the segments of a request path (already split on "/",
// without the leading one, and with any ":verb" removed by the caller) and
// returns the variable bindings, values percent-decoded as the spec says
// (single-segment variables decode "/" too; multi-segment ones keep "%2F").
func (t *Template) Match(parts []string) (map[string]string, bool) {
	var vars map[string]string
	var varField string
	varStart := 0
	i := 0
	for _, s := range t.Segments {
		switch s.Kind {
		case Literal:
			if i >= len(parts) || parts[i] != s.Literal {
				return nil, false
			}
			i++
		case Wildcard:
			if i >= len(parts) || parts[i] == "" {
				return nil, false
			}
			i++
		case Deep:
			i = len(parts)
		case VarStart:
			varField, varStart = s.Field, i
		case VarEnd:
			if vars == nil {
				vars = map[string]string{}
			}
			vars[varField] = joinDecoded(parts[varStart:i])
		}
	}
	if i != len(parts) {
		return nil, false
	}
	return vars, true
}

// joinDecoded joins the path segments bound to one variable, decoding
// percent-escapes; a variable of several segments keeps "%2F" escaped, so
// its slashes stay distinguishable (the spec's reserved expansion).
func joinDecoded(parts []string) string {
	if len(parts) == 1 {
		if v, err := url.PathUnescape(parts[0]); err == nil {
			return v
		}
		return parts[0]
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		v, err := url.PathUnescape(p)
		if err != nil {
			v = p
		}
		out[i] = strings.ReplaceAll(v, "/", "%2F")
	}
	return strings.Join(out, "/")
}
