package transcode

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestMarshalRandom holds Marshal against protojson on random messages of
// the rich and the well-known fixtures: the first ones with every option
// set, the rest with one set each in turn.
func TestMarshalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sets := optionSets()
	for i := range 2000 {
		var m proto.Message = fixture.RandomRich(r)
		if i%2 == 1 {
			m = fixture.RandomKnown(r)
		}
		wire, err := proto.MarshalOptions{Deterministic: i%3 == 0}.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		md := m.ProtoReflect().Descriptor()
		if i < 100 {
			for _, o := range sets {
				checkAgainstOracle(t, fmt.Sprintf("message %d %s", i, optString(o)), md, wire, o)
			}
			continue
		}
		o := sets[i%len(sets)]
		checkAgainstOracle(t, fmt.Sprintf("message %d %s", i, optString(o)), md, wire, o)
	}
}

// TestMarshalMangled holds Marshal against protojson on random messages
// whose wire form is reshuffled the ways a parser must cope with: records
// out of order, scalars repeated (the last wins), sub-messages split into
// several records (merged), packed runs split and unpacked, oneof members
// following each other, map entries repeated.
func TestMarshalMangled(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	sets := optionSets()
	for i := range 1500 {
		var m proto.Message = fixture.RandomRich(r)
		if i%2 == 1 {
			m = fixture.RandomKnown(r)
		}
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		md := m.ProtoReflect().Descriptor()
		mangled := mangle(r, md, wire)
		o := sets[i%len(sets)]
		checkAgainstOracle(t, fmt.Sprintf("message %d %s\nwire %x", i, optString(o), mangled), md, mangled, o)
	}
}

// TestMarshalMangledFlat is TestMarshalMangled on messages whose fields
// are all singular scalars, strings and bytes outside oneofs: random values, records of zero values added (which
// proto.Marshal never writes) and strings of invalid UTF-8, the records
// reordered and repeated, with every option set.
func TestMarshalMangledFlat(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	sets := optionSets()
	some := func() bool { return r.IntN(3) > 0 }
	for i := range 600 {
		var m proto.Message
		if i%2 == 0 {
			s := &fixturev1.Small{}
			if some() {
				s.Id = r.Int64() >> r.IntN(64)
			}
			if some() {
				s.Name = []string{"n", "grüße", "a \"quoted\" name", "東京"}[r.IntN(4)]
			}
			if some() {
				s.Score = r.NormFloat64() * 100
			}
			if some() {
				s.Count = r.Int32() - 1<<30
			}
			if some() {
				s.Status = fixturev1.Status(r.IntN(5))
			}
			if some() {
				s.Token = []byte{byte(r.Uint32()), 0, 0xff}[:r.IntN(4)]
			}
			m = s
		} else {
			o := &fixturev1.Origin{}
			if some() {
				o.Host = "node.example.net"
			}
			if some() {
				o.Port = r.Int32N(65536)
			}
			if some() {
				o.Latitude = r.Float64()*180 - 90
			}
			if some() {
				o.Longitude = r.Float64()*360 - 180
			}
			m = o
		}
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		md := m.ProtoReflect().Descriptor()
		wire = appendZeroRecords(r, md, wire)
		mangled := mangle(r, md, wire)
		for _, o := range sets {
			checkAgainstOracle(t, fmt.Sprintf("message %d %s\nwire %x", i, optString(o), mangled), md, mangled, o)
		}
	}
}

