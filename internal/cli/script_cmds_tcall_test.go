package cli_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rpckit/rpckit/examples/ranking"
	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// The scripts' commands for the ranking service's Thrift side:
//
//	rankingidl                copies examples/ranking/thrift/ranking.thrift into $WORK
//	thriftserve NAME [TRANSPORT [PROTOCOL]]
//	                          serves the ranking service's Thrift side in process
//	                          on loopback (framed binary by default) until the
//	                          script ends, and sets NAME to its host:port
//	thriftrank ADDR USER      calls Rank over framed binary Thrift; stdout gets
//	                          the model version and the number of items
//	rankargs FILE PROTOCOL COUNT
//	                          writes the arguments struct of RankingService.Rank
//	                          for user u1 and COUNT candidates in PROTOCOL
//	                          (binary or compact) to FILE
func init() {
	scriptCmds["rankargs"] = cmdRankArgs
	scriptCmds["rankingidl"] = cmdRankingIDL
	scriptCmds["thriftserve"] = cmdThriftServe
	scriptCmds["thriftrank"] = cmdThriftRank
}

func cmdRankingIDL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: rankingidl")
	}
	b, err := os.ReadFile("../../examples/ranking/thrift/ranking.thrift")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs("ranking.thrift"), b, 0o644))
}

func cmdThriftServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 3 {
		ts.Fatalf("usage: thriftserve NAME [TRANSPORT [PROTOCOL]]")
	}
	var opts ranking.ThriftOptions
	if len(args) > 1 {
		opts.Transport = args[1]
	}
	if len(args) > 2 {
		opts.Protocol = args[2]
	}
	svc, err := ranking.New(ranking.Options{CatalogueSize: 2000, EmbeddingDim: 8, MaxCandidates: 500})
	ts.Check(err)
	srv, err := svc.ThriftServer(opts)
	ts.Check(err)
	addr, stop, err := srv.Start("127.0.0.1:0")
	ts.Check(err)
	ts.Setenv(args[0], addr.String())
	ts.Defer(func() { ts.Check(stop()) })
}

func cmdThriftRank(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: thriftrank ADDR USER")
	}
	resp, err := thriftRank(args[0], args[1])
	if neg {
		if err == nil {
			ts.Fatalf("thriftrank: the call succeeded")
		}
		return
	}
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "model %s items %d\n", resp.ModelVersion, len(resp.Items))
}

func thriftRank(addr, user string) (*rt.RankResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.New(client.Options{Addr: addr, DialTimeout: time.Second})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	args := &rt.RankingServiceRankArgs{Request: &rt.RankRequest{Context: &rt.RequestContext{UserID: user}, CandidateCount: 50, Limit: 5}}
	b, err := thrift.NewTSerializer().Write(ctx, args)
	if err != nil {
		return nil, err
	}
	reply, err := c.Call(ctx, "Rank", b, nil)
	if err != nil {
		return nil, err
	}
	if f, _, err := client.ResultField(wire.Binary, reply); err != nil || f.ID != 0 {
		return nil, fmt.Errorf("result field %d, %v", f.ID, err)
	}
	res := rt.NewRankingServiceRankResult()
	if err := thrift.NewTDeserializer().Read(ctx, res, reply); err != nil {
		return nil, err
	}
	return res.GetSuccess(), nil
}

func cmdRankArgs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: rankargs FILE PROTOCOL COUNT")
	}
	var n int32
	_, err := fmt.Sscan(args[2], &n)
	ts.Check(err)
	ser := thrift.NewTSerializer()
	if args[1] == "compact" {
		ser.Protocol = thrift.NewTCompactProtocolFactoryConf(nil).GetProtocol(ser.Transport)
	}
	rank := &rt.RankingServiceRankArgs{Request: &rt.RankRequest{Context: &rt.RequestContext{UserID: "u1"}, CandidateCount: n, Limit: 5}}
	b, err := ser.Write(context.Background(), rank)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}
