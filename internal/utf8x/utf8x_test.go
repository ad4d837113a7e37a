package utf8x

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// validImpl is one implementation of utf8.Valid.
type validImpl struct {
	name  string
	valid func([]byte) bool
}

// validImpls lists the implementations this machine runs: the Go code,
// and Valid, which is the vector code where the CPU has AVX2 (and its own
// check of short ASCII, handing other short input to the Go code).
func validImpls() []validImpl {
	return []validImpl{{"generic", validGeneric}, {"Valid", Valid}}
}

// scanImpl is one implementation of CopyJSON's scan, with its copy
// checked (see copyChecked).
type scanImpl struct {
	name string
	scan func([]byte) (bool, int)
}

// scanImpls lists the implementations of CopyJSON as validImpls does
// those of Valid.
func scanImpls() []scanImpl {
	return []scanImpl{
		{"generic", copyChecked(func(to, b []byte) (bool, int) { return copyJSONGeneric(b, unsafe.SliceData(to)) })},
		{"CopyJSON", copyChecked(CopyJSON)},
	}
}

// copyChecked runs scan into a destination with guard bytes on both sides
// and panics when it writes outside to[:len(b)], or when b is valid but
// to[:esc] is not b[:esc]. It returns the scan's results. The function it
// returns keeps its buffer from call to call: one goroutine may call it.
func copyChecked(scan func(to, b []byte) (bool, int)) func([]byte) (bool, int) {
	guard := bytes.Repeat([]byte{0xa5}, 40)
	var buf []byte
	return func(b []byte) (bool, int) {
		n, g := len(b), len(guard)
		if cap(buf) < g+n+g {
			buf = make([]byte, g+n+g)
		}
		buf = buf[:g+n+g]
		before, to, after := buf[:g], buf[g:g+n], buf[g+n:]
		copy(before, guard)
		copy(after, guard)
		ok, esc := scan(to, b)
		if !bytes.Equal(before, guard) || !bytes.Equal(after, guard) {
			panic(fmt.Sprintf("copy of %q wrote outside its destination", b))
		}
		if ok && !bytes.Equal(to[:esc], b[:esc]) {
			panic(fmt.Sprintf("copy of %q: %q up to the escape at %d", b, to[:esc], esc))
		}
		return ok, esc
	}
}

// endImpl is one implementation of StringEnd.
type endImpl struct {
	name string
	end  func([]byte) (int, bool)
}

// endImpls lists the implementations of StringEnd as validImpls does
// those of Valid.
func endImpls() []endImpl {
	return []endImpl{{"generic", stringEndGeneric}, {"StringEnd", StringEnd}}
}

// checkEnd holds every implementation of StringEnd to naiveEscape on b,
// and to whether a byte before that index is from 0x80 on.
func checkEnd(t testing.TB, impls []endImpl, b []byte) {
	n := naiveEscape(b)
	high := bytes.IndexFunc(b[:n], func(r rune) bool { return r >= utf8.RuneSelf }) >= 0
	for _, im := range impls {
		if gotN, gotHigh := im.end(b); gotN != n || gotHigh != high {
			t.Helper()
			t.Fatalf("%s(%q) (%d bytes) = %d, %v; want %d, %v", im.name, b, len(b), gotN, gotHigh, n, high)
		}
	}
}

// checkValid holds every implementation to want on b.
func checkValid(t testing.TB, impls []validImpl, b []byte, want bool) {
	for _, im := range impls {
		if got := im.valid(b); got != want {
			t.Helper()
			t.Fatalf("%s(%q) (%d bytes) = %v, utf8.Valid says %v", im.name, b, len(b), got, want)
		}
	}
}

// isEscape reports whether a JSON string must escape c.
func isEscape(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }

// naiveEscape is the index of the first byte of b to escape, or len(b).
func naiveEscape(b []byte) int {
	for i, c := range b {
		if isEscape(c) {
			return i
		}
	}
	return len(b)
}