// appendZeroRecords appends up to two records of random fields of md with
// zero values, and now and then a string of invalid UTF-8 instead.
func appendZeroRecords(r *rand.Rand, md protoreflect.MessageDescriptor, b []byte) []byte {
	fields := md.Fields()
	for range r.IntN(3) {
		fd := fields.Get(r.IntN(fields.Len()))
		wt := dynamic.WireTypeOf(fd.Kind())
		b = protowire.AppendTag(b, fd.Number(), wt)
		switch wt {
		case protowire.Fixed64Type:
			b = protowire.AppendFixed64(b, 0)
		case protowire.Fixed32Type:
			b = protowire.AppendFixed32(b, 0)
		case protowire.BytesType:
			v := ""
			if fd.Kind() == protoreflect.StringKind && r.IntN(4) == 0 {
				v = "\xff"
			}
			b = protowire.AppendString(b, v)
		default:
			b = protowire.AppendVarint(b, 0)
		}
	}
	return b
}

// mangle rewrites the records of a message of md (and of its sub-messages)
// into an equivalent or at least parseable form.
func mangle(r *rand.Rand, md protoreflect.MessageDescriptor, b []byte) []byte {
	var recs [][]byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		rec := b[:n+m]
		b = b[n+m:]
		fd := md.Fields().ByNumber(num)
		if fd != nil && typ == protowire.BytesType {
			recs = append(recs, mangleField(r, fd, num, rec[n:])...)
			continue
		}
		recs = append(recs, rec)
	}
	if r.IntN(3) == 0 {
		r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	}
	if len(recs) > 0 && r.IntN(4) == 0 {
		recs = append(recs, recs[r.IntN(len(recs))])
	}
	var out []byte
	for _, rec := range recs {
		out = append(out, rec...)
	}
	return out
}

// mangleField rewrites one length-delimited record of field fd: a
// sub-message mangled within and maybe split in two records, a packed run
// maybe split or unpacked.
func mangleField(r *rand.Rand, fd protoreflect.FieldDescriptor, num protowire.Number, val []byte) [][]byte {
	v, _ := protowire.ConsumeBytes(val)
	record := func(p []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), p)
	}
	switch {
	case fd.Message() != nil:
		inner := mangle(r, fd.Message(), v)
		if cut := recordBoundary(r, inner); cut >= 0 {
			return [][]byte{record(inner[:cut]), record(inner[cut:])}
		}
		return [][]byte{record(inner)}
	case fd.IsList() && fd.Kind() != protoreflect.StringKind && fd.Kind() != protoreflect.BytesKind:
		return splitPacked(r, fd, num, v)
	}
	return [][]byte{record(v)}
}

// recordBoundary returns the offset of a random record boundary inside b,
// or -1.
func recordBoundary(r *rand.Rand, b []byte) int {
	if r.IntN(3) != 0 {
		return -1
	}
	var cuts []int
	for p := 0; p < len(b); {
		num, typ, n := protowire.ConsumeTag(b[p:])
		m := protowire.ConsumeFieldValue(num, typ, b[p+n:])
		p += n + m
		cuts = append(cuts, p)
	}
	if len(cuts) < 2 {
		return -1
	}
	return cuts[r.IntN(len(cuts)-1)]
}

// splitPacked re-encodes a packed run as two runs, or element by element.
func splitPacked(r *rand.Rand, fd protoreflect.FieldDescriptor, num protowire.Number, v []byte) [][]byte {
	var elems [][]byte
	for p := v; len(p) > 0; {
		var n int
		switch fd.Kind() {
		case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
			n = 4
		case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
			n = 8
		default:
			_, n = protowire.ConsumeVarint(p)
		}
		elems = append(elems, p[:n])
		p = p[n:]
	}
	wt := dynamic.WireTypeOf(fd.Kind())
	var out [][]byte
	switch r.IntN(3) {
	case 0: // unpacked
		for _, e := range elems {
			out = append(out, append(protowire.AppendTag(nil, num, wt), e...))
		}
	case 1: // two runs
		cut := r.IntN(len(elems) + 1)
		for _, part := range [][][]byte{elems[:cut], elems[cut:]} {
			var run []byte
			for _, e := range part {
				run = append(run, e...)
			}
			out = append(out, protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), run))
		}
	default:
		out = append(out, protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), v))
	}
	return out
}
