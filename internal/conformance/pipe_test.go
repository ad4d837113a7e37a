package conformance

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func frame(b []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
}

func request(payloadField protowire.Number, payload string, out Format, typ string, c Category) []byte {
	b := by(payloadField, []byte(payload))
	return cat(b, vr(3, uint64(out)), str(4, typ), vr(5, uint64(c)))
}

func TestParseRequest(t *testing.T) {
	got, err := ParseRequest(cat(request(2, `{"a":1}`, Protobuf, "pkg.M", JSONIgnoreUnknownParsingTest), vr(9, 1), by(6, vr(1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	want := Request{MessageType: "pkg.M", Input: JSON, Payload: []byte(`{"a":1}`), Output: Protobuf, Category: JSONIgnoreUnknownParsingTest}
	if got.MessageType != want.MessageType || got.Input != want.Input || !bytes.Equal(got.Payload, want.Payload) ||
		got.Output != want.Output || got.Category != want.Category {
		t.Errorf("ParseRequest = %+v, want %+v", got, want)
	}
	for _, bad := range [][]byte{{0x0a, 0x05, 'x'}, {0x80}, str(3, "not a varint")} {
		if _, err := ParseRequest(bad); err == nil {
			t.Errorf("ParseRequest(%x): no error", bad)
		}
	}
}

func TestServe(t *testing.T) {
	var in bytes.Buffer
	in.Write(frame(request(1, "\x08\x01", JSON, "a.B", BinaryTest)))
	in.Write(frame(request(8, "x: 1", Protobuf, "a.B", TextFormatTest)))
	in.Write(frame(request(1, "", Protobuf, "boom", BinaryTest)))
	var out bytes.Buffer
	err := Serve(&in, &out, func(r Request) Response {
		switch {
		case r.MessageType == "boom":
			panic("bad handler")
		case r.Input == TextFormat:
			return Errorf(Skipped, "text")
		}
		return Response{Result: JSONPayload, Data: append([]byte("json:"), r.Payload...)}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Response{{JSONPayload, []byte("json:\x08\x01")}, {Skipped, []byte("text")}, {RuntimeError, []byte("panic: bad handler")}}
	for i, w := range want {
		b, err := readFrame(&out, nil)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if !bytes.Equal(b, AppendResponse(nil, w)) {
			t.Errorf("response %d = %q, want %q", i, b, AppendResponse(nil, w))
		}
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes left over", out.Len())
	}
}

func TestServeTruncated(t *testing.T) {
	for _, in := range []string{"\x05\x00", "\x05\x00\x00\x00ab"} {
		err := Serve(strings.NewReader(in), new(bytes.Buffer), func(Request) Response { return Response{} })
		if err == nil {
			t.Errorf("Serve(%q): no error", in)
		}
	}
}
