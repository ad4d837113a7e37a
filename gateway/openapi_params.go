package gateway

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// parameter is an OpenAPI parameter object.
type parameter struct {
	Name        string     `json:"name"`
	In          string     `json:"in"`
	Description string     `json:"description,omitempty"`
	Required    bool       `json:"required,omitempty"`
	Style       string     `json:"style,omitempty"`
	Explode     *bool      `json:"explode,omitempty"`
	Schema      jsonSchema `json:"schema"`
}

// openAPIPath writes a route's template as an OpenAPI path and lists its
// path parameters. A variable of one segment ({name}, {name=*}) is one
// parameter named after its field; a variable over several segments
// ({name=projects/*/items/*}) keeps its literals in the path and each of
// its wildcards is a parameter of its own (named after the literal before
// it: projects/{project}), whose values the gateway joins into the field.
// A "**" is one parameter whose value may hold "/".
func (s *schemas) openAPIPath(r *Route) (string, []parameter) {
	var b strings.Builder
	var params []parameter
	taken := map[string]bool{}
	segs := r.Template.Segments
	for i := 0; i < len(segs); i++ {
		seg := segs[i]
		switch seg.Kind {
		case Literal:
			b.WriteString("/" + seg.Literal)
		case Wildcard, Deep:
			// A wildcard outside a variable binds nothing: any segment.
			name := uniqueName("segment", taken)
			b.WriteString("/{" + name + "}")
			params = append(params, pathParam(name, "Any segment; bound to no field.", jsonSchema{"type": "string"}))
		case VarStart:
			end := i + 1
			for segs[end].Kind != VarEnd {
				end++
			}
			path, ps := s.variablePath(r, seg.Field, segs[i+1:end], taken)
			b.WriteString(path)
			params = append(params, ps...)
			i = end
		}
	}
	if r.Template.Verb != "" {
		b.WriteString(":" + r.Template.Verb)
	}
	return b.String(), params
}

// variablePath is the path and parameters of the variable binding field
// to the segments inner.
func (s *schemas) variablePath(r *Route, field string, inner []Segment, taken map[string]bool) (string, []parameter) {
	fds, _ := fieldPath(r.Method.Input(), field)
	fd := fds[len(fds)-1]
	if len(inner) == 1 && inner[0].Kind == Wildcard {
		taken[field] = true
		return "/{" + field + "}", []parameter{pathParam(field, comment(fd), s.single(fd))}
	}
	var b strings.Builder
	var params []parameter
	shape := templateText(inner)
	for j, seg := range inner {
		if seg.Kind == Literal {
			b.WriteString("/" + seg.Literal)
			continue
		}
		name := uniqueName(wildcardName(field, inner, j), taken)
		b.WriteString("/{" + name + "}")
		params = append(params, pathParam(name, variableNote(field, shape, seg.Kind == Deep, comment(fd)), jsonSchema{"type": "string"}))
	}
	return b.String(), params
}

// wildcardName names the parameter of the wildcard inner[j]: the literal
// before it made singular (projects/* -> project), else the field's name.
func wildcardName(field string, inner []Segment, j int) string {
	if j > 0 && inner[j-1].Kind == Literal {
		lit := inner[j-1].Literal
		lit = singular(lit)
		if isParamName(lit) {
			return lit
		}
	}
	return strings.ReplaceAll(field, ".", "_")
}

// singular drops a plural's s, the simple way (items -> item, categories
// -> category).
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") && len(s) > 1:
		return s[:len(s)-1]
	}
	return s
}

func isParamName(s string) bool {
	for i := range len(s) {
		if !isIdent(s[i]) && s[i] != '-' {
			return false
		}
	}
	return s != ""
}

// uniqueName is name, or name with a number after it when taken.
func uniqueName(name string, taken map[string]bool) string {
	out := name
	for n := 2; taken[out]; n++ {
		out = fmt.Sprintf("%s%d", name, n)
	}
	taken[out] = true
	return out
}