// checkScan holds every implementation of CopyJSON to utf8.Valid and
// naiveEscape on b; the index counts only when b is valid.
func checkScan(t testing.TB, impls []scanImpl, b []byte) {
	checkScanWant(t, impls, b, utf8.Valid(b), naiveEscape(b))
}

func checkScanWant(t testing.TB, impls []scanImpl, b []byte, ok bool, esc int) {
	for _, im := range impls {
		if gotOK, gotEsc := im.scan(b); gotOK != ok || ok && gotEsc != esc {
			t.Helper()
			t.Fatalf("%s(%q) (%d bytes) = %v, %d; want %v, %d", im.name, b, len(b), gotOK, gotEsc, ok, esc)
		}
	}
}

// TestCopyJSONShortDestination holds CopyJSON to panicking, having written
// nothing, when the destination's capacity cannot hold the source.
func TestCopyJSONShortDestination(t *testing.T) {
	to := make([]byte, 4, 8)
	defer func() {
		if recover() == nil {
			t.Fatal("CopyJSON into a capacity of 8 took 9 bytes")
		}
		if string(to[:8]) != "\x00\x00\x00\x00\x00\x00\x00\x00" {
			t.Fatalf("CopyJSON wrote %q before it panicked", to[:8])
		}
	}()
	CopyJSON(to, []byte("123456789"))
}

func TestImpls(t *testing.T) {
	for _, im := range validImpls() {
		t.Log("Valid:", im.name)
	}
	for _, im := range scanImpls() {
		t.Log("CopyJSON:", im.name)
	}
	for _, im := range endImpls() {
		t.Log("StringEnd:", im.name)
	}
}

// TestRuneLen compares RuneLen with utf8.DecodeRune on every lead byte
// with every second byte, and on random longer sequences.
func TestRuneLen(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		r, size := utf8.DecodeRune(b)
		want := size
		if r == utf8.RuneError && size <= 1 {
			want = 0
		}
		if got := RuneLen(b); got != want {
			t.Fatalf("RuneLen(% x) = %d, utf8.DecodeRune says %d", b, got, want)
		}
	}
	for c0 := 0x80; c0 < 0x100; c0++ {
		check([]byte{byte(c0)})
		for c1 := range 0x100 {
			check([]byte{byte(c0), byte(c1)})
			check([]byte{byte(c0), byte(c1), 0x80, 0x80})
			check([]byte{byte(c0), byte(c1), 0xbf, 0x7f})
			check([]byte{byte(c0), byte(c1), 0x80})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := []byte{byte(0x80 + r.IntN(0x80)), byte(r.IntN(0x100)), byte(r.IntN(0x100)), byte(r.IntN(0x100))}
		check(b[:1+r.IntN(4)])
	}
}

// asciiPad is ASCII filler with bytes from both ends of the range, control
// characters, quotes and backslashes included.
func asciiPad(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*37+11) & 0x7f
	}
	return b
}

// plainPad is ASCII filler that needs no escape: 0x20..0x7F but '"' and
// '\\'.
func plainPad(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		c := byte(0x20 + (i*37+11)%96)
		if c == '"' || c == '\\' {
			c++
		}
		b[i] = c
	}
	return b
}

// placements lists where the sequence tests put a sequence: at every
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
// first and second bytes: ASCII (a control character among them), both
// ends of the continuation range and its halves, lead bytes.
var sequenceTail = []byte{0x00, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xe1, 0xf0}

// eachSequence calls check with every one- and two-byte sequence at every
// placement in pad, and with every three- and four-byte sequence whose
// first two bytes take all 256 values and whose others come from
// sequenceTail, each at a share of the placements that rotates with the
// sequence, so that every placement sees thousands of them. check gets the
// whole input, the offset of the sequence and the sequence.
func eachSequence(t *testing.T, pad []byte, check func(buf []byte, at int, seq []byte)) {
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
				check(buf, p.at, seq[:k.size])
			}
		}
	}
}

