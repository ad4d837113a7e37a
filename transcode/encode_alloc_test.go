package transcode

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// TestMarshalAllocs holds the allocation budget: Marshal allocates its
// result and nothing else; MarshalAppend into a buffer with room allocates
// nothing. (Resolving an Any's type URL or an extension costs a few more.)
func TestMarshalAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's sync.Pool drops items")
	}
	for name, m := range map[string]proto.Message{
		"small": fixture.Small(), "medium": fixture.Medium(), "rich": messageCases(t)["maps"], "lists": messageCases(t)["lists"],
	} {
		wire := mustWire(t, m)
		typ := typeOf(m)
		if _, err := Marshal(typ, wire); err != nil { // warm the plan and the size estimate
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { Marshal(typ, wire) }); n > 1 {
			t.Errorf("%s: Marshal makes %v allocations, want 1", name, n)
		}
		buf := make([]byte, 0, 1<<16)
		for _, o := range []MarshalOptions{{}, {Indent: "  ", EmitUnpopulated: true}} { // the direct path, the general path
			if n := testing.AllocsPerRun(100, func() { o.MarshalAppend(buf[:0], typ, wire) }); n > 0 {
				t.Errorf("%s %s: MarshalAppend makes %v allocations, want 0", name, optString(o), n)
			}
		}
	}
}

// TestBenchmarkStructsMatch checks that the encoding/json reference of the
// benchmarks prints the same data as protojson, so that it is a fair one.
func TestBenchmarkStructsMatch(t *testing.T) {
	for _, c := range []struct {
		msg   proto.Message
		plain any
	}{{fixture.Small(), plainSmall(fixture.Small())}, {fixture.Medium(), plainMedium(fixture.Medium())}} {
		want, err := protojson.Marshal(c.msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(c.plain)
		if err != nil {
			t.Fatal(err)
		}
		var gv, wv any
		if err := json.Unmarshal(got, &gv); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &wv); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gv, wv) {
			t.Errorf("encoding/json reference differs from protojson:\n%s\n%s", got, want)
		}
	}
}

// TestMarshalConcurrent converts several types from several goroutines at
// once (plans built on first use, pooled buffers, the remembered plan),
// each result checked against a single-goroutine conversion.
func TestMarshalConcurrent(t *testing.T) {
	msgs := []proto.Message{fixture.Small(), fixture.Medium(), knownFull(t), legacyFull(), messageCases(t)["maps"]}
	want := make([][]byte, len(msgs))
	wires := make([][]byte, len(msgs))
	for i, m := range msgs {
		wires[i] = mustWire(t, m)
		var err error
		if want[i], err = Marshal(typeOf(m), wires[i]); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 200 {
				k := (i + g) % len(msgs)
				got, err := Marshal(typeOf(msgs[k]), wires[k])
				if err == nil && string(got) != string(want[k]) {
					err = errors.New("different output")
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
