package wire_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

var ctx = context.Background()

// readSpecimen reads thrift/testdata/specimens/name.ext.
func readSpecimen(t testing.TB, name, ext string) []byte {
	b, err := os.ReadFile(filepath.Join("../testdata/specimens", name+"."+ext))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMessageHeaders holds the message headers against the Apache
// library: the bytes it writes are the ones appended here, and they read
// back to the same name, type and sequence id, in the binary protocol's
// strict and non-strict forms and the compact protocol's.
func TestMessageHeaders(t *testing.T) {
	cases := []struct {
		name string
		typ  wire.MessageType
		seq  int32
	}{{"Echo", wire.Call, 1}, {"", wire.Reply, -1}, {"GetMedium", wire.Exception, 1 << 30}, {"Notify ✓", wire.Oneway, -1 << 31}}
	for _, pr := range thriftfixture.Protocols {
		for _, c := range cases {
			buf := thrift.NewTMemoryBuffer()
			prot := thriftfixture.Protocol(pr.Proto, buf)
			if err := prot.WriteMessageBegin(ctx, c.name, thrift.TMessageType(c.typ), c.seq); err != nil {
				t.Fatal(err)
			}
			prot.Flush(ctx)
			want := buf.Bytes()
			if got := pr.Proto.AppendMessageHeader(nil, c.name, c.typ, c.seq); !bytes.Equal(got, want) {
				t.Errorf("%s %q: appended %x, Apache library %x", pr.Ext, c.name, got, want)
			}
			checkMessage(t, pr.Proto, want, c.name, c.typ, c.seq, true)
			if pr.Proto == wire.Binary {
				old := wire.AppendBinaryNonStrictHeader(nil, c.name, c.typ, c.seq)
				checkMessage(t, wire.Binary, old, c.name, c.typ, c.seq, false)
				checkApacheReads(t, old, c.name, c.typ, c.seq)
			}
		}
	}
}

func checkMessage(t *testing.T, p wire.Protocol, b []byte, name string, typ wire.MessageType, seq int32, strict bool) {
	t.Helper()
	m, err := p.ConsumeMessageHeader(b, 0)
	if err != nil || string(m.Name(b)) != name || m.Type != typ || m.SeqID != seq || m.Strict != strict || m.End != len(b) {
		t.Errorf("%v %x: read %+v (name %q), %v", p, b, m, m.Name(b), err)
	}
}

// checkApacheReads reads a non-strict header with the Apache library.
func checkApacheReads(t *testing.T, b []byte, name string, typ wire.MessageType, seq int32) {
	t.Helper()
	buf := thrift.NewTMemoryBuffer()
	buf.Write(b)
	n, mt, s, err := thriftfixture.Protocol(wire.Binary, buf).ReadMessageBegin(ctx)
	if err != nil || n != name || wire.MessageType(mt) != typ || s != seq {
		t.Errorf("Apache library reads %x as %q %v %d, %v", b, n, mt, s, err)
	}
}

// malformed lists broken inputs, the code each gives and where.
var malformed = []struct {
	name string
	p    wire.Protocol
	t    wire.Type
	b    []byte
	code wire.Code
	off  int
}{
	{"empty struct", wire.Binary, wire.Struct, nil, wire.CodeTruncated, 0},
	{"no stop", wire.Binary, wire.Struct, []byte{8, 0, 1, 0, 0, 0, 5}, wire.CodeTruncated, 7},
	{"truncated field id", wire.Binary, wire.Struct, []byte{8, 0}, wire.CodeTruncated, 0},
	{"truncated i32", wire.Binary, wire.Struct, []byte{8, 0, 1, 0, 0}, wire.CodeTruncated, 3},
	{"bad field type", wire.Binary, wire.Struct, []byte{5, 0, 1, 0}, wire.CodeType, 0},
	{"field type 17", wire.Binary, wire.Struct, []byte{17, 0, 1, 0}, wire.CodeType, 0},
	{"negative length", wire.Binary, wire.String, []byte{0xff, 0xff, 0xff, 0xfe}, wire.CodeNegative, 0},
	{"length past end", wire.Binary, wire.String, []byte{0, 0, 0, 4, 'a', 'b'}, wire.CodeLength, 0},
	{"hostile list count", wire.Binary, wire.List, []byte{8, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1}, wire.CodeLength, 1},
	{"list count over i64 size", wire.Binary, wire.List, []byte{10, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1}, wire.CodeLength, 1},
	{"hostile map count", wire.Binary, wire.Map, []byte{11, 11, 0x10, 0, 0, 0, 0, 0, 0, 0}, wire.CodeLength, 2},
	{"list of stop", wire.Binary, wire.List, []byte{0, 0, 0, 0, 0}, wire.CodeType, 0},
	{"map of bad type", wire.Binary, wire.Map, []byte{8, 7, 0, 0, 0, 0}, wire.CodeType, 0},
	{"compact truncated varint", wire.Compact, wire.I32, []byte{0x80, 0x80}, wire.CodeTruncated, 0},
	{"compact i32 overflow", wire.Compact, wire.Struct, []byte{0x15, 0x80, 0x80, 0x80, 0x80, 0x10, 0}, wire.CodeVarint, 1},
	{"compact i64 11 bytes", wire.Compact, wire.I64, bytes.Repeat([]byte{0xff}, 11), wire.CodeVarint, 0},
	{"compact i16 field id overflow", wire.Compact, wire.Struct, []byte{0x05, 0x80, 0x80, 0x04, 0, 0}, wire.CodeVarint, 1},
	{"compact bad field type", wire.Compact, wire.Struct, []byte{0x1e}, wire.CodeType, 0},
	{"compact length past end", wire.Compact, wire.String, []byte{5, 'a'}, wire.CodeLength, 0},
	{"compact hostile length", wire.Compact, wire.String, []byte{0xff, 0xff, 0xff, 0xff, 0x07}, wire.CodeLength, 0},
	{"compact length over i32", wire.Compact, wire.String, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, wire.CodeNegative, 0},
	{"compact short list past end", wire.Compact, wire.List, []byte{0x35, 1, 2}, wire.CodeLength, 0},
	{"compact list of doubles past end", wire.Compact, wire.List, []byte{0x27, 1, 2, 3, 4, 5, 6, 7, 8, 9}, wire.CodeLength, 0},
	{"compact hostile list", wire.Compact, wire.List, []byte{0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 0}, wire.CodeLength, 1},
	{"compact list of stop", wire.Compact, wire.List, []byte{0x10, 0}, wire.CodeType, 0},
	{"compact hostile map", wire.Compact, wire.Map, []byte{0xff, 0xff, 0xff, 0x07, 0x55, 0}, wire.CodeLength, 0},
	{"compact map of bad type", wire.Compact, wire.Map, []byte{1, 0x5e, 0, 0}, wire.CodeType, 1},
	{"stop as a value", wire.Binary, wire.Stop, []byte{0}, wire.CodeType, 0},
	{"deep lists", wire.Binary, wire.List, bytes.Repeat([]byte{15, 0, 0, 0, 1}, wire.DefaultMaxDepth+1), wire.CodeDepth, 5 * wire.DefaultMaxDepth},
	{"deep structs", wire.Compact, wire.Struct, bytes.Repeat([]byte{0x1c}, wire.DefaultMaxDepth+1), wire.CodeDepth, wire.DefaultMaxDepth},
}

func TestMalformed(t *testing.T) {
	for _, c := range malformed {
		t.Run(c.name, func(t *testing.T) {
			end, err := c.p.Skip(c.b, 0, c.t)
			var e *wire.Error
			if !errors.As(err, &e) || e.Code != c.code || e.Offset != c.off {
				t.Fatalf("Skip = %d, %v; want code %q at offset %d", end, err, c.code, c.off)
			}
			if !errors.Is(err, &wire.Error{Code: c.code}) {
				t.Fatalf("errors.Is(%v, code %v) is false", err, c.code)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	_, err := wire.Binary.Skip([]byte{0, 0, 0, 9}, 0, wire.String)
	if got, want := err.Error(), "thrift/wire: offset 0: length past the end"; got != want {
		t.Errorf("error %q; want %q", got, want)
	}
}

// TestIterMalformed: the iterator stops with the same error as Skip.
func TestIterMalformed(t *testing.T) {
	for _, c := range malformed {
		if c.t != wire.Struct {
			continue
		}
		it := wire.NewIter(c.p, c.b, 0)
		for it.Next() {
		}
		_, err := c.p.Skip(c.b, 0, wire.Struct)
		if it.Err() == nil || it.Err().Error() != err.Error() {
			t.Errorf("%s: iterator %v; Skip %v", c.name, it.Err(), err)
		}
	}
}

func TestMessageMalformed(t *testing.T) {
	cases := []struct {
		name string
		p    wire.Protocol
		b    []byte
		code wire.Code
	}{
		{"bad version", wire.Binary, []byte{0x80, 0x02, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, wire.CodeVersion},
		{"bad type", wire.Binary, []byte{0x80, 0x01, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0}, wire.CodeMessageType},
		{"non-strict bad type", wire.Binary, []byte{0, 0, 0, 1, 'a', 9, 0, 0, 0, 0}, wire.CodeMessageType},
		{"non-strict long name", wire.Binary, []byte{0, 0x10, 0, 1, 'a'}, wire.CodeLength},
		{"truncated seq", wire.Binary, []byte{0x80, 0x01, 0, 1, 0, 0, 0, 0, 0, 0}, wire.CodeTruncated},
		{"compact bad id", wire.Compact, []byte{0x81, 0x21, 0, 0}, wire.CodeVersion},
		{"compact bad version", wire.Compact, []byte{0x82, 0x22, 0, 0}, wire.CodeVersion},
		{"compact bad type", wire.Compact, []byte{0x82, 0xa1, 0, 0}, wire.CodeMessageType},
		{"compact long name", wire.Compact, []byte{0x82, 0x21, 0, 9, 'a'}, wire.CodeLength},
	}
	for _, c := range cases {
		if _, err := c.p.ConsumeMessageHeader(c.b, 0); !errors.Is(err, &wire.Error{Code: c.code}) {
			t.Errorf("%s: %v; want %v", c.name, err, c.code)
		}
	}
}

// TestHeadersBoundCounts: a count the input cannot hold is refused by the
// header readers, so a caller sizing a slice by it allocates no more than
// the input's size.
func TestHeadersBoundCounts(t *testing.T) {
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		b := p.AppendListHeader(nil, wire.Double, 3)
		b = append(b, make([]byte, 23)...) // room for two and a bit
		if _, _, _, err := p.ConsumeListHeader(b, 0); !errors.Is(err, &wire.Error{Code: wire.CodeLength}) {
			t.Errorf("%v: list of 3 doubles in 23 bytes: %v", p, err)
		}
		b = p.AppendMapHeader(nil, wire.Struct, wire.Struct, 1000)
		b = append(b, make([]byte, 1999)...)
		if _, _, _, _, err := p.ConsumeMapHeader(b, 0); !errors.Is(err, &wire.Error{Code: wire.CodeLength}) {
			t.Errorf("%v: map of 1000 structs in 1999 bytes: %v", p, err)
		}
	}
}

// TestSkipAllocatesNothing on the Large specimen.
func TestSkipAllocatesNothing(t *testing.T) {
	for _, pr := range thriftfixture.Protocols {
		b := readSpecimen(t, "large", pr.Ext)
		n := testing.AllocsPerRun(20, func() {
			it := wire.NewIter(pr.Proto, b, 0)
			for it.Next() {
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per walk", pr.Ext, n)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	// A struct holding a list holding a struct: three levels.
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		inner := p.AppendStop(nil)
		b := p.AppendFieldHeader(nil, wire.List, 1, 0)
		b = append(p.AppendListHeader(b, wire.Struct, 1), inner...)
		b = p.AppendStop(b)
		if _, err := p.SkipDepth(b, 0, wire.Struct, 3); err != nil {
			t.Errorf("%v: depth 3: %v", p, err)
		}
		if _, err := p.SkipDepth(b, 0, wire.Struct, 2); !errors.Is(err, &wire.Error{Code: wire.CodeDepth}) {
			t.Errorf("%v: depth 2: %v", p, err)
		}
		it := wire.NewIter(p, b, 0)
		it.SetMaxDepth(2)
		if it.Next() || !errors.Is(it.Err(), &wire.Error{Code: wire.CodeDepth}) {
			t.Errorf("%v: iterator at depth 2: %v", p, it.Err())
		}
	}
}

// TestSkipAgreesWithConsume: for compact's varint types, Skip accepts the
// same encodings as the readers, to the same end, overlong ones refused.
func TestSkipAgreesWithConsume(t *testing.T) {
	p := wire.Compact
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.Uint32()) | byte(r.IntN(2))<<7
		}
		for _, typ := range []wire.Type{wire.I16, wire.I32, wire.I64} {
			end, err := p.Skip(b, 0, typ)
			next, rerr := consumeInt(p, b, typ)
			if (err == nil) != (rerr == nil) || err == nil && end != next {
				t.Fatalf("%v %x: Skip %d, %v; reader %d, %v", typ, b, end, err, next, rerr)
			}
		}
	}
}

func consumeInt(p wire.Protocol, b []byte, typ wire.Type) (next int, err error) {
	switch typ {
	case wire.I16:
		_, next, err = p.ConsumeI16(b, 0)
	case wire.I32:
		_, next, err = p.ConsumeI32(b, 0)
	default:
		_, next, err = p.ConsumeI64(b, 0)
	}
	return next, err
}
