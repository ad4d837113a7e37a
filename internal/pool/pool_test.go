package pool

import "testing"

type buf struct{ b []byte }

func (b *buf) Reset() { b.b = b.b[:0] }

func TestPutResets(t *testing.T) {
	var p Of[buf, *buf]
	b := p.Get()
	if b == nil {
		t.Fatal("Get on an empty pool returned nil")
	}
	b.b = append(b.b, "abc"...)
	p.Put(b)
	if len(b.b) != 0 {
		t.Fatalf("Put left %q in the value", b.b)
	}
	if c := p.Get(); c == nil || len(c.b) != 0 {
		t.Fatalf("Get after Put = %+v", c)
	}
}
