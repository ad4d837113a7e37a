package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/oracle"
	"google.golang.org/protobuf/proto"
)

func TestRequestTemplate(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.jsonl")
	if err := os.WriteFile(data, []byte("{\"n\":\"a\"}\n{\"n\":\"b\"}\n\n{\"n\":\"c\"}\n{\"n\":\"d\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	md := (&testv1.EchoRequest{}).ProtoReflect().Descriptor()
	text := `{"number":"{{.RequestNumber}}","item":{"name":{{json .Data.n}},"code":{{.WorkerID}},"nickname":"{{uuid}}","id":"{{randomInt 5 6}}"}}`
	rows, err := readDataSet(data, orderPerCaller, 2, md)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := newRequestTemplate(text, rows, oracle.ProtoJSON{}, md)
	if err != nil {
		t.Fatal(err)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	// Two callers of a closed loop each cycle through their own rows.
	wantNames := map[int][]string{0: {"a", "c", "a"}, 1: {"b", "d", "b"}}
	for worker, names := range wantNames {
		for i, want := range names {
			reqs, err := tmpl.render(context.Background(), worker, int64(10*worker+i))
			if err != nil {
				t.Fatal(err)
			}
			var req testv1.EchoRequest
			if err := proto.Unmarshal(reqs[0], &req); err != nil {
				t.Fatal(err)
			}
			item := req.GetItem()
			if item.GetName() != want || item.GetCode() != int32(worker) || req.GetNumber() != int64(10*worker+i) || item.GetId() != 5 || !uuid.MatchString(item.GetNickname()) {
				t.Errorf("worker %d call %d: %v", worker, i, &req)
			}
		}
	}
}
