package transcode

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
)

// TestStringAfterOutput writes strings of every length up to a few words,
// with escapes and multi-byte runes at every position, after output of
// its own and into buffers with and without room: the output before is
// kept and the string comes out as protojson writes it.
func TestStringAfterOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "b", "\"", "\\", "\x00", "\n", "\x1f", "é", "東", "😀", "\xff", "\xe0\x80", " ", "#", "]", "!"}
	for range 50000 {
		var s []byte
		for range r.IntN(40) {
			if r.IntN(4) == 0 {
				s = append(s, pieces[r.IntN(len(pieces))]...)
			} else {
				s = append(s, byte('a'+r.IntN(26)))
			}
		}
		prefix := strings.Repeat("x", r.IntN(5))
		e := &encoder{out: append(make([]byte, 0, len(prefix)+r.IntN(3*len(s)+4)), prefix...)}
		ok := e.str(s)
		want, err := protojsonString(string(s))
		if ok != (err == nil) {
			t.Fatalf("%q: ok %v, protojson error %v", s, ok, err)
		}
		if !ok {
			want = ""
		}
		if got := e.out; !bytes.Equal(got, []byte(prefix+want)) {
			t.Fatalf("%q: got %q, want %q", s, got, prefix+want)
		}
	}
}

// TestBytesBase64 prints bytes values of every length up to a few words
// after output of their own: standard base64 with padding, in quotes.
func TestBytesBase64(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := range 200 {
		for range 20 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			prefix := strings.Repeat("x", r.IntN(5))
			e := &encoder{out: append(make([]byte, 0, len(prefix)+r.IntN(2*n+4)), prefix...)}
			e.bytes(b)
			if want := prefix + `"` + base64.StdEncoding.EncodeToString(b) + `"`; string(e.out) != want {
				t.Fatalf("% x: got %s, want %s", b, e.out, want)
			}
		}
	}
}

// TestKeyPrefix holds keyPrefix, which loads eight bytes at once where the
// buffer has them, to the first eight bytes of each key, zero-padded, for
// keys of every length at every place in a buffer, near its end too.
func TestKeyPrefix(t *testing.T) {
	buf := []byte("abcdefghijklmnopqrst\xff\xfe")
	for s := range len(buf) + 1 {
		for end := s; end <= len(buf); end++ {
			var want uint64
			for i := 0; i < 8 && s+i < end; i++ {
				want |= uint64(buf[s+i]) << (56 - 8*i)
			}
			if got := keyPrefix(buf, s, end); got != want {
				t.Fatalf("keyPrefix(%q) = %#x, want %#x", buf[s:end], got, want)
			}
		}
	}
}

// TestMapKeysSharingPrefix holds the order of map keys that all share
// their first eight bytes or more, which sortEntries compares by the bytes
// after those, to protojson's: keys equal to the shared part, keys that
// extend one another, bytes past 0x7F and zero bytes, a key given twice.
func TestMapKeysSharingPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	tails := []string{"", "a", "aa", "ab", "b", "\x00", "\x00a", "é", "abcdefghij", "abcdefghi", "abcdefghijklmnopq", "z"}
	md := (&fixturev1.Medium{}).ProtoReflect().Descriptor()
	for _, prefix := range []string{"counter_", "counter_counter_", "0123456789abcdef-"} {
		for range 60 {
			m := &fixturev1.Medium{Attributes: map[string]string{}, Counters: map[string]int64{}}
			for _, i := range r.Perm(len(tails))[:1+r.IntN(len(tails))] {
				m.Attributes[prefix+tails[i]] = tails[i]
				m.Counters[prefix+tails[i]] = int64(i)
			}
			wire, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			// a key again, with another value: the last entry wins
			for k := range m.Attributes {
				entry := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), k)
				entry = protowire.AppendString(protowire.AppendTag(entry, 2, protowire.BytesType), "again")
				fd := md.Fields().ByName("attributes")
				wire = protowire.AppendBytes(protowire.AppendTag(wire, fd.Number(), protowire.BytesType), entry)
				break
			}
			for _, o := range optionSets() {
				checkAgainstOracle(t, prefix+" "+optString(o), md, wire, o)
			}
		}
	}
}

func TestStringEscapesMatchProtojson(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "\"", "\\", "\x00", "\x1f", "\x7f", "é", "東", "😀", "\xff", "\xc3", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x90\x80\x80", "abcdefghij", "\u2028", "\ufffd"}
	for range 100000 {
		var s []byte
		for range r.IntN(12) {
			s = append(s, pieces[r.IntN(len(pieces))]...)
		}
		e := &encoder{}
		ok := e.str(s)
		want, err := protojsonString(string(s))
		if ok != (err == nil) || (ok && string(e.out) != want) {
			t.Fatalf("%q: got %s %v, want %s %v", s, e.out, ok, want, err)
		}
	}
}
