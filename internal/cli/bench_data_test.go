package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
)

func writeData(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDataOrders(t *testing.T) {
	md := (&testv1.EchoRequest{}).ProtoReflect().Descriptor()
	path := writeData(t, "d.jsonl", "{\"number\":0}\n{\"number\":1}\n\n{\"number\":2}\n{\"number\":3}\n{\"number\":4}\n")
	picks := func(order string, callers int, workers ...int) []int {
		d, err := readDataSet(path, order, callers, md)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, w := range workers {
			out = append(out, d.pick(w))
		}
		return out
	}
	eq := func(name string, got, want []int) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %v, want %v", name, got, want)
			}
		}
	}
	eq("sequential", picks(orderSequential, 1, 0, 1, 0, 1, 0, 1, 0), []int{0, 1, 2, 3, 4, 0, 1})
	// Two callers: caller 0 cycles through rows 0, 2, 4; caller 1 through 1, 3.
	eq("per-caller", picks(orderPerCaller, 2, 0, 1, 0, 1, 0, 1, 0), []int{0, 1, 2, 3, 4, 1, 0})
	// More callers than rows: each caller keeps one row.
	eq("per-caller, few rows", picks(orderPerCaller, 8, 0, 6, 7, 6, 2), []int{0, 1, 2, 1, 2})

	d, err := readDataSet(path, orderRandom, 1, md)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for range 500 {
		seen[d.pick(0)]++
	}
	if len(seen) != 5 || d.distinct() != 5 {
		t.Errorf("random: rows %v, %d distinct; want all 5", seen, d.distinct())
	}
	d.reset()
	if n := d.distinct(); n != 0 {
		t.Errorf("after reset: %d distinct, want 0", n)
	}
	d.pick(0)
	if n := d.distinct(); n != 1 {
		t.Errorf("one pick after reset: %d distinct, want 1", n)
	}
}

func TestDataCSV(t *testing.T) {
	md := (&testv1.EchoRequest{}).ProtoReflect().Descriptor()
	path := writeData(t, "d.csv", "number,item,delay,fail_code\n7,\"{\"\"name\"\":\"\"a,b\"\"}\",0.5s,\n-2,,,14\n")
	d, err := readDataSet(path, orderSequential, 1, md)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range d.rows {
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{`{"delay":"0.5s","item":{"name":"a,b"},"number":7}`, `{"failCode":14,"number":-2}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ text, want string }{
		{"nope\n1\n", `d.csv:1: column "nope": rpckit.test.v1.EchoRequest has no such field`},
		{"number\nten\n", `d.csv:2: column "number": "ten" is not a number`},
		{"number,item\n1,{\n", `d.csv:2: column "item": want JSON`},
		{"number\n", `d.csv: no rows`},
		{"number,item\n1\n", `wrong number of fields`},
	} {
		_, err := readDataSet(writeData(t, "d.csv", tc.text), orderSequential, 1, md)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := readDataSet(writeData(t, "d.jsonl", "{}\n[1]\n"), orderSequential, 1, md); err == nil || !strings.Contains(err.Error(), "d.jsonl:2: want a JSON object") {
		t.Errorf("a JSON line that is not an object: %v", err)
	}
}
