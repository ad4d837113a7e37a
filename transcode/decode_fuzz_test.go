package transcode

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// decSeeds adds protojson's JSON of a few random messages and some
// hand-written inputs to the corpus of f.
func decSeeds(f *testing.F, known bool) {
	r := rand.New(rand.NewPCG(11, 12))
	for i, n := 0, 0; i < 500 && n < 12; i++ {
		var js []byte
		if known {
			js, _ = protojson.MarshalOptions{UseProtoNames: i%2 == 0}.Marshal(fixture.RandomKnown(r))
		} else {
			js, _ = protojson.MarshalOptions{UseEnumNumbers: i%2 == 0}.Marshal(fixture.RandomRich(r))
		}
		if len(js) <= 1000 { // small seeds keep minimising fast
			f.Add(js, n%3 == 0)
			n++
		}
	}
	for _, s := range []string{
		`{}`, ``, `{"fInt32":1e2,"fUint64":"-0","fFloat":"NaN","fBytes":"-_8"}`,
		`{"mInt32":{"01":"a","1":"b"}}`, `{"any":{"value":"1s","@type":"type.googleapis.com/google.protobuf.Duration"}}`,
		`{"value":[null,{"a":[1e400]}]}`, `{"fieldMask":"a.bC,d"}`, `{"timestamp":"2024-01-01T00:00:00.123+01:00"}`,
		"{\"fString\":\"\\ud83d\\ude00\xff\"}", `{"cInt32":1,"cString":null}`,
	} {
		f.Add([]byte(s), false)
	}
}

// fuzzAgainstOracle checks Unmarshal against protojson on arbitrary input:
// no panic, an error exactly when protojson errs, the same message when
// neither does.
func fuzzAgainstOracle(t *testing.T, md protoreflect.MessageDescriptor, in []byte, discardUnknown bool) {
	o := UnmarshalOptions{DiscardUnknown: discardUnknown}
	r := decBoth(md, o, in)
	if msg := r.disagreement(); msg != "" {
		t.Fatalf("%+v\ninput: %q\n%s", o, in, msg)
	}
}

func FuzzUnmarshal(f *testing.F) {
	decSeeds(f, false)
	f.Fuzz(func(t *testing.T, in []byte, discardUnknown bool) {
		fuzzAgainstOracle(t, decRich, in, discardUnknown)
	})
}

func FuzzUnmarshalKnown(f *testing.F) {
	decSeeds(f, true)
	f.Fuzz(func(t *testing.T, in []byte, discardUnknown bool) {
		fuzzAgainstOracle(t, decKnown, in, discardUnknown)
	})
}

// decStreamResult is everything a Decoder returned for one stream.
type decStreamResult struct {
	msgs [][]byte
	errs []string
}

func decodeStream(r io.Reader, typ *dynamic.Type) decStreamResult {
	var res decStreamResult
	dec := NewDecoder(r, typ, UnmarshalOptions{})
	for range 10_000 {
		b, err := dec.Next(nil)
		if err == io.EOF {
			return res
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				res.errs = append(res.errs, "not *Error: "+err.Error())
				return res
			}
			res.errs = append(res.errs, err.Error())
			if errors.Is(err, io.ErrUnexpectedEOF) {
				if _, err := dec.Next(nil); err != io.EOF {
					res.errs = append(res.errs, "no io.EOF after a truncated value")
				}
				return res
			}
			continue
		}
		res.msgs = append(res.msgs, b)
	}
	res.errs = append(res.errs, "too many values")
	return res
}

// FuzzDecoder streams arbitrary input in one piece and one byte at a time:
// the results must be the same, and an input Unmarshal accepts whole must
// come out as that one message.
func FuzzDecoder(f *testing.F) {
	decSeeds(f, false)
	f.Add([]byte("{}\n{\"fInt32\":1}{\"fString\":\"}\"} {\"x\"\n{"), false)
	typ := dynamic.TypeOf(decRich)
	f.Fuzz(func(t *testing.T, in []byte, _ bool) {
		whole := decodeStream(bytes.NewReader(in), typ)
		bytewise := decodeStream(iotest.OneByteReader(bytes.NewReader(in)), typ)
		if len(whole.msgs) != len(bytewise.msgs) || len(whole.errs) != len(bytewise.errs) {
			t.Fatalf("whole: %d messages %q; one byte at a time: %d messages %q", len(whole.msgs), whole.errs, len(bytewise.msgs), bytewise.errs)
		}
		for i := range whole.msgs {
			if !bytes.Equal(whole.msgs[i], bytewise.msgs[i]) {
				t.Fatalf("message %d differs", i)
			}
		}
		for i := range whole.errs {
			if whole.errs[i] != bytewise.errs[i] {
				t.Fatalf("error %d: %s, one byte at a time: %s", i, whole.errs[i], bytewise.errs[i])
			}
		}
		if b, err := Unmarshal(typ, in); err == nil {
			if len(whole.msgs) != 1 || len(whole.errs) != 0 || !bytes.Equal(whole.msgs[0], b) {
				t.Fatalf("Unmarshal accepts the input, the Decoder gives %d messages and errors %q", len(whole.msgs), whole.errs)
			}
		}
	})
}
