package dynamic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestValidateCorpus: everything the generated code writes validates.
func TestValidateCorpus(t *testing.T) {
	for _, s := range corpus(t, 25) {
		if err := dynamic.Validate(thriftfixture.BenchType(t, s.name), s.p, s.b); err != nil {
			t.Fatalf("%s: %v", s.label, err)
		}
	}
}

const validateIDL = `
struct In { 1: string s, 2: binary b }
struct R { 1: required i32 n, 2: string s, 3: list<In> ins, 4: map<string, In> m }
union U { 1: i32 a, 2: string b }
struct Deep { 1: Deep next }
`

// TestValidateErrors: each kind of misfit is found, with its path.
func TestValidateErrors(t *testing.T) {
	f, err := parseIDL([]byte(validateIDL))
	if err != nil {
		t.Fatal(err)
	}
	var c dynamic.Cache
	r, u, deep := c.Type(f.Type("R")), c.Type(f.Type("U")), c.Type(f.Type("Deep"))
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		n := func(b []byte) []byte { return p.AppendI32(p.AppendFieldHeader(b, wire.I32, 1, 0), 1) }
		in := func(b []byte, s string, last int16) []byte {
			b = p.AppendFieldHeader(b, wire.List, 3, last)
			b = p.AppendListHeader(b, wire.Struct, 1)
			b = p.AppendString(p.AppendFieldHeader(b, wire.String, 1, 0), s)
			b = p.AppendString(p.AppendFieldHeader(b, wire.String, 2, 1), "\xff")
			return p.AppendStop(b)
		}
		good := p.AppendStop(in(n(nil), "ok", 1))
		if err := dynamic.Validate(r, p, good); err != nil {
			t.Fatalf("%v: good struct: %v", p, err)
		}
		chain := []byte{}
		for range 70 {
			chain = p.AppendFieldHeader(chain, wire.Struct, 1, 0)
		}
		for range 71 {
			chain = p.AppendStop(chain)
		}
		for _, tc := range []struct {
			name string
			t    *dynamic.Type
			b    []byte
			want string
		}{
			{"required", r, p.AppendStop(nil), `required field "n" of R is missing`},
			{"wire type", r, p.AppendStop(p.AppendI64(p.AppendFieldHeader(nil, wire.I64, 1, 0), 1)), `field "n": wire type i64, want i32`},
			{"repeat", r, p.AppendStop(p.AppendI32(p.AppendFieldHeader(n(nil), wire.I32, 1, 1), 1)), `field "n": the field repeats`},
			{"utf8", r, p.AppendStop(in(n(nil), "\xff", 1)), `field "ins[0].s": invalid UTF-8`},
			{"trailing", r, append(good, 0), "1 bytes after the value"},
			{"truncated", r, good[:len(good)-1], "value past the end"},
			{"union", u, p.AppendStop(p.AppendString(p.AppendFieldHeader(p.AppendI32(p.AppendFieldHeader(nil, wire.I32, 1, 0), 1), wire.String, 2, 1), "x")), "union U has 2 fields set"},
			{"depth", deep, chain, "nesting too deep"},
		} {
			err := dynamic.Validate(tc.t, p, tc.b)
			var e *dynamic.Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: %s: Validate = %v; want an Error with %q", p, tc.name, err, tc.want)
			}
		}
	}
}
