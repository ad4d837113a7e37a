package transcode

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// readAll reads every message of the stream, stopping at the first error.
func readAll(dec *Decoder) ([][]byte, error) {
	var msgs [][]byte
	for {
		b, err := dec.Next(nil)
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, b)
	}
}

// decStreamReaders wraps r in the readers the stream tests go through.
var decStreamReaders = map[string]func(io.Reader) io.Reader{
	"plain":    func(r io.Reader) io.Reader { return r },
	"onebyte":  iotest.OneByteReader,
	"halves":   iotest.HalfReader,
	"dataerr":  iotest.DataErrReader,
	"truncate": func(r io.Reader) io.Reader { return r },
}

func TestDecoderRandomStream(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var stream bytes.Buffer
	var want []proto.Message
	for i := range 200 {
		m := fixture.RandomRich(r)
		js := decRandomJSON(t, r, m)
		stream.Write(js)
		stream.WriteString([...]string{"\n", "", " \r\n\t", "\n\n"}[i%4])
		w := &fixturev1.Rich{}
		if err := protojson.Unmarshal(js, w); err != nil {
			t.Fatal(err)
		}
		want = append(want, w)
	}
	typ := dynamic.TypeOf(decRich)
	for name, wrap := range decStreamReaders {
		if name == "truncate" {
			continue
		}
		msgs, err := readAll(NewDecoder(wrap(bytes.NewReader(stream.Bytes())), typ, UnmarshalOptions{}))
		if err != io.EOF {
			t.Fatalf("%s: %v after %d messages", name, err, len(msgs))
		}
		if len(msgs) != len(want) {
			t.Fatalf("%s: %d messages, want %d", name, len(msgs), len(want))
		}
		for i, b := range msgs {
			got := &fixturev1.Rich{}
			if err := proto.Unmarshal(b, got); err != nil || !proto.Equal(got, want[i]) {
				t.Fatalf("%s: message %d differs (%v)", name, i, err)
			}
		}
	}
}

// TestDecoderBuffered: what is read past a value is the next one's start,
// for a caller timing when the next value began to arrive.
func TestDecoderBuffered(t *testing.T) {
	dec := NewDecoder(strings.NewReader("{\"fInt32\":1}\n {\"fIn"), dynamic.TypeOf(decRich), UnmarshalOptions{})
	if _, err := dec.Next(nil); err != nil {
		t.Fatal(err)
	}
	if got := string(dec.Buffered()); got != "\n {\"fIn" {
		t.Errorf("Buffered() = %q after the first value, want the rest read", got)
	}
}

func TestDecoderAppends(t *testing.T) {
	dec := NewDecoder(strings.NewReader(`{"fInt32":1}{"fInt32":2}`), dynamic.TypeOf(decRich), UnmarshalOptions{})
	out, err := dec.Next([]byte("x"))
	if err != nil || string(out) != "x\x08\x01" {
		t.Fatalf("Next = %q, %v", out, err)
	}
	out, err = dec.Next(out)
	if err != nil || string(out) != "x\x08\x01\x08\x02" {
		t.Fatalf("Next = %q, %v", out, err)
	}
	if _, err = dec.Next(out); err != io.EOF {
		t.Fatalf("Next at end = %v", err)
	}
}

// TestDecoderLarge streams big messages between small ones and checks that
// the buffer stays near the size of the largest.
func TestDecoderLarge(t *testing.T) {
	big := &fixturev1.Rich{FString: strings.Repeat("é", 300_000)}
	for i := range 2000 {
		big.RInt64 = append(big.RInt64, int64(i)*1e12)
	}
	bigJS, _ := protojson.Marshal(big)
	small := []byte(`{"fInt32":7}`)
	var stream []byte
	for range 3 {
		stream = append(append(append(stream, small...), '\n'), bigJS...)
	}
	stream = append(stream, small...)
	for _, name := range []string{"plain", "halves"} {
		dec := NewDecoder(decStreamReaders[name](bytes.NewReader(stream)), dynamic.TypeOf(decRich), UnmarshalOptions{})
		msgs, err := readAll(dec)
		if err != io.EOF || len(msgs) != 7 {
			t.Fatalf("%s: %d messages, %v", name, len(msgs), err)
		}
		got := &fixturev1.Rich{}
		if err := proto.Unmarshal(msgs[1], got); err != nil || !proto.Equal(got, big) {
			t.Fatalf("%s: big message differs (%v)", name, err)
		}
		if c := cap(dec.buf); c > 2*len(bigJS)+minStreamBuffer {
			t.Errorf("%s: buffer of %d bytes for messages of at most %d", name, c, len(bigJS))
		}
	}
}

