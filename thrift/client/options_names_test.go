package client

import "testing"

// TransportNamed reads what String writes, and "" as the default.
func TestTransportNamed(t *testing.T) {
	for _, tr := range []Transport{Framed, Buffered, Header} {
		if got, ok := TransportNamed(tr.String()); !ok || got != tr {
			t.Errorf("TransportNamed(%q) = %v, %v", tr.String(), got, ok)
		}
	}
	if got, ok := TransportNamed(""); !ok || got != Framed {
		t.Errorf(`TransportNamed("") = %v, %v; want framed`, got, ok)
	}
	if _, ok := TransportNamed("http"); ok {
		t.Error(`TransportNamed("http") is a transport`)
	}
}
