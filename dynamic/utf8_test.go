package dynamic

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// utf8Impl is one implementation of utf8.Valid.
type utf8Impl struct {
	name  string
	valid func([]byte) bool
}

// utf8Impls lists the implementations this machine runs: the Go code
// everywhere, the vector code where the CPU has AVX2 (validUTF8AVX2 hands
// inputs under avx2MinLen bytes to the Go code), and validUTF8, which picks
// one of the two by length.
func utf8Impls() []utf8Impl {
	impls := []utf8Impl{{"generic", validUTF8Generic}}
	if useAVX2 {
		impls = append(impls, utf8Impl{"avx2", validUTF8AVX2})
	}
	return append(impls, utf8Impl{"validUTF8", validUTF8})
}

// checkUTF8 holds every implementation to want on b.
func checkUTF8(t testing.TB, impls []utf8Impl, b []byte, want bool) {
	for _, im := range impls {
		if got := im.valid(b); got != want {
			t.Helper()
			t.Fatalf("%s(%q) (%d bytes) = %v, utf8.Valid says %v", im.name, b, len(b), got, want)
		}
	}
}

func TestValidUTF8Impls(t *testing.T) {
	for _, im := range utf8Impls() {
		t.Log("checking", im.name)
	}
}

// asciiPad is ASCII filler with bytes from both ends of the range.
func asciiPad(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*37+11) & 0x7f
	}
	return b
}

// placements lists where TestValidUTF8Sequences puts a sequence: at every
// offset 0..70 of ASCII paddings whose lengths put it in the first, a
// middle and the overlapping last block of the vector code, across its
// 32-byte block boundaries and at the end of input, in its paths for 8 to
// 15 and 16 to 32 bytes, and in the Go code's eight-byte words and
// byte-by-byte tail.
func placements() (ps []struct{ pad, at int }) {
	for _, pad := range []int{0, 5, 8, 11, 13, 14, 22, 29, 30, 31, 32, 46, 100} {
		for at := 0; at <= min(pad, 70); at++ {
			ps = append(ps, struct{ pad, at int }{pad, at})
		}
	}
	return ps
}

// sequenceTail lists the third and fourth bytes tried after every pair of
// first and second bytes: ASCII, both ends of the continuation range and
// its halves, lead bytes.
var sequenceTail = []byte{0x00, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xe1, 0xf0}

// TestValidUTF8Sequences compares the implementations with utf8.Valid on
// every one- and two-byte sequence at every placement, and on every
// three- and four-byte sequence whose first two bytes take all 256 values
// and whose others come from sequenceTail, each at a share of the
// placements that rotates with the sequence, so that every placement sees
// thousands of them. The padding is ASCII: the whole input is valid exactly
// when the sequence is.
func TestValidUTF8Sequences(t *testing.T) {
	impls := utf8Impls()
	impls = impls[:len(impls)-1] // the last, validUTF8, runs one of the others
	ps := placements()
	tails := len(sequenceTail)
	kinds := []struct {
		size, count, stride int
	}{
		{1, 256, 1},
		{2, 256 * 256, 1},
		{3, 256 * 256 * tails, 23},
		{4, 256 * 256 * tails * tails, 211},
	}
	if testing.Short() {
		kinds = kinds[:2]
	}
	pad := asciiPad(128)
	seq := make([]byte, 4)
	for _, k := range kinds {
		for j, p := range ps {
			buf := append(append(append([]byte(nil), pad[:p.at]...), make([]byte, k.size)...), pad[p.at:p.pad]...)
			for i := (k.stride - j%k.stride) % k.stride; i < k.count; i += k.stride {
				// i holds the bytes of the sequence, the first in its
				// lowest digit: base 256 for the first two, base tails
				// for the others.
				seq[0], seq[1] = byte(i), byte(i>>8)
				if k.size > 2 {
					seq[2] = sequenceTail[(i>>16)%tails]
				}
				if k.size > 3 {
					seq[3] = sequenceTail[(i>>16)/tails]
				}
				copy(buf[p.at:], seq[:k.size])
				checkUTF8(t, impls, buf, utf8.Valid(seq[:k.size]))
			}
		}
	}
}

// TestValidUTF8Truncated ends inputs of every length up to 100 inside a
// sequence, and right after it.
func TestValidUTF8Truncated(t *testing.T) {
	impls := utf8Impls()
	runes := []rune{0x80, 0x7ff, 0x800, 0xfff, 0x1000, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x3ffff, 0x40000, 0xfffff, 0x100000, 0x10ffff}
	var seqs [][]byte
	for _, r := range runes {
		enc := utf8.AppendRune(nil, r)
		for k := 1; k <= len(enc); k++ {
			seqs = append(seqs, enc[:k])
		}
	}
	for lead := 0x80; lead < 0x100; lead++ {
		for k := range 4 {
			seqs = append(seqs, append([]byte{byte(lead)}, bytes.Repeat([]byte{0x90}, k)...))
		}
	}
	pad := asciiPad(128)
	for _, seq := range seqs {
		for n := len(seq); n <= 100; n++ {
			b := append(append([]byte(nil), pad[:n-len(seq)]...), seq...)
			checkUTF8(t, impls, b, utf8.Valid(b))
			// The same after a valid multi-byte rune, which the vector
			// code sees in the block before.
			if n >= len(seq)+3 {
				copy(b[n-len(seq)-3:], "東")
				checkUTF8(t, impls, b, utf8.Valid(b))
			}
		}
	}
}