// TestValidSequences compares the implementations of Valid with
// utf8.Valid on the sequences of eachSequence. The padding is ASCII: the
// whole input is valid exactly when the sequence is.
func TestValidSequences(t *testing.T) {
	impls := validImpls()
	eachSequence(t, asciiPad(128), func(buf []byte, _ int, seq []byte) {
		checkValid(t, impls, buf, utf8.Valid(seq))
	})
}

// TestCopyJSONSequences does the same for CopyJSON, in padding that needs
// no escape: the first escape, if any, is in the sequence, and every byte
// value is tried at every offset of the placements.
func TestCopyJSONSequences(t *testing.T) {
	impls := scanImpls()
	eachSequence(t, plainPad(128), func(buf []byte, at int, seq []byte) {
		esc := len(buf)
		if k := naiveEscape(seq); k < len(seq) {
			esc = at + k
		}
		checkScanWant(t, impls, buf, utf8.Valid(seq), esc)
	})
}

// TestTruncated ends inputs of every length up to 100 inside a sequence,
// and right after it, in both kinds of padding.
func TestTruncated(t *testing.T) {
	vimpls, simpls := validImpls(), scanImpls()
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
	for _, pad := range [][]byte{asciiPad(128), plainPad(128)} {
		for _, seq := range seqs {
			for n := len(seq); n <= 100; n++ {
				b := append(append([]byte(nil), pad[:n-len(seq)]...), seq...)
				checkValid(t, vimpls, b, utf8.Valid(b))
				checkScan(t, simpls, b)
				// The same after a valid multi-byte rune, which the
				// vector code sees in the block before.
				if n >= len(seq)+3 {
					copy(b[n-len(seq)-3:], "東")
					checkValid(t, vimpls, b, utf8.Valid(b))
					checkScan(t, simpls, b)
				}
			}
		}
	}
}

// scripts are runs of text from several writing systems, with code points
// of every encoded length; none needs an escape in JSON.
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

// escapeBytes are the bytes a JSON string escapes.
var escapeBytes = func() (b []byte) {
	for c := range 0x20 {
		b = append(b, byte(c))
	}
	return append(b, '"', '\\')
}()

// randomText returns size bytes of runs of whole runes from the scripts
// and of plain ASCII; with noise, random bytes among them, and with
// escapes, bytes to escape.
func randomText(rng *rand.Rand, size int, noise, escapes bool) []byte {
	var b []byte
	for len(b) < size {
		switch k := rng.IntN(20); {
		case k < 11:
			rs := []rune(scripts[rng.IntN(len(scripts))])
			i := rng.IntN(len(rs))
			b = append(b, string(rs[i:min(len(rs), i+1+rng.IntN(20))])...)
		case k == 18 && escapes:
			b = append(b, escapeBytes[rng.IntN(len(escapeBytes))])
		case k == 19 && noise:
			b = append(b, byte(rng.Uint32()))
		default:
			b = append(b, plainPad(rng.IntN(40))...)
		}
	}
	return b[:size]
}

