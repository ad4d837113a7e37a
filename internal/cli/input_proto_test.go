package cli

import (
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestProtoScanPieces: valid wire bytes pass in pieces of any size, and a
// bad field is reported at its offset however the input is cut.
func TestProtoScanPieces(t *testing.T) {
	var good []byte
	good = protowire.AppendTag(good, 1, protowire.VarintType)
	good = protowire.AppendVarint(good, 1<<62)
	good = protowire.AppendTag(good, 2, protowire.BytesType)
	good = protowire.AppendBytes(good, []byte(strings.Repeat("x", 300)))
	good = protowire.AppendTag(good, 3, protowire.Fixed32Type)
	good = protowire.AppendFixed32(good, 7)
	good = protowire.AppendTag(good, 4, protowire.StartGroupType)
	good = protowire.AppendTag(good, 5, protowire.Fixed64Type)
	good = protowire.AppendFixed64(good, 9)
	good = protowire.AppendTag(good, 4, protowire.EndGroupType)
	good = protowire.AppendTag(good, 1<<20, protowire.BytesType)
	good = protowire.AppendBytes(good, nil)
	bad := func(tail ...byte) []byte { return append(append([]byte(nil), good...), tail...) }
	at := len(good)
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"valid", good, ""},
		{"field 0", bad(0), "byte " + itoa(at) + ": field number 0"},
		{"wire type 7", bad(0x0f), "byte " + itoa(at) + ": field 1 has wire type 7, which does not exist"},
		{"long varint", bad(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "byte " + itoa(at) + ": field 1 has a varint longer than 10 bytes"},
		{"too long", bad(0x12, 0x81, 0x08), "byte " + itoa(at) + ": field 2 is 1025 bytes long, past the 1 KiB limit (--max-msg-size)"},
	} {
		for _, size := range []int{1, 2, 3, 7, 19, 20, 64, len(tc.in)} {
			s := protoScan{limit: 1 << 10}
			var err error
			for in := tc.in; len(in) > 0 && err == nil; in = in[min(size, len(in)):] {
				err = s.feed(in[:min(size, len(in))])
			}
			if got := errString(err); got != tc.want {
				t.Errorf("%s in pieces of %d: error %q, want %q", tc.name, size, got, tc.want)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
