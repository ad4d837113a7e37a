package transcode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// benchStructs are the structs of bench.thrift with generated code.
var benchStructs = []string{"Small", "SmallPart", "Medium", "MediumPart", "Large", "Pick", "BenchError"}

// TestDifferential converts random values of every struct of bench.thrift,
// encoded by Apache's library, to JSON and back, in both protocols and
// across them: the bytes that come back are the ones Apache's library
// writes for the value (maps in canonical order), and Apache's library
// reads them. The JSON is held to encoding/json's of the generated struct
// where the two mappings agree.
func TestDifferential(t *testing.T) {
	for _, name := range benchStructs {
		typ := benchType(t, name)
		for seed := range uint64(40) {
			v := thriftfixture.Random(name, seed)
			enc := map[wire.Protocol][]byte{}
			for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
				b, err := thriftfixture.Encode(p, v)
				if err != nil {
					t.Fatal(err)
				}
				enc[p] = b
			}
			for _, from := range []wire.Protocol{wire.Binary, wire.Compact} {
				j, err := transcode.MarshalOptions{Protocol: from}.Marshal(typ, enc[from])
				if err != nil {
					t.Fatalf("%s seed %d %v: Marshal: %v", name, seed, from, err)
				}
				if !json.Valid(j) {
					t.Fatalf("%s seed %d: invalid JSON %s", name, seed, j)
				}
				named, err := transcode.MarshalOptions{Protocol: from, EnumNames: true}.Marshal(typ, enc[from])
				if err != nil {
					t.Fatalf("%s seed %d %v: Marshal with enum names: %v", name, seed, from, err)
				}
				compareGoJSON(t, v, named)
				for _, to := range []wire.Protocol{wire.Binary, wire.Compact} {
					b, err := transcode.UnmarshalOptions{Protocol: to}.Unmarshal(typ, j)
					if err != nil {
						t.Fatalf("%s seed %d %v->%v: Unmarshal: %v\n%s", name, seed, from, to, err, j)
					}
					got, err := thriftfixture.Canonical(to, b)
					if err != nil {
						t.Fatalf("%s seed %d: our bytes do not scan: %v", name, seed, err)
					}
					if !bytes.Equal(got, enc[to]) {
						t.Fatalf("%s seed %d %v->json->%v: bytes differ\n got %x\nwant %x\njson %s", name, seed, from, to, got, enc[to], j)
					}
					back := thriftfixture.New(name)
					if err := thriftfixture.Decode(to, b, back); err != nil {
						t.Fatalf("%s seed %d: Apache cannot read our bytes: %v", name, seed, err)
					}
				}
			}
		}
	}
}

// compareGoJSON compares our JSON of v with encoding/json's of the
// generated struct, where encoding/json can write it (no infinities, no
// struct map keys): the same members with the same values, allowing for
// the differences of the mappings (an api.js_conv i64 is a string, nil
// containers and binaries are null in Go's, an enum value without a name
// is "<UNSET>" in Go's).
func compareGoJSON(t *testing.T, v any, ours []byte) {
	t.Helper()
	theirs, err := json.Marshal(v)
	if err != nil {
		return // infinities, struct keys: checked by the round trip alone
	}
	a, b := decodeAny(t, ours), decodeAny(t, theirs)
	if msg := sameJSON(a, b, ""); msg != "" {
		t.Fatalf("%s\nours   %s\ntheirs %s", msg, ours, theirs)
	}
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

func sameJSON(ours, theirs any, path string) string {
	switch o := ours.(type) {
	case map[string]any:
		th, ok := theirs.(map[string]any)
		if !ok {
			return emptyVsNull(len(o) == 0, theirs, path)
		}
		for k, tv := range th {
			ov, ok := o[k]
			if !ok && tv != nil {
				return fmt.Sprintf("%s.%s: missing in ours", path, k)
			}
			if msg := sameJSON(ov, tv, path+"."+k); ok && msg != "" {
				return msg
			}
		}
		if len(o) > len(th) {
			return path + ": ours has more members"
		}
		return ""
	case []any:
		th, ok := theirs.([]any)
		if !ok {
			return emptyVsNull(len(o) == 0, theirs, path)
		}
		if len(o) != len(th) {
			return path + ": lengths differ"
		}
		for i := range o {
			if msg := sameJSON(o[i], th[i], path+"["+strconv.Itoa(i)+"]"); msg != "" {
				return msg
			}
		}
		return ""
	case json.Number:
		if th, ok := theirs.(json.Number); ok && sameNumber(string(o), string(th)) {
			return ""
		}
		if theirs == "<UNSET>" { // an enum number with no name
			return ""
		}
	case string:
		if th, ok := theirs.(json.Number); ok && o == string(th) { // api.js_conv
			return ""
		}
		if o == "" && theirs == nil { // a nil []byte
			return ""
		}
		if th, ok := theirs.(string); ok && th == o {
			return ""
		}
	default:
		if ours == theirs {
			return ""
		}
	}
	return fmt.Sprintf("%s: ours %v, theirs %v", path, ours, theirs)
}

func emptyVsNull(empty bool, theirs any, path string) string {
	if empty && theirs == nil {
		return ""
	}
	return path + ": ours is a container, theirs " + fmt.Sprint(theirs)
}

func sameNumber(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && (x == y || math.IsNaN(x) && math.IsNaN(y))
}
