package gateway

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// params builds the JSON object that sets the fields named by path
// variables and query parameters, typed as the fields are.
type params struct {
	root protoreflect.MessageDescriptor
	tree map[string]any // JSON name -> value or nested map
}

func newParams(md protoreflect.MessageDescriptor) *params {
	return &params{root: md, tree: map[string]any{}}
}

// set assigns values to the field at the dotted path (proto or JSON
// names). More than one value needs a repeated field.
func (p *params) set(path string, values []string) error {
	fds, err := fieldPath(p.root, path)
	if err != nil {
		return err
	}
	node := p.tree
	for _, fd := range fds[:len(fds)-1] {
		if fd.IsList() || fd.IsMap() {
			return fmt.Errorf("field %q: cannot set inside repeated field %s", path, fd.Name())
		}
		next, ok := node[fd.JSONName()].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[fd.JSONName()] = next
		}
		node = next
	}
	leaf := fds[len(fds)-1]
	v, err := paramValue(leaf, values)
	if err != nil {
		return fmt.Errorf("field %q: %w", path, err)
	}
	node[leaf.JSONName()] = v
	return nil
}

func paramValue(fd protoreflect.FieldDescriptor, values []string) (any, error) {
	if fd.IsMap() {
		return nil, fmt.Errorf("map fields cannot be set from the URL")
	}
	if fd.IsList() {
		out := make([]any, len(values))
		for i, v := range values {
			var err error
			if out[i], err = scalarParam(fd, v); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if len(values) > 1 {
		return nil, fmt.Errorf("given %d times but not repeated", len(values))
	}
	return scalarParam(fd, values[0])
}

var number = regexp.MustCompile(`^-?[0-9]+$`)

// scalarParam turns a URL value into the JSON value transcode accepts for
// the field: strings for numbers, bytes and well-known types, literals for
// bools, names or numbers for enums.
func scalarParam(fd protoreflect.FieldDescriptor, v string) (any, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return boolParam(v)
	case protoreflect.EnumKind:
		if number.MatchString(v) {
			return json.Number(v), nil
		}
		return v, nil
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return wktParam(fd.Message(), v)
	}
	return v, nil
}

func boolParam(v string) (any, error) {
	switch v {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return nil, fmt.Errorf("invalid bool %q", v)
}

// wktParam accepts well-known types whose JSON form is a string or a
// scalar; other messages cannot come from a URL.
func wktParam(md protoreflect.MessageDescriptor, v string) (any, error) {
	switch md.FullName() {
	case "google.protobuf.BoolValue":
		return boolParam(v)
	case "google.protobuf.FieldMask":
		return fieldMaskParam(v), nil
	case "google.protobuf.Timestamp", "google.protobuf.Duration",
		"google.protobuf.StringValue", "google.protobuf.BytesValue",
		"google.protobuf.Int32Value", "google.protobuf.Int64Value",
		"google.protobuf.UInt32Value", "google.protobuf.UInt64Value",
		"google.protobuf.FloatValue", "google.protobuf.DoubleValue":
		return v, nil
	}
	return nil, fmt.Errorf("message %s cannot be set from the URL", md.FullName())
}

// fieldMaskParam is a field mask from a URL as its JSON string: the paths
// may be given in proto names (display_name, as grpc-gateway takes them) or
// in JSON names (displayName, as the JSON form has them).
func fieldMaskParam(v string) string {
	paths := strings.Split(v, ",")
	for i, p := range paths {
		paths[i] = lowerCamel(p)
	}
	return strings.Join(paths, ",")
}

// lowerCamel turns snake_case into lowerCamelCase, dots kept.
func lowerCamel(s string) string {
	var b strings.Builder
	up := false
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '_':
			up = true
			continue
		case up && c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		up = false
		b.WriteByte(c)
	}
	return b.String()
}

// empty reports whether no field was set.
func (p *params) empty() bool { return len(p.tree) == 0 }

// json renders the fields set as one JSON object.
func (p *params) json() ([]byte, error) { return json.Marshal(p.tree) }

// fromQuery sets the fields named by query parameters, sorted by name so
// errors are stable; skip reports names already bound (path variables,
// body fields).
func (p *params) fromQuery(q url.Values, skip func(string) bool) error {
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		if skip(name) {
			continue
		}
		if err := p.set(name, q[name]); err != nil {
			return fmt.Errorf("query parameter %s", strings.TrimPrefix(err.Error(), "field "))
		}
	}
	return nil
}
