package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/examples/ranking"
	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// The Thrift side of the tour: the ranking service's Thrift server
// (binary protocol, framed) beside the gRPC one, on the same model.

// demoThrift is where the Thrift server listens and the files its load
// test reads: the IDL and the encoded arguments of Rank.
type demoThrift struct {
	addr   string
	idl    string
	args   string
	server *ranking.ThriftServer
}

// inFlight is the number of Thrift calls being served.
func (t *demoThrift) inFlight() int {
	if t.server == nil {
		return 0
	}
	return t.server.InFlight()
}

// start serves svc's Thrift side on a loopback port until stop.
func (t *demoThrift) start(svc *ranking.Service) (stop func() error, err error) {
	ts, err := svc.ThriftServer(ranking.ThriftOptions{DrainTimeout: 2 * time.Second})
	if err != nil {
		return nil, err
	}
	addr, stop, err := ts.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t.addr, t.server = addr.String(), ts
	return stop, nil
}

// thriftRankArgs is the tour's Rank request as Rank's arguments struct,
// in the binary protocol.
func thriftRankArgs(candidates int) ([]byte, error) {
	args := &rt.RankingServiceRankArgs{Request: &rt.RankRequest{
		Context:        &rt.RequestContext{UserID: "demo-user", Device: rt.Device_TV, Platform: rt.Platform_SMART_TV, Country: "FR"},
		CandidateCount: int32(candidates), Limit: 20,
	}}
	return thrift.NewTSerializer().Write(context.Background(), args)
}

// writeFiles writes the IDL and Rank's arguments for candidates into dir,
// for the Thrift load test's bench command.
func (t *demoThrift) writeFiles(dir string, candidates int) error {
	args, err := thriftRankArgs(candidates)
	if err != nil {
		return err
	}
	t.idl, t.args = filepath.Join(dir, "ranking.thrift"), filepath.Join(dir, "rank.args")
	if err := os.WriteFile(t.idl, []byte(ranking.ThriftIDL()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(t.args, args, 0o644)
}

// benchArgs are the Thrift load test's target arguments.
func (t *demoThrift) benchArgs() []string {
	return []string{"--idl", t.idl, "--body-file", t.args, t.addr, "RankingService.Rank"}
}

// thriftRank calls Rank over Thrift through thrift/client.
func (c *demoCaller) thriftRank(ctx context.Context, addr string) (string, string, error) {
	what := "Thrift         Rank"
	args, err := thriftRankArgs(1000)
	if err != nil {
		return what, "", err
	}
	tc, err := client.New(client.Options{Addr: addr})
	if err != nil {
		return what, "", err
	}
	defer tc.Close()
	reply, err := tc.Call(ctx, "Rank", args, nil)
	if err != nil {
		return what, "", err
	}
	if f, _, err := client.ResultField(wire.Binary, reply); err != nil || f.ID != 0 {
		return what, "", fmt.Errorf("result field %d: %v", f.ID, err)
	}
	res := rt.NewRankingServiceRankResult()
	if err := thrift.NewTDeserializer().Read(ctx, res, reply); err != nil {
		return what, "", err
	}
	items := res.GetSuccess().GetItems()
	if len(items) == 0 {
		return what, "", fmt.Errorf("no items")
	}
	top, err := json.Marshal(items[0])
	return what, "binary, framed: 1000 candidates -> top " + string(top), err
}
