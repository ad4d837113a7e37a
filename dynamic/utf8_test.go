package dynamic

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// edgeBytes are the bytes where UTF-8's rules change.
var edgeBytes = []byte{
	0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
	0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
}

func checkUTF8(t *testing.T, b []byte) {
	t.Helper()
	if got, want := validUTF8(b), utf8.Valid(b); got != want {
		t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", b, got, want)
	}
}

// TestValidUTF8Edges puts every sequence of up to four edge bytes at every
// offset of ASCII runs of several lengths, so that each lands before, across
// and after the eight-byte words and in the byte-by-byte tail.
func TestValidUTF8Edges(t *testing.T) {
	seqs := [][]byte{nil}
	for _, c := range edgeBytes {
		seqs = append(seqs, []byte{c})
	}
	for _, a := range edgeBytes[3:] {
		for _, c := range edgeBytes {
			seqs = append(seqs, []byte{a, c})
			for _, d := range edgeBytes[3:9] {
				seqs = append(seqs, []byte{a, c, d}, []byte{a, c, d, 0x80}, []byte{a, c, d, 0xbf, 'x'}, []byte{a, c, d, 0xc0})
			}
		}
	}
	buf := make([]byte, 0, 64)
	for _, s := range seqs {
		for _, size := range []int{0, 3, 7, 8, 9, 15, 16, 17, 24} {
			for at := 0; at <= size; at++ {
				buf = append(buf[:0], make([]byte, size)...)
				for i := range buf {
					buf[i] = 'a' + byte(i%26)
				}
				buf = append(buf[:at], append(append([]byte(nil), s...), buf[at:]...)...)
				checkUTF8(t, buf)
			}
		}
	}
}

// TestValidUTF8Random checks random text built from valid runes, edge bytes
// and ASCII, mostly valid and sometimes damaged.
func TestValidUTF8Random(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	runes := []rune{'a', 'é', 'ß', '—', '東', 'п', 0x10000, 0x10ffff, 0xffff, 0xd7ff, 0xe000, 0x7ff, 0x800}
	for range 20000 {
		var b []byte
		for range rng.IntN(40) {
			switch k := rng.IntN(10); {
			case k < 5:
				b = append(b, byte('a'+rng.IntN(26)))
			case k < 9:
				b = utf8.AppendRune(b, runes[rng.IntN(len(runes))])
			default:
				b = append(b, edgeBytes[rng.IntN(len(edgeBytes))])
			}
		}
		checkUTF8(t, b)
		if len(b) > 0 {
			b[rng.IntN(len(b))] ^= byte(1 << rng.IntN(8))
			checkUTF8(t, b)
		}
	}
}

// TestValidUTF8AllPairs checks every two-byte and every three-byte input whose
// first byte is not ASCII, alone and after eight ASCII bytes.
func TestValidUTF8AllPairs(t *testing.T) {
	for a := 0x80; a < 0x100; a++ {
		for c := range 0x100 {
			checkUTF8(t, []byte{byte(a), byte(c)})
			checkUTF8(t, []byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', byte(a), byte(c), 0x80, 0x80, 'z'})
			for _, d := range edgeBytes {
				checkUTF8(t, []byte{byte(a), byte(c), d})
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "ascii only, long enough", "grüße aus Zürich", "東京", "\xff", "abcdefgh\xc0\x80", "abcdefghé\xed\xa0\x80", "abcdefgh\xf4\x90\x80\x80", "abcdefg\xe0\x9f\xbf"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkUTF8(t, b) })
}