func TestDecoderErrors(t *testing.T) {
	in := "{\"fInt32\":1}\n{\"fInt32\":2,\n  \"fInt64\":\"x\"}\n\n{\"fInt32\":3} {\"fInt32\":4,\"fInt32\":5}\n{\"fBool\":true}\n{\"fInt32\":"
	for name, wrap := range decStreamReaders {
		if name == "truncate" {
			continue
		}
		dec := NewDecoder(wrap(strings.NewReader(in)), dynamic.TypeOf(decRich), UnmarshalOptions{})
		step := func(wantErr string) {
			t.Helper()
			_, err := dec.Next(nil)
			switch {
			case wantErr == "" && err != nil:
				t.Fatalf("%s: unexpected %v", name, err)
			case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
				t.Fatalf("%s: error %v, want %q", name, err, wantErr)
			}
		}
		step("")
		step(`transcode: line 3 col 12: field "fInt64": invalid int64 "x"`)
		step("")
		step(`line 5 col 26: field "fInt32": duplicate field "fInt32"`)
		step("")
		_, err := dec.Next(nil)
		var e *Error
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &e) || e.Line != 7 || e.Offset != len(in) {
			t.Fatalf("%s: truncated value: %v (%+v)", name, err, e)
		}
		if _, err := dec.Next(nil); err != io.EOF {
			t.Fatalf("%s: after the end: %v", name, err)
		}
	}
}

func TestDecoderEdges(t *testing.T) {
	rich := dynamic.TypeOf(decRich)
	for _, c := range []struct {
		in    string
		n     int
		final string // the error after n messages; "" for io.EOF
	}{
		{"", 0, ""},
		{" \n\t\r ", 0, ""},
		{`{}`, 1, ""},
		{`{}{}{}`, 3, ""},
		{`{"fString":"}{\"\\"}{}`, 2, ""},
		{`{"rInt32":[1,[2]]}`, 0, "invalid int32 ["},
		{`{}]`, 1, "unexpected token ]"},
		{`{} x`, 1, "unexpected token x"},
		{`{"fString":"abc`, 0, "unterminated string"},
		{`{"fInt32":1`, 0, "unexpected end of input"},
		{`{"x":1,"fInt32":`, 0, "unexpected end of input"},
	} {
		msgs, err := readAll(NewDecoder(strings.NewReader(c.in), rich, UnmarshalOptions{}))
		if len(msgs) != c.n {
			t.Errorf("%q: %d messages, want %d", c.in, len(msgs), c.n)
		}
		if c.final == "" && err != io.EOF || c.final != "" && (err == nil || !strings.Contains(err.Error(), c.final)) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.final)
		}
	}
	readErr := errors.New("boom")
	dec := NewDecoder(io.MultiReader(strings.NewReader(`{} {"fInt32"`), iotest.ErrReader(readErr)), rich, UnmarshalOptions{})
	if _, err := dec.Next(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := dec.Next(nil); err != readErr {
		t.Fatalf("reader error: got %v", err)
	}
}

func TestDecoderWellKnownValues(t *testing.T) {
	for _, c := range []struct {
		md protoreflect.MessageDescriptor
		in string
		n  int
	}{
		{(&timestamppb.Timestamp{}).ProtoReflect().Descriptor(), "\"1970-01-01T00:00:00Z\"\n\"2024-01-01T00:00:00.5Z\"", 2},
		{(&structpb.Value{}).ProtoReflect().Descriptor(), `1 -2.5e3 "s" null true [1,{"a":[]}] {"b":null}`, 7},
	} {
		msgs, err := readAll(NewDecoder(iotest.OneByteReader(strings.NewReader(c.in)), dynamic.TypeOf(c.md), UnmarshalOptions{}))
		if err != io.EOF || len(msgs) != c.n {
			t.Fatalf("%s: %d messages, %v", c.md.FullName(), len(msgs), err)
		}
	}
}
