package dynamic

import (
	"testing"

	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"github.com/rpckit/rpckit/internal/utf8x"
	"google.golang.org/protobuf/proto"
)

// BenchmarkValidateFloor measures, against generated code's Unmarshal of
// Medium (Validate's baseline), the two parts no validator of wire bytes
// can skip, each done as cheaply as it can be:
//
//   - walk: finding every record at every depth, trusting the input: no
//     bounds, depth or payload checks, no strings checked;
//   - utf8: one check of all the strings' text, 5.3 KB laid end to end,
//     in a single call.
//
// Their ratios r1 and r2 bound Validate's: 1/(1/r1 + 1/r2) is the ratio of
// a validator that did both and nothing else. validate is Validate itself.
func BenchmarkValidateFloor(b *testing.B) {
	m := fixture.Medium()
	buf, err := proto.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	t := TypeOf(m.ProtoReflect().Descriptor())
	base := func() {
		if err := proto.Unmarshal(buf, new(fixturev1.Medium)); err != nil {
			b.Fatal(err)
		}
	}
	var text []byte
	if n := walkRecords(t, buf, &text); n != 314 {
		b.Fatalf("walked %d records of Medium, want 314", n)
	}
	for _, c := range []struct {
		name string
		ours func()
	}{
		{"walk", func() { walkRecords(t, buf, nil) }},
		{"utf8", func() { utf8x.Valid(text) }},
		{"validate", func() {
			if err := Validate(t, buf); err != nil {
				b.Fatal(err)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) { benchpair.Compare(b, base, c.ours) })
	}
}

// walkRecords walks the records of a well-formed message of t, with
// one-byte tags and lengths under 2^14, at every depth, and returns how
// many it found. With text non-nil it appends there the payload of each
// string that must be UTF-8, and a space after it.
func walkRecords(t *Type, b []byte, text *[]byte) int {
	type frame struct {
		t   *Type
		end int
	}
	var stack [32]frame
	n, sp, p, end := 0, 0, 0, len(b)
	for {
		for p < end {
			c := b[p]
			p++
			n++
			switch c & 7 {
			case 0:
				for b[p] >= 0x80 {
					p++
				}
				p++
			case 1:
				p += 8
			case 5:
				p += 4
			case 2:
				l := int(b[p] & 0x7f)
				if b[p] >= 0x80 {
					p++
					l |= int(b[p]) << 7
				}
				p++
				switch op := &t.tags[c]; {
				case op.op == opMessage:
					stack[sp] = frame{t, end}
					sp++
					t, end = op.f.Message, p+l
					continue
				case op.op == opUTF8 && text != nil:
					*text = append(append(*text, b[p:p+l]...), ' ')
				}
				p += l
			}
		}
		if sp == 0 {
			return n
		}
		sp--
		t, end = stack[sp].t, stack[sp].end
	}
}
