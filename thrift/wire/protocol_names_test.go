package wire

import "testing"

// ProtocolNamed reads what String writes, and "" as the default.
func TestProtocolNamed(t *testing.T) {
	for _, p := range []Protocol{Binary, Compact} {
		if got, ok := ProtocolNamed(p.String()); !ok || got != p {
			t.Errorf("ProtocolNamed(%q) = %v, %v", p.String(), got, ok)
		}
	}
	if got, ok := ProtocolNamed(""); !ok || got != Binary {
		t.Errorf(`ProtocolNamed("") = %v, %v; want binary`, got, ok)
	}
	if _, ok := ProtocolNamed("json"); ok {
		t.Error(`ProtocolNamed("json") is a protocol`)
	}
}