// TestRandom checks random texts of 0 to 300 bytes, in half of them with
// random bytes among the runes and in half with bytes to escape; each also
// with a few bytes changed, and random bytes of the same length.
func TestRandom(t *testing.T) {
	vimpls, simpls, eimpls := validImpls(), scanImpls(), endImpls()
	check := func(b []byte) {
		checkValid(t, vimpls, b, utf8.Valid(b))
		checkScan(t, simpls, b)
		checkEnd(t, eimpls, b)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for range n {
		size := rng.IntN(301)
		b := randomText(rng, size, rng.IntN(2) == 0, rng.IntN(2) == 0)
		check(b)
		if size > 0 {
			for range 1 + rng.IntN(3) {
				b[rng.IntN(size)] = byte(rng.Uint32())
			}
			check(b)
		}
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		check(b)
	}
}

// TestBounds surrounds the input with bytes that would change the answer
// if they were read as part of it: four-byte lead bytes or quotes before
// it, continuation bytes, zeros or backslashes after it. The text has no
// escapes, or newlines every few words.
func TestBounds(t *testing.T) {
	vimpls, simpls, eimpls := validImpls(), scanImpls(), endImpls()
	texts := [][]byte{[]byte(strings.Join(scripts, " ")), []byte(strings.Join(scripts, "\n"))}
	poisons := []struct{ before, after byte }{{0xf0, 0x80}, {'"', 0x00}, {0xf0, '\\'}, {'\n', 0x80}}
	for _, text := range texts {
		for _, p := range poisons {
			for n := range 130 {
				for before := range 4 {
					for start := 0; start < len(text)-n; start += 7 {
						b := text[start : start+n]
						buf := append(append(bytes.Repeat([]byte{p.before}, before), b...), bytes.Repeat([]byte{p.after}, 40)...)
						checkValid(t, vimpls, buf[before:before+n], utf8.Valid(b))
						checkScanWant(t, simpls, buf[before:before+n], utf8.Valid(b), naiveEscape(b))
						checkEnd(t, eimpls, buf[before:before+n])
					}
				}
			}
		}
	}
}

// filler returns k bytes of text that needs no escape: plain ASCII, or
// runes of two to four bytes (padded with ASCII where the next rune does
// not fit), starting at a point that turns with seed.
func filler(k, seed int, ascii bool) []byte {
	if ascii {
		return plainPad(k + seed%7)[seed%7:]
	}
	runes := []rune("é東😀ü日ﬀ𝄞ßñ¢ܜ\u0080\u07ff\u0800\uffff")
	var b []byte
	for i := seed; len(b) < k; i++ {
		r := runes[i%len(runes)]
		if utf8.RuneLen(r) > k-len(b) {
			r = 'a' + rune(i%26)
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// lookalikes are bytes that need no escape but resemble those that do:
// neighbours of '"', '\\' and the control characters, and those plus
// 0x80. The ones from 0x80 on come inside a rune, at offset at of enc.
var lookalikes = []struct {
	c   byte
	enc string
	at  int
}{
	{0x20, " ", 0}, {0x21, "!", 0}, {0x5b, "[", 0}, {0x5d, "]", 0}, {0x7f, "\x7f", 0},
	{0x80, "\u0080", 1}, {0xa2, "¢", 1}, {0xdc, "\u071c", 0}, {0x9f, "ß", 1}, {0x9c, "\u071c", 1},
}

// textWith returns n bytes of filler with the given bytes at the given
// offsets, which must increase and lie below n; the bytes of the filler
// between them are whole runes.
func textWith(n, seed int, ascii bool, at []int, c []byte) []byte {
	var b []byte
	for i := range at {
		b = append(append(b, filler(at[i]-len(b), seed+i, ascii)...), c[i])
	}
	return append(b, filler(n-len(b), seed+len(at), ascii)...)
}

// TestCopyJSONEscapes puts each byte to escape, and each look-alike, at
// every offset 0..70 of texts of every length up to 100, ASCII and not;
// then a further escape or two after it (one in the last byte, which the
// vector code reaches with its last, overlapping block). Look-alikes from
// 0x80 on go in both inside a rune and alone, where the text is not valid.
func TestCopyJSONEscapes(t *testing.T) {
	impls, eimpls := scanImpls(), endImpls()
	want := func(b []byte, ok bool, esc int) {
		t.Helper()
		checkScanWant(t, impls, b, ok, esc)
		checkEnd(t, eimpls, b)
	}
	for _, ascii := range []bool{true, false} {
		for n := range 101 {
			for at := 0; at < min(n, 71); at++ {
				seed := n*71 + at
				for k, c := range escapeBytes {
					want(textWith(n, seed, ascii, []int{at}, []byte{c}), true, at)
					pos, cs := []int{at}, []byte{c}
					if j := at + 1 + (seed+k)%9; j < n-1 {
						pos, cs = append(pos, j), append(cs, escapeBytes[(seed+k)%len(escapeBytes)])
					}
					if at < n-1 {
						pos, cs = append(pos, n-1), append(cs, '"')
					}
					want(textWith(n, seed, ascii, pos, cs), true, at)
				}
				for _, l := range lookalikes {
					if at >= l.at && at-l.at+len(l.enc) <= n {
						b := slices3(filler(at-l.at, seed, ascii), []byte(l.enc), filler(n-at+l.at-len(l.enc), seed+1, ascii))
						want(b, true, n)
						if at-l.at+len(l.enc) < n {
							b = slices3(b[:at-l.at+len(l.enc)], filler(n-at+l.at-len(l.enc)-1, seed+1, ascii), []byte{'\\'})
							want(b, true, n-1)
						}
					}
					b := textWith(n, seed, ascii, []int{at}, []byte{l.c})
					checkScan(t, impls, b)
					checkEnd(t, eimpls, b)
				}
			}
		}
	}
}

func slices3(a, b, c []byte) []byte { return append(append(append([]byte(nil), a...), b...), c...) }

// fuzzSeeds are the seed corpus of both fuzz targets.
func fuzzSeeds(f *testing.F) {
	for _, s := range []string{
		"", "ascii only, long enough", "grüße aus Zürich", "東京", "\xff", "abcdefgh\xc0\x80",
		"abcdefghé\xed\xa0\x80", "abcdefgh\xf4\x90\x80\x80", "abcdefg\xe0\x9f\xbf",
		"say \"hi\"", "C:\\dir", "line\nbreak", "tab\there, nul\x00", "ß¢\u071c, not escapes",
		"a long line of text, more than thirty-two bytes, ending in a quote\"",
	} {
		f.Add([]byte(s))
	}
	for _, s := range scripts {
		f.Add([]byte(s))
		f.Add([]byte(s + s + s))
		f.Add([]byte(s + "\n" + s))
	}
}

func FuzzValidUTF8(f *testing.F) {
	fuzzSeeds(f)
	impls := validImpls()
	f.Fuzz(func(t *testing.T, b []byte) { checkValid(t, impls, b, utf8.Valid(b)) })
}

func FuzzStringEnd(f *testing.F) {
	fuzzSeeds(f)
	impls := endImpls()
	f.Fuzz(func(t *testing.T, b []byte) { checkEnd(t, impls, b) })
}

func FuzzCopyJSON(f *testing.F) {
	fuzzSeeds(f)
	impls := scanImpls()
	f.Fuzz(func(t *testing.T, b []byte) { checkScan(t, impls, b) })
}

// mediumStrings returns the strings of the Medium fixture, the text that
// dynamic.Validate checks and transcode writes on it.
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

// benchStrings returns the Medium fixture's strings and their total size.
func benchStrings(b *testing.B) ([][]byte, int64) {
	strs := mediumStrings(b)
	var size int64
	for _, s := range strs {
		size += int64(len(s))
	}
	return strs, size
}

// BenchmarkValid checks all the strings of the Medium fixture per
// operation.
func BenchmarkValid(b *testing.B) {
	strs, size := benchStrings(b)
	impls := append(validImpls(), validImpl{"utf8.Valid", utf8.Valid})
	for _, im := range impls {
		b.Run(im.name, func(b *testing.B) {
			b.SetBytes(size)
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

// BenchmarkCopyJSON copies all the strings of the Medium fixture per
// operation; Valid+NextEscape+copy is the three passes CopyJSON replaces,
// and Valid the check alone.
func BenchmarkCopyJSON(b *testing.B) {
	strs, size := benchStrings(b)
	to := make([]byte, 64<<10)
	for _, im := range []scanImpl{
		{"CopyJSON", func(s []byte) (bool, int) { return CopyJSON(to, s) }},
		{"Valid+NextEscape+copy", func(s []byte) (bool, int) {
			if !Valid(s) {
				return false, 0
			}
			esc := NextEscape(s, 0)
			copy(to, s[:esc])
			return true, esc
		}},
		{"Valid", func(s []byte) (bool, int) { return Valid(s), len(s) }},
	} {
		b.Run(im.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, s := range strs {
					if ok, esc := im.scan(s); !ok || esc != len(s) {
						b.Fatalf("%q: %v, %d", s, ok, esc)
					}
				}
			}
		})
	}
}