// scripts are runs of text from several writing systems, with code points
// of every encoded length.
var scripts = []string{
	"plain ASCII text, with digits 0123456789 and punctuation!?",
	"grüße aus Zürich, naïve café, élève, Ærøskøbing",
	"пример текста на русском языке",
	"ελληνικό κείμενο για δοκιμή",
	"مثال على نص عربي",
	"東京の天気は晴れです。日本語のテキスト",
	"한국어 텍스트 예제",
	"emoji 😀🎉🚀 and 𝄞 music, 𐍈 gothic",
	"\u07ff\u0800\ud7ff\ue000\uffff\U00010000\U0010ffff",
}

// TestValidUTF8Random checks random texts of 0 to 300 bytes: runs of
// whole runes from the scripts and of ASCII, in half of them with random
// bytes among them; each also with a few bytes changed, and random bytes
// of the same length.
func TestValidUTF8Random(t *testing.T) {
	impls := utf8Impls()
	var runes [][]rune
	for _, s := range scripts {
		runes = append(runes, []rune(s))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for range n {
		size := rng.IntN(301)
		noise := rng.IntN(2) == 0
		var b []byte
		for len(b) < size {
			switch k := rng.IntN(10); {
			case k < 6:
				rs := runes[rng.IntN(len(runes))]
				i := rng.IntN(len(rs))
				b = append(b, string(rs[i:min(len(rs), i+1+rng.IntN(20))])...)
			case k < 9 || !noise:
				b = append(b, asciiPad(rng.IntN(40))...)
			default:
				b = append(b, byte(rng.Uint32()))
			}
		}
		b = b[:size]
		checkUTF8(t, impls, b, utf8.Valid(b))
		if size > 0 {
			for range 1 + rng.IntN(3) {
				b[rng.IntN(size)] = byte(rng.Uint32())
			}
			checkUTF8(t, impls, b, utf8.Valid(b))
		}
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		checkUTF8(t, impls, b, utf8.Valid(b))
	}
}

// TestValidUTF8Bounds surrounds the input with bytes that would make it
// invalid if they were read as part of it: four-byte lead bytes before it,
// continuation bytes after it.
func TestValidUTF8Bounds(t *testing.T) {
	impls := utf8Impls()
	text := []byte(strings.Join(scripts, " "))
	for n := range 130 {
		for before := range 4 {
			for start := 0; start < len(text)-n; start += 7 {
				b := text[start : start+n]
				buf := append(append(bytes.Repeat([]byte{0xf0}, before), b...), bytes.Repeat([]byte{0x80}, 40)...)
				checkUTF8(t, impls, buf[before:before+n], utf8.Valid(b))
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "ascii only, long enough", "grüße aus Zürich", "東京", "\xff", "abcdefgh\xc0\x80", "abcdefghé\xed\xa0\x80", "abcdefgh\xf4\x90\x80\x80", "abcdefg\xe0\x9f\xbf"} {
		f.Add([]byte(s))
	}
	for _, s := range scripts {
		f.Add([]byte(s))
		f.Add([]byte(s + s + s))
	}
	impls := utf8Impls()
	f.Fuzz(func(t *testing.T, b []byte) { checkUTF8(t, impls, b, utf8.Valid(b)) })
}

// mediumStrings returns the strings of the Medium fixture, the text that
// Validate checks on it.
func mediumStrings(tb testing.TB) [][]byte {
	var out [][]byte
	var walk func(m protoreflect.Message)
	add := func(v protoreflect.Value) { out = append(out, []byte(v.String())) }
	each := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch {
		case fd.Kind() == protoreflect.StringKind:
			add(v)
		case fd.Message() != nil:
			walk(v.Message())
		}
	}
	walk = func(m protoreflect.Message) {
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList():
				for i := range v.List().Len() {
					each(fd, v.List().Get(i))
				}
			case fd.IsMap():
				v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
					each(fd.MapKey(), k.Value())
					each(fd.MapValue(), v)
					return true
				})
			default:
				each(fd, v)
			}
			return true
		})
	}
	walk(fixture.Medium().ProtoReflect())
	if len(out) == 0 {
		tb.Fatal("no strings in the Medium fixture")
	}
	return out
}

// BenchmarkValidUTF8 checks all the strings of the Medium fixture per
// operation.
func BenchmarkValidUTF8(b *testing.B) {
	strs := mediumStrings(b)
	var size int
	for _, s := range strs {
		size += len(s)
	}
	impls := append(utf8Impls(), utf8Impl{"utf8.Valid", utf8.Valid})
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, s := range strs {
					if !im.valid(s) {
						b.Fatalf("%q is not valid", s)
					}
				}
			}
		})
	}
}
