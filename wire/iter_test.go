package wire_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// rec builds wire bytes from tags and raw values.
func rec(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func tag(n protowire.Number, t protowire.Type) []byte { return protowire.AppendTag(nil, n, t) }
func vint(v uint64) []byte                            { return protowire.AppendVarint(nil, v) }
func lenb(p []byte) []byte                            { return append(vint(uint64(len(p))), p...) }

var wellFormed = []struct {
	name string
	b    []byte
}{
	{"empty", nil},
	{"varint", rec(tag(1, protowire.VarintType), vint(150))},
	{"big varint", rec(tag(2, protowire.VarintType), vint(1<<63))},
	{"fixed32", rec(tag(3, protowire.Fixed32Type), []byte{1, 2, 3, 4})},
	{"fixed64", rec(tag(4, protowire.Fixed64Type), []byte{1, 2, 3, 4, 5, 6, 7, 8})},
	{"bytes", rec(tag(5, protowire.BytesType), lenb([]byte("hello")))},
	{"long bytes", rec(tag(5, protowire.BytesType), lenb(bytes.Repeat([]byte("x"), 300)))},
	{"big number", rec(tag(protowire.MaxValidNumber, protowire.VarintType), vint(1))},
	{"group", rec(tag(6, protowire.StartGroupType), tag(1, protowire.VarintType), vint(1), tag(6, protowire.EndGroupType))},
	{"nested group", rec(tag(6, protowire.StartGroupType), tag(7, protowire.StartGroupType), tag(7, protowire.EndGroupType), tag(6, protowire.EndGroupType))},
	{"several", rec(tag(1, protowire.VarintType), vint(1), tag(2, protowire.BytesType), lenb(nil), tag(1, protowire.Fixed32Type), []byte{0, 0, 0, 0})},
}

var malformed = []struct {
	name string
	b    []byte
	code wire.Code
}{
	{"truncated tag", []byte{0x80}, wire.CodeTruncatedVarint},
	{"truncated varint", rec(tag(1, protowire.VarintType), []byte{0xff}), wire.CodeTruncatedVarint},
	{"overlong varint", rec(tag(1, protowire.VarintType), bytes.Repeat([]byte{0xff}, 10), []byte{1}), wire.CodeOverflowVarint},
	{"varint bit 64", rec(tag(1, protowire.VarintType), bytes.Repeat([]byte{0xff}, 9), []byte{2}), wire.CodeOverflowVarint},
	{"truncated fixed32", rec(tag(1, protowire.Fixed32Type), []byte{1, 2}), wire.CodeTruncated},
	{"truncated fixed64", rec(tag(1, protowire.Fixed64Type), []byte{1, 2, 3}), wire.CodeTruncated},
	{"length past end", rec(tag(1, protowire.BytesType), vint(5), []byte("abc")), wire.CodeTruncated},
	{"huge length", rec(tag(1, protowire.BytesType), vint(1<<62)), wire.CodeTruncated},
	{"wire type 6", []byte{0x0e, 0}, wire.CodeWireType},
	{"wire type 7", []byte{0x0f, 0}, wire.CodeWireType},
	{"field zero", []byte{0x00, 0}, wire.CodeFieldNumber},
	{"field too big", rec(vint(uint64(protowire.MaxValidNumber+1)<<3), vint(0)), wire.CodeFieldNumber},
	{"open group", rec(tag(6, protowire.StartGroupType), tag(1, protowire.VarintType), vint(1)), wire.CodeGroup},
	{"wrong end group", rec(tag(6, protowire.StartGroupType), tag(7, protowire.EndGroupType)), wire.CodeGroup},
	{"stray end group", tag(6, protowire.EndGroupType), wire.CodeEndGroup},
	{"deep groups", bytes.Repeat(tag(1, protowire.StartGroupType), wire.DefaultMaxDepth+2), wire.CodeDepth},
}

func TestIterWellFormed(t *testing.T) {
	for _, tc := range wellFormed {
		t.Run(tc.name, func(t *testing.T) {
			it := wire.NewIter(tc.b)
			off := 0
			for it.Next() {
				f := it.Field()
				checkAgainstProtowire(t, tc.b, off, f)
				off = f.End
			}
			if err := it.Err(); err != nil {
				t.Fatalf("Err = %v", err)
			}
			if off != len(tc.b) {
				t.Fatalf("stopped at %d of %d", off, len(tc.b))
			}
		})
	}
}

// checkAgainstProtowire holds f against protowire's reading of b[off:].
func checkAgainstProtowire(t *testing.T, b []byte, off int, f wire.Field) {
	t.Helper()
	num, typ, tagLen := protowire.ConsumeTag(b[off:])
	n := protowire.ConsumeFieldValue(num, typ, b[off+tagLen:])
	if tagLen < 0 || n < 0 {
		t.Fatalf("protowire rejects record at %d", off)
	}
	if f.Num != num || f.Type != typ || f.Start != off || f.TagEnd != off+tagLen || f.End != off+tagLen+n {
		t.Fatalf("field %+v, protowire num %d type %d tag %d value %d", f, num, typ, tagLen, n)
	}
	if typ == protowire.BytesType {
		v, _ := protowire.ConsumeBytes(b[off+tagLen:])
		if !bytes.Equal(f.Payload(b), v) {
			t.Fatalf("payload %q, protowire %q", f.Payload(b), v)
		}
	}
}

func TestIterMalformed(t *testing.T) {
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			it := wire.NewIter(tc.b)
			for it.Next() {
			}
			var werr *wire.Error
			if !errors.As(it.Err(), &werr) {
				t.Fatalf("Err = %v, want *wire.Error", it.Err())
			}
			if werr.Code != tc.code || werr.Offset < 0 || werr.Offset > len(tc.b) {
				t.Fatalf("Err = %v (code %d), want code %d", werr, werr.Code, tc.code)
			}
			if !errors.Is(it.Err(), &wire.Error{Code: tc.code}) {
				t.Fatalf("errors.Is fails for %v", it.Err())
			}
			if _, n := consumeAll(tc.b); n >= 0 {
				t.Fatalf("protowire accepts %x", tc.b)
			}
		})
	}
}