// variableNote describes a parameter that is part of a field's value.
func variableNote(field, shape string, deep bool, fieldDoc string) string {
	note := fmt.Sprintf("Part of the field %s, which gets the path's segments %s.", field, shape)
	if deep {
		note += " This part may span several segments (it may hold \"/\")."
	}
	return joinText(note, fieldDoc)
}

// templateText writes segments as a template does.
func templateText(segs []Segment) string {
	parts := make([]string, 0, len(segs))
	for _, s := range segs {
		switch s.Kind {
		case Literal:
			parts = append(parts, s.Literal)
		case Wildcard:
			parts = append(parts, "*")
		case Deep:
			parts = append(parts, "**")
		}
	}
	return strings.Join(parts, "/")
}

func pathParam(name, desc string, schema jsonSchema) parameter {
	return parameter{Name: name, In: "path", Required: true, Description: desc, Schema: schema}
}

// queryParams lists the fields a route reads from the query, as the
// gateway binds them: every field that is not bound by the path or the
// body, by its proto name, nested messages' fields under dotted names;
// map fields, fields inside repeated ones and well-known types whose JSON
// is not a string or scalar (Struct, Value, Any ...) cannot be set from a
// URL.
// A route whose body is the whole request reads no query.
func (s *schemas) queryParams(r *Route) []parameter {
	if r.Body == "*" {
		return nil
	}
	bound := map[string]bool{}
	if r.Body != "" {
		bound[r.Body] = true
	}
	for _, seg := range r.Template.Segments {
		if seg.Kind == VarStart {
			bound[seg.Field] = true
		}
	}
	q := &queryWalk{s: s, bound: bound, seen: map[protoreflect.FullName]bool{}}
	q.walk(r.Method.Input(), "")
	return q.params
}

// maxQueryDepth bounds the dotted names of nested fields.
const maxQueryDepth = 8

type queryWalk struct {
	s      *schemas
	bound  map[string]bool
	seen   map[protoreflect.FullName]bool // messages on the current path
	params []parameter
	depth  int
}

func (q *queryWalk) walk(md protoreflect.MessageDescriptor, prefix string) {
	if q.seen[md.FullName()] || q.depth >= maxQueryDepth {
		return
	}
	q.seen[md.FullName()] = true
	q.depth++
	defer func() { q.seen[md.FullName()] = false; q.depth-- }()
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		name := prefix + string(fd.Name())
		if q.bound[name] || fd.IsMap() {
			continue
		}
		if fd.Message() != nil && !urlMessage(fd.Message()) {
			if !fd.IsList() && wellKnownSchema(fd.Message()) == nil {
				q.walk(fd.Message(), name+".")
			}
			continue
		}
		q.params = append(q.params, q.param(name, fd))
	}
}

func (q *queryWalk) param(name string, fd protoreflect.FieldDescriptor) parameter {
	p := parameter{Name: name, In: "query", Description: comment(fd), Schema: q.s.queryValue(fd)}
	if fd.IsList() {
		explode := true
		p.Style, p.Explode = "form", &explode
		p.Schema = jsonSchema{"type": "array", "items": p.Schema}
	}
	return p
}

// queryValue is the schema of one value of a field in a URL: the JSON
// form as text (numbers and booleans as such).
func (s *schemas) queryValue(fd protoreflect.FieldDescriptor) jsonSchema {
	if ed := fd.Enum(); ed != nil && ed.FullName() == "google.protobuf.NullValue" {
		return jsonSchema{"type": "string", "enum": []string{"NULL_VALUE"}}
	}
	if md := fd.Message(); md != nil {
		out := wellKnownSchema(md)
		if t, ok := out["type"].([]string); ok {
			out["type"] = t[0] // a value in a URL is never null
		}
		return out
	}
	return s.single(fd)
}

// urlMessage reports whether a message can be set from a URL: the
// well-known types whose JSON form is a string or a scalar.
func urlMessage(md protoreflect.MessageDescriptor) bool {
	_, err := wktParam(nil, md, "0") // "0" is a valid value of every one
	return err == nil
}
