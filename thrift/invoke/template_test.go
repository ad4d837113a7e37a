package invoke_test

import (
	"testing"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/invoke"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Every function's arguments template is JSON its Encode takes.
func TestArgsTemplateEncodes(t *testing.T) {
	f, err := idl.Parse("ranking.thrift", []byte(ranking.ThriftIDL()), idl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range f.Service("RankingService").Functions {
		js, err := invoke.ArgsTemplate(fn)
		if err != nil {
			t.Fatalf("%s: %v", fn.Name, err)
		}
		if _, err := invoke.Encode(fn, wire.Compact, js); err != nil {
			t.Errorf("%s: the template %s does not encode: %v", fn.Name, js, err)
		}
	}
}

func TestArgsTemplate(t *testing.T) {
	fn := rankingFn(t, ranking.ThriftIDL(), "RankPage")
	js, err := invoke.ArgsTemplate(fn)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"request":{"context":{"user_id":"","device":"UNSPECIFIED","platform":"UNSPECIFIED","country":"","timestamp_ms":0},` +
		`"candidate_ids":[0],"candidate_count":0,"limit":0},"page_size":0,"page":0}`
	if string(js) != want {
		t.Errorf("template\n%s\nwant\n%s", js, want)
	}
}
