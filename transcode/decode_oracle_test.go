package transcode

import (
	"errors"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The oracle of the decoding tests: protojson.Unmarshal into dynamicpb.

var (
	decRich   = (&fixturev1.Rich{}).ProtoReflect().Descriptor()
	decKnown  = (&fixturev1.Known{}).ProtoReflect().Descriptor()
	decLegacy = (&fixturev1.Legacy{}).ProtoReflect().Descriptor()
)

// decOracleOpts is protojson's counterpart of o.
func decOracleOpts(o UnmarshalOptions) protojson.UnmarshalOptions {
	return protojson.UnmarshalOptions{
		DiscardUnknown: o.DiscardUnknown,
		AllowPartial:   o.AllowPartial,
		RecursionLimit: o.MaxDepth,
	}
}

// oracle runs protojson on in.
func decOracle(md protoreflect.MessageDescriptor, o UnmarshalOptions, in []byte) (proto.Message, error) {
	m := dynamicpb.NewMessage(md)
	err := decOracleOpts(o).Unmarshal(in, m)
	return m, err
}

// decOutcome is what both sides made of one input.
type decOutcome struct {
	want, got   proto.Message
	wantErr     error
	gotErr      error
	wire        []byte
	parseWireOK bool
}

// decBoth runs protojson and Unmarshal on in and parses our wire bytes
// back into a dynamicpb message.
func decBoth(md protoreflect.MessageDescriptor, o UnmarshalOptions, in []byte) decOutcome {
	var r decOutcome
	r.want, r.wantErr = decOracle(md, o, in)
	r.wire, r.gotErr = o.Unmarshal(dynamic.TypeOf(md), in)
	if r.gotErr == nil {
		m := dynamicpb.NewMessage(md)
		r.parseWireOK = proto.UnmarshalOptions{AllowPartial: true}.Unmarshal(r.wire, m) == nil
		r.got = m
	}
	return r
}

// agree reports how the two sides disagree, or "".
func (r decOutcome) disagreement() string {
	switch {
	case r.wantErr != nil && r.gotErr == nil:
		return "protojson fails (" + r.wantErr.Error() + "), Unmarshal succeeds"
	case r.wantErr == nil && r.gotErr != nil:
		return "protojson succeeds, Unmarshal fails: " + r.gotErr.Error()
	case r.wantErr != nil:
		var e *Error
		if !errors.As(r.gotErr, &e) {
			return "error is not *Error: " + r.gotErr.Error()
		}
		return ""
	case !r.parseWireOK:
		return "our wire bytes do not parse"
	case !proto.Equal(r.want, r.got):
		return "messages differ\nprotojson: " + prototext.Format(r.want) + "\nours:      " + prototext.Format(r.got)
	}
	return ""
}

// decCheck fails t when Unmarshal and protojson disagree on in.
func decCheck(t *testing.T, md protoreflect.MessageDescriptor, o UnmarshalOptions, in string) decOutcome {
	t.Helper()
	r := decBoth(md, o, []byte(in))
	if msg := r.disagreement(); msg != "" {
		t.Errorf("%s %+v\ninput: %s\n%s", md.Name(), o, in, msg)
	}
	return r
}
