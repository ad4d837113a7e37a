package transcode_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

func TestDecoder(t *testing.T) {
	typ := testType(t, "Outer")
	objs := []string{`{"inner":{"name":"a{b"}}`, `{"inner":{"name":"\"}\\"},"plain":2}`, `{"1":{"1":"c"}}`}
	in := " " + objs[0] + "\n" + objs[1] + objs[2] + "\n\n"
	d := transcode.NewDecoder(iotest.OneByteReader(strings.NewReader(in)), typ, transcode.UnmarshalOptions{Protocol: wire.Compact})
	for i, obj := range objs {
		got, err := d.Next(nil)
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		want, err := transcode.UnmarshalOptions{Protocol: wire.Compact}.Unmarshal(typ, []byte(obj))
		if err != nil || string(got) != string(want) {
			t.Fatalf("object %d: %x, want %x (%v)", i, got, want, err)
		}
	}
	if _, err := d.Next(nil); err != io.EOF {
		t.Fatalf("after the last object: %v, want io.EOF", err)
	}
}

func TestDecoderErrors(t *testing.T) {
	typ := testType(t, "Outer")
	d := transcode.NewDecoder(strings.NewReader(`{"inner":{"name":""}} {"inner":{}} {"inner":{"name":""}}`), typ, transcode.UnmarshalOptions{})
	if _, err := d.Next(nil); err != nil {
		t.Fatal(err)
	}
	_, err := d.Next(nil)
	var te *transcode.Error
	if !errors.As(err, &te) || te.Offset != 31 || te.Path != "inner.name" {
		t.Fatalf("second object: %v (%+v), want a missing inner.name at offset 31", err, te)
	}
	if _, err := d.Next(nil); err != nil { // the stream goes on after a bad object
		t.Fatal(err)
	}
	d = transcode.NewDecoder(strings.NewReader(`{"inner":{"name":""}`), typ, transcode.UnmarshalOptions{})
	if _, err := d.Next(nil); err == nil || err == io.EOF || !strings.Contains(err.Error(), "unexpected end of input") {
		t.Fatalf("truncated object: %v", err)
	}
	d = transcode.NewDecoder(strings.NewReader(`nope {}`), typ, transcode.UnmarshalOptions{})
	if _, err := d.Next(nil); err == nil || !strings.Contains(err.Error(), `unexpected "nope"`) {
		t.Fatalf("not an object: %v", err)
	}
}