// consumeAll runs protowire over every record; n < 0 on error.
func consumeAll(b []byte) (int, int) {
	count := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeField(b)
		if n < 0 || num > protowire.MaxValidNumber || typ == protowire.EndGroupType {
			return count, -1
		}
		if typ == protowire.StartGroupType && !groupNumbersValid(b[:n]) {
			return count, -1
		}
		b = b[n:]
		count++
	}
	return count, 0
}

// groupNumbersValid reports whether every field number inside the group
// field b is at most MaxValidNumber: protowire's ConsumeField checks only
// the group's own tag and lets numbers up to MaxInt32 through inside it.
func groupNumbersValid(b []byte) bool {
	_, _, n := protowire.ConsumeTag(b)
	for b = b[n:]; len(b) > 0; {
		num, typ, tn := protowire.ConsumeTag(b)
		if tn < 0 || num > protowire.MaxValidNumber {
			return false
		}
		if typ == protowire.EndGroupType {
			return true
		}
		n := tn + protowire.ConsumeFieldValue(num, typ, b[tn:])
		if n < tn {
			return false
		}
		if typ == protowire.StartGroupType && !groupNumbersValid(b[:n]) {
			return false
		}
		b = b[n:]
	}
	return true
}

func TestNewIterAt(t *testing.T) {
	b := rec(tag(1, protowire.VarintType), vint(1), tag(2, protowire.VarintType), vint(2), tag(3, protowire.VarintType), vint(3))
	it := wire.NewIterAt(b, 2, 4)
	var nums []protowire.Number
	for it.Next() {
		nums = append(nums, it.Field().Num)
		if it.Field().Start != 2 {
			t.Fatalf("start %d, want absolute offset 2", it.Field().Start)
		}
	}
	if len(nums) != 1 || nums[0] != 2 {
		t.Fatalf("got fields %v, want [2]", nums)
	}
}

func TestIterAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var b []byte
	for _, tc := range wellFormed {
		b = append(b, tc.b...)
	}
	allocs := testing.AllocsPerRun(100, func() {
		it := wire.NewIter(b)
		for it.Next() {
		}
	})
	if allocs != 0 {
		t.Fatalf("iterating allocates %v times", allocs)
	}
}

func TestPacked(t *testing.T) {
	tests := []struct {
		name string
		typ  protowire.Type
		vals []uint64
	}{
		{"varint", protowire.VarintType, []uint64{0, 1, 127, 128, 1 << 40, 1<<64 - 1}},
		{"fixed32", protowire.Fixed32Type, []uint64{0, 1, 1<<32 - 1}},
		{"fixed64", protowire.Fixed64Type, []uint64{0, 1, 1<<64 - 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b []byte
			for _, v := range tc.vals {
				switch tc.typ {
				case protowire.VarintType:
					b = protowire.AppendVarint(b, v)
				case protowire.Fixed32Type:
					b = protowire.AppendFixed32(b, uint32(v))
				default:
					b = protowire.AppendFixed64(b, v)
				}
			}
			n, err := wire.CountPacked(b, 0, len(b), tc.typ)
			if err != nil || n != len(tc.vals) {
				t.Fatalf("CountPacked = %d, %v; want %d", n, err, len(tc.vals))
			}
			for i, off := 0, 0; off < len(b); i++ {
				v, next, err := wire.NextPacked(b, off, len(b), tc.typ)
				if err != nil || v != tc.vals[i] {
					t.Fatalf("element %d = %d, %v; want %d", i, v, err, tc.vals[i])
				}
				off = next
			}
			if _, err := wire.CountPacked(b, 0, len(b)-1, tc.typ); err == nil {
				t.Fatalf("CountPacked accepts a truncated run")
			}
		})
	}
}

// TestPackedVarintsOK holds PackedVarintsOK to CountPacked on runs of
// every mix: short and long varints, runs of continuation bytes of every
// length around nine and ten, at every offset from a word's start, and
// random bytes of several densities of high bits.
func TestPackedVarintsOK(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	check := func(b []byte) {
		_, err := wire.CountPacked(b, 0, len(b), protowire.VarintType)
		if got := wire.PackedVarintsOK(b); got != (err == nil) {
			t.Fatalf("PackedVarintsOK(%x) = %v; CountPacked: %v", b, got, err)
		}
	}
	check(nil)
	for lead := range 17 {
		for cont := range 13 {
			for _, last := range []byte{0, 1, 2, 0x7f, 0x80} {
				for _, tail := range [][]byte{nil, {1}, {0x80}, bytes.Repeat([]byte{5}, 9)} {
					b := bytes.Repeat([]byte{3}, lead)
					b = append(b, bytes.Repeat([]byte{0xff}, cont)...)
					b = append(append(b, last), tail...)
					check(b)
				}
			}
		}
	}
	for range 200000 {
		b := make([]byte, r.IntN(40))
		high := r.IntN(10) // in tenths
		for i := range b {
			b[i] = byte(r.IntN(0x80))
			if r.IntN(10) < high {
				b[i] |= 0x80
			}
		}
		check(b)
	}
}
