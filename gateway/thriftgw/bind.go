package thriftgw

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

// source is where a bound field's value comes from.
type source uint8

const (
	fromPath source = iota
	fromQuery
	fromHeader
	fromCookie
)

var sourceNames = [...]string{fromPath: "path parameter", fromQuery: "query parameter",
	fromHeader: "header", fromCookie: "cookie"}

// binding is one field of a request struct bound from the request.
type binding struct {
	field *dynamic.Field
	src   source
	name  string // the parameter, header or cookie name
}

// bindings reads the api.* annotations of t's fields: the bound fields,
// and the body keys that differ from their field's name (api.body).
func bindings(t *dynamic.Type) (bs []binding, renames map[string]*dynamic.Field) {
	for _, f := range t.Fields {
		an := f.IDL.Annotations
		for _, k := range [...]struct {
			key string
			src source
		}{{"api.path", fromPath}, {"api.query", fromQuery}, {"api.header", fromHeader}, {"api.cookie", fromCookie}} {
			if v, ok := an.Get(k.key); ok && v != "" {
				bs = append(bs, binding{field: f, src: k.src, name: v})
			}
		}
		if v, ok := an.Get("api.body"); ok && v != "" && v != f.Name {
			if renames == nil {
				renames = map[string]*dynamic.Field{}
			}
			renames[v] = f
		}
	}
	return bs, renames
}

// values returns the request's values for b: nil when it has none.
func (b *binding) values(r *http.Request, ps []param) []string {
	switch b.src {
	case fromPath:
		for _, p := range ps {
			if p.name == b.name {
				return []string{p.value}
			}
		}
	case fromQuery:
		return r.URL.Query()[b.name]
	case fromHeader:
		return r.Header.Values(b.name)
	case fromCookie:
		if c, err := r.Cookie(b.name); err == nil {
			return []string{c.Value}
		}
	}
	return nil
}

// bindError is a bound value that does not fit its field.
type bindError struct {
	b   *binding
	msg string
}

func (e *bindError) Error() string {
	return fmt.Sprintf("%s %q (field %q): %s", sourceNames[e.b.src], e.b.name, e.b.field.Name, e.msg)
}

// appendJSON appends the JSON of b's values, typed by its field.
func (b *binding) appendJSON(dst []byte, vals []string) ([]byte, error) {
	t := b.field.Type
	if t.Kind == idl.ListKind || t.Kind == idl.SetKind {
		return b.appendList(dst, t.Elem, vals)
	}
	return b.appendScalar(dst, t, vals[len(vals)-1])
}

func (b *binding) appendList(dst []byte, elem *dynamic.Type, vals []string) ([]byte, error) {
	dst = append(dst, '[')
	n := 0
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if n > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = b.appendScalar(dst, elem, s); err != nil {
				return dst, err
			}
			n++
		}
	}
	return append(dst, ']'), nil
}

// appendScalar appends s as a JSON value of type t.
func (b *binding) appendScalar(dst []byte, t *dynamic.Type, s string) ([]byte, error) {
	bad := func(what string) error {
		return &bindError{b, fmt.Sprintf("invalid %s %q", what, s)}
	}
	switch t.Kind {
	case idl.StringKind:
		return strconv.AppendQuote(dst, s), nil
	case idl.BinaryKind:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, []byte(s))
		return append(dst, '"'), nil
	case idl.BoolKind:
		v, err := strconv.ParseBool(s)
		if err != nil {
			return dst, bad("bool")
		}
		return strconv.AppendBool(dst, v), nil
	case idl.I8Kind, idl.I16Kind, idl.I32Kind, idl.I64Kind:
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, intBits(t.Kind))
		if err != nil {
			return dst, bad(t.Kind.String())
		}
		return strconv.AppendInt(dst, v, 10), nil
	case idl.DoubleKind:
		return appendDouble(dst, s, bad)
	case idl.EnumKind:
		return appendEnum(dst, t, s, bad)
	}
	// Structs, maps and anything else: the value is JSON text.
	return append(dst, s...), nil
}

func intBits(k idl.Kind) int {
	switch k {
	case idl.I8Kind:
		return 8
	case idl.I16Kind:
		return 16
	case idl.I32Kind:
		return 32
	}
	return 64
}

func appendDouble(dst []byte, s string, bad func(string) error) ([]byte, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return dst, bad("double")
	}
	return appendFloat(dst, v), nil
}

// appendFloat writes NaN and the infinities as thrift/transcode reads them.
func appendFloat(dst []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

func appendEnum(dst []byte, t *dynamic.Type, s string, bad func(string) error) ([]byte, error) {
	if v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32); err == nil {
		return strconv.AppendInt(dst, v, 10), nil
	}
	if v := t.Enum.Value(s); v != nil {
		return strconv.AppendInt(dst, int64(v.Value), 10), nil
	}
	return dst, bad(t.Enum.Name)
}
