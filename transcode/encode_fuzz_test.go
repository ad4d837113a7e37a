package transcode

import (
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fuzzMarshal holds Marshal against protojson over dynamicpb on arbitrary
// bytes read as a message of md: no panic, the same JSON when protobuf-go
// parses and protojson prints, an *Error when either fails; and the compact
// loop to the general one (checkCompact).
func fuzzMarshal(f *testing.F, md protoreflect.MessageDescriptor, seeds []proto.Message) {
	for _, m := range seeds {
		b, err := proto.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(5))
	}
	sets := optionSets()
	f.Fuzz(func(t *testing.T, wire []byte, opt uint8) {
		checkAgainstOracle(t, "fuzz", md, wire, sets[int(opt)%len(sets)])
		checkCompact(t, "fuzz", md, wire, compactSets[int(opt)%len(compactSets)])
	})
}

func FuzzMarshal(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	seeds := []proto.Message{}
	for name, m := range messageCases(f) {
		if m.ProtoReflect().Descriptor().FullName() == "rpckit.fixture.v1.Rich" || name == "small" {
			seeds = append(seeds, m)
		}
	}
	for range 20 {
		seeds = append(seeds, fixture.RandomRich(r))
	}
	fuzzMarshal(f, (&fixturev1.Rich{}).ProtoReflect().Descriptor(), seeds)
}

func FuzzMarshalKnown(f *testing.F) {
	r := rand.New(rand.NewPCG(2, 2))
	seeds := []proto.Message{knownFull(f), messageCases(f)["known zero"], messageCases(f)["any wkt"]}
	for range 20 {
		seeds = append(seeds, fixture.RandomKnown(r))
	}
	fuzzMarshal(f, (&fixturev1.Known{}).ProtoReflect().Descriptor(), seeds)
}

func FuzzMarshalLegacy(f *testing.F) {
	fuzzMarshal(f, (&fixturev1.Legacy{}).ProtoReflect().Descriptor(), []proto.Message{legacyFull(), &fixturev1.Legacy{}})
}
