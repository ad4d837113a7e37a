package dynamic

import (
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
