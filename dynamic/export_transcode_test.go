package dynamic

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
)

func TestLookupBytes(t *testing.T) {
	typ := TypeOf((&fixturev1.Rich{}).ProtoReflect().Descriptor())
	if f := typ.FieldByNameBytes([]byte("o_double")); f == nil || f.Num != 22 {
		t.Fatalf("FieldByNameBytes(o_double) = %v", f)
	}
	if f := typ.FieldByJSONNameBytes([]byte("customDouble")); f == nil || f.Num != 22 {
		t.Fatalf("FieldByJSONNameBytes(customDouble) = %v", f)
	}
	if f := typ.FieldByJSONNameBytes([]byte("o_double")); f != nil {
		t.Fatalf("FieldByJSONNameBytes(o_double) = %v, want nil", f.Name)
	}
	e := typ.FieldByNumber(16).Enum
	if n, ok := e.NumberBytes([]byte("KIND_NEGATIVE")); !ok || n != -1 {
		t.Fatalf("NumberBytes(KIND_NEGATIVE) = %v, %v", n, ok)
	}
	key := []byte("f_int64")
	if a := testing.AllocsPerRun(100, func() { typ.FieldByNameBytes(key) }); a != 0 {
		t.Errorf("FieldByNameBytes allocates %v times", a)
	}
}

func TestExtension(t *testing.T) {
	xd := fixturev1.E_ExtNums.TypeDescriptor()
	f := ExtensionOf(xd)
	if f.Num != 102 || !f.List || f.Oneof != -1 || f.Name != "ext_nums" {
		t.Fatalf("ExtensionOf(ext_nums) = %+v", f)
	}
	if ExtensionOf(xd) != f {
		t.Fatal("ExtensionOf does not cache")
	}
}

// TestJSONKeyMatch holds JSONKeyMatch to comparing the text after a key's
// opening quote with the name and a quote: names of every length from 0 to
// 20 against the name itself, its prefixes and extensions, one byte
// changed at every place, and what follows the key.
func TestJSONKeyMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
	for n := range 21 {
		var name strings.Builder
		for range n {
			name.WriteByte(letters[r.IntN(len(letters))])
		}
		f := &Field{JSONName: name.String()}
		f.jsonKey, f.jsonMask = keyWords(f.JSONName + `"`)
		texts := []string{f.JSONName + `"`, f.JSONName + `":1,"other":2}`, f.JSONName + `x":1`}
		if n > 0 {
			texts = append(texts, f.JSONName[:n-1]+`":1,"a":{}}`)
			for i := range n + 1 {
				b := []byte(f.JSONName + `": "value"}`)
				b[i] ^= byte(1 + r.IntN(255))
				texts = append(texts, string(b))
			}
		}
		for _, text := range texts {
			in := []byte(text + strings.Repeat(" ", 16))
			got := f.JSONKeyMatch(binary.LittleEndian.Uint64(in), binary.LittleEndian.Uint64(in[8:]))
			want := 0
			if strings.HasPrefix(text, f.JSONName+`"`) {
				want = n + 1
			}
			if n > 15 {
				want = -1
			}
			if got != want {
				t.Fatalf("JSONKeyMatch of name %q on %q = %d, want %d", f.JSONName, text, got, want)
			}
		}
	}
}
