package gateway

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// params are the fields set by path variables and query parameters, as
// wire records to append to the request message: each value is read by
// transcode as the field's JSON value, and wrapped in the records of the
// messages on its path, so that protobuf's merge puts it in place.
type params struct {
	root   *dynamic.Type
	opts   transcode.UnmarshalOptions
	wire   []byte
	js     []byte                       // the JSON of the value being set
	leaf   []byte                       // its records
	oneofs map[string]protoreflect.Name // the oneofs set, by message path and name: which field
}

func newParams(t *dynamic.Type, opts transcode.UnmarshalOptions) *params {
	return &params{root: t, opts: opts}
}

// set assigns values to the field at the dotted path (proto or JSON
// names). More than one value needs a repeated field.
func (p *params) set(path string, values []string) error {
	fds, err := fieldPath(p.root.Desc, path)
	if err != nil {
		return err
	}
	for _, fd := range fds[:len(fds)-1] {
		if fd.IsList() || fd.IsMap() {
			return fmt.Errorf("field %q: cannot set inside repeated field %s", path, fd.Name())
		}
	}
	if p.js, err = paramValue(p.js[:0], fds[len(fds)-1], values); err != nil {
		return fmt.Errorf("field %q: %w", path, err)
	}
	if err := p.setOneof(fds, path); err != nil {
		return err
	}
	if p.leaf, err = p.opts.UnmarshalFieldAppend(p.leaf[:0], p.field(fds), p.js); err != nil {
		return fmt.Errorf("field %q: %w", path, err)
	}
	p.wire = appendNested(p.wire, fds[:len(fds)-1], p.leaf)
	return nil
}

// appendNested appends to dst the records of the messages on path, each
// holding the next, the last holding leaf.
func appendNested(dst []byte, path []protoreflect.FieldDescriptor, leaf []byte) []byte {
	var sizes [16]int
	size := sizes[:0]
	n := len(leaf)
	for i := len(path) - 1; i >= 0; i-- {
		size = append(size, n)
		n += protowire.SizeTag(path[i].Number()) + protowire.SizeVarint(uint64(n))
	}
	for i, fd := range path {
		dst = protowire.AppendTag(dst, fd.Number(), protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(size[len(size)-1-i]))
	}
	return append(dst, leaf...)
}

// field is the compiled field at the end of fds.
func (p *params) field(fds []protoreflect.FieldDescriptor) *dynamic.Field {
	t := p.root
	var f *dynamic.Field
	for _, fd := range fds {
		f = t.FieldByNumber(fd.Number())
		t = f.Message
	}
	return f
}

// setOneof notes the oneofs the fields on the path fds are in: a second
// member of one oneof in one message is an error, as it is in JSON.
func (p *params) setOneof(fds []protoreflect.FieldDescriptor, path string) error {
	for i, fd := range fds {
		od := fd.ContainingOneof()
		if od == nil || od.IsSynthetic() {
			continue
		}
		key := oneofKey(fds[:i], od)
		if prev, ok := p.oneofs[key]; ok && prev != fd.Name() {
			return fmt.Errorf("field %q: oneof %s is already set", path, od.FullName())
		}
		if p.oneofs == nil {
			p.oneofs = map[string]protoreflect.Name{}
		}
		p.oneofs[key] = fd.Name()
	}
	return nil
}

// oneofKey names the oneof od of the message at the end of path.
func oneofKey(path []protoreflect.FieldDescriptor, od protoreflect.OneofDescriptor) string {
	var b strings.Builder
	for _, fd := range path {
		b.WriteString(string(fd.Name()) + ".")
	}
	b.WriteString(string(od.Name()))
	return b.String()
}

// paramValue appends to dst the JSON text of a field's value from the
// URL: an array for a repeated field, else its one value.
func paramValue(dst []byte, fd protoreflect.FieldDescriptor, values []string) ([]byte, error) {
	if fd.IsMap() {
		return nil, fmt.Errorf("map fields cannot be set from the URL")
	}
	if !fd.IsList() {
		if len(values) > 1 {
			return nil, fmt.Errorf("given %d times but not repeated", len(values))
		}
		return scalarParam(dst, fd, values[0])
	}
	dst = append(dst, '[')
	for i, v := range values {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = scalarParam(dst, fd, v); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

var number = regexp.MustCompile(`^-?[0-9]+$`)

// scalarParam appends the JSON value transcode accepts for the field from
// a URL value: strings for numbers, bytes and well-known types, literals
// for bools, names or numbers for enums.
func scalarParam(dst []byte, fd protoreflect.FieldDescriptor, v string) ([]byte, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return boolParam(dst, v)
	case protoreflect.EnumKind:
		if number.MatchString(v) {
			return append(dst, v...), nil
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return wktParam(dst, fd.Message(), v)
	}
	return appendJSONString(dst, v), nil
}

func boolParam(dst []byte, v string) ([]byte, error) {
	switch v {
	case "true", "1":
		return append(dst, "true"...), nil
	case "false", "0":
		return append(dst, "false"...), nil
	}
	return nil, fmt.Errorf("invalid bool %q", v)
}

// wktParam accepts well-known types whose JSON form is a string or a
// scalar; other messages cannot come from a URL.
func wktParam(dst []byte, md protoreflect.MessageDescriptor, v string) ([]byte, error) {
	switch md.FullName() {
	case "google.protobuf.BoolValue":
		return boolParam(dst, v)
	case "google.protobuf.FieldMask":
		return appendJSONString(dst, fieldMaskParam(v)), nil
	case "google.protobuf.Timestamp", "google.protobuf.Duration",
		"google.protobuf.StringValue", "google.protobuf.BytesValue",
		"google.protobuf.Int32Value", "google.protobuf.Int64Value",
		"google.protobuf.UInt32Value", "google.protobuf.UInt64Value",
		"google.protobuf.FloatValue", "google.protobuf.DoubleValue":
		return appendJSONString(dst, v), nil
	}
	return nil, fmt.Errorf("message %s cannot be set from the URL", md.FullName())
}

// appendJSONString appends s as a JSON string; bytes that are not UTF-8
// read as U+FFFD, as encoding/json writes them.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r < 0x20:
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
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
