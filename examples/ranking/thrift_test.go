package ranking_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/examples/ranking"
	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// thriftSetup is how a test serves and calls the Thrift side.
type thriftSetup struct {
	opts      ranking.ThriftOptions
	transport client.Transport
	protocol  wire.Protocol
}

var framedBinary = thriftSetup{transport: client.Framed, protocol: wire.Binary}

// startThrift serves svc's Thrift side on loopback and returns a client
// of it; the server stops with the test, and must stop in time.
func startThrift(t *testing.T, svc *ranking.Service, s thriftSetup) *client.Client {
	t.Helper()
	ts, err := svc.ThriftServer(s.opts)
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := ts.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(client.Options{Addr: addr.String(), Transport: s.transport, Protocol: s.protocol, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		done := make(chan error, 1)
		go func() { done <- stop() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the Thrift server did not stop")
		}
		c.Close()
	})
	return c
}

func newService(t *testing.T) *ranking.Service {
	t.Helper()
	svc, err := ranking.New(testOptions)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func protocolFactory(p wire.Protocol) thrift.TProtocolFactory {
	if p == wire.Compact {
		return thrift.NewTCompactProtocolFactoryConf(nil)
	}
	return thrift.NewTBinaryProtocolFactoryConf(nil)
}

// callThrift calls method with args and decodes the result struct into
// result, returning the id of the result field set (0: success).
func callThrift(t *testing.T, c *client.Client, p wire.Protocol, method string, args, result thrift.TStruct) int16 {
	t.Helper()
	ctx := testContext(t)
	ser := thrift.NewTSerializer()
	ser.Protocol = protocolFactory(p).GetProtocol(ser.Transport)
	b, err := ser.Write(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := c.Call(ctx, method, b, nil)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	f, _, err := client.ResultField(p, reply)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	de := thrift.NewTDeserializer()
	de.Protocol = protocolFactory(p).GetProtocol(de.Transport)
	if err := de.Read(ctx, result, reply); err != nil {
		t.Fatalf("%s: decode result: %v", method, err)
	}
	return f.ID
}

var eveningMs = evening.AsTime().UnixMilli()

func thriftContext(user string) *rt.RequestContext {
	return &rt.RequestContext{UserID: user, Device: rt.Device_TV, Country: "FR", TimestampMs: &eveningMs}
}

func thriftRank(t *testing.T, c *client.Client, p wire.Protocol, req *rt.RankRequest) *rt.RankingServiceRankResult {
	t.Helper()
	res := rt.NewRankingServiceRankResult()
	callThrift(t, c, p, "Rank", &rt.RankingServiceRankArgs{Request: req}, res)
	return res
}

// TestThriftRankIsTheGRPCRank: the Thrift Rank answers what the gRPC
// Rank of the same service answers, over every transport and protocol.
func TestThriftRankIsTheGRPCRank(t *testing.T) {
	svc := newService(t)
	want, err := svc.Rank(testContext(t), &rankingv1.RankRequest{Context: reqContext("u-7"), CandidateCount: 500, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	setups := []thriftSetup{framedBinary, {ranking.ThriftOptions{Protocol: "compact"}, client.Framed, wire.Compact},
		{ranking.ThriftOptions{Transport: "buffered"}, client.Buffered, wire.Binary},
		{ranking.ThriftOptions{Transport: "header"}, client.Header, wire.Compact},
		{ranking.ThriftOptions{Transport: "header"}, client.Framed, wire.Binary}}
	for _, s := range setups {
		t.Run(s.transport.String()+"/"+s.protocol.String(), func(t *testing.T) {
			c := startThrift(t, svc, s)
			res := thriftRank(t, c, s.protocol, &rt.RankRequest{Context: thriftContext("u-7"), CandidateCount: 500, Limit: 20})
			got := res.GetSuccess()
			if got == nil || got.CandidatesScored != 500 || got.ModelVersion != ranking.ModelVersion || len(got.Items) != 20 {
				t.Fatalf("Rank = %v", res)
			}
			for i, it := range got.Items {
				w := want.GetItems()[i]
				if uint32(it.ItemID) != w.GetItemId() || it.Score != float64(w.GetScore()) || uint32(it.Position) != w.GetPosition() || it.Genre != w.GetGenre() {
					t.Errorf("item %d = %v, gRPC's %v", i, it, w)
				}
			}
		})
	}
}

func TestThriftRankExceptions(t *testing.T) {
	c := startThrift(t, newService(t), framedBinary)
	res := thriftRank(t, c, wire.Binary, &rt.RankRequest{Context: &rt.RequestContext{}, CandidateIds: []int32{3, -1}})
	inv := res.GetInvalid()
	if inv == nil || !strings.Contains(inv.Message, "invalid request") {
		t.Fatalf("Rank of a bad request = %v, want InvalidRequest", res)
	}
	fields := map[string]bool{}
	for _, v := range inv.Violations {
		fields[v.Field] = true
	}
	if !fields["candidate_ids[1]"] || len(fields) != 1 {
		t.Errorf("violations %v, want candidate_ids[1] alone (negative ids are caught first)", inv.Violations)
	}
	res = thriftRank(t, c, wire.Binary, &rt.RankRequest{Context: &rt.RequestContext{Country: "fr"}, CandidateCount: 5})
	if inv = res.GetInvalid(); inv == nil || len(inv.Violations) != 2 || inv.Violations[0].Field != "context.user_id" || inv.Violations[1].Field != "context.country" {
		t.Errorf("Rank without a user = %v", res)
	}
	res = thriftRank(t, c, wire.Binary, &rt.RankRequest{Context: thriftContext("u"), CandidateCount: 4000})
	if q := res.GetQuota(); q == nil || q.Subject != "candidates" || q.Limit != int32(testOptions.MaxCandidates) {
		t.Errorf("Rank of too many candidates = %v, want QuotaExceeded", res)
	}
}

// TestThriftRankPage: the pages, put together, are Rank's answer.
func TestThriftRankPage(t *testing.T) {
	c := startThrift(t, newService(t), framedBinary)
	req := &rt.RankRequest{Context: thriftContext("u-9"), CandidateCount: 300, Limit: 25}
	whole := thriftRank(t, c, wire.Binary, req).GetSuccess()
	var got []*rt.RankedItem
	for page := int32(0); ; page++ {
		res := rt.NewRankingServiceRankPageResult()
		if f := callThrift(t, c, wire.Binary, "RankPage", &rt.RankingServiceRankPageArgs{Request: req, PageSize: 10, Page: page}, res); f != 0 {
			t.Fatalf("page %d: result field %d: %v", page, f, res)
		}
		p := res.GetSuccess()
		if p.Page != page || len(p.Items) != min(10, 25-int(page)*10) {
			t.Fatalf("page %d = %v", page, p)
		}
		got = append(got, p.Items...)
		if p.Last {
			break
		}
	}
	if len(got) != len(whole.Items) {
		t.Fatalf("%d items in pages, %d in Rank", len(got), len(whole.Items))
	}
	for i := range got {
		if !got[i].Equals(whole.Items[i]) {
			t.Errorf("item %d: page's %v, Rank's %v", i, got[i], whole.Items[i])
		}
	}
	res := rt.NewRankingServiceRankPageResult()
	callThrift(t, c, wire.Binary, "RankPage", &rt.RankingServiceRankPageArgs{Request: req, PageSize: 10, Page: 9}, res)
	if p := res.GetSuccess(); p == nil || len(p.Items) != 0 || !p.Last {
		t.Errorf("page past the last = %v, want empty and last", res)
	}
	res = rt.NewRankingServiceRankPageResult()
	callThrift(t, c, wire.Binary, "RankPage", &rt.RankingServiceRankPageArgs{Request: req, PageSize: 1000}, res)
	if inv := res.GetInvalid(); inv == nil || inv.Violations[0].Field != "page_size" {
		t.Errorf("page size over the limit = %v, want InvalidRequest on page_size", res)
	}
}

func TestThriftFeedback(t *testing.T) {
	c := startThrift(t, newService(t), framedBinary)
	events := []*rt.FeedbackEvent{
		{UserID: "a", ItemID: 1, Type: rt.FeedbackType_IMPRESSION},
		{UserID: "a", ItemID: 1, Type: rt.FeedbackType_CLICK},
		{UserID: "b", ItemID: 2, Type: rt.FeedbackType_IMPRESSION},
	}
	res := rt.NewRankingServiceFeedbackResult()
	callThrift(t, c, wire.Binary, "Feedback", &rt.RankingServiceFeedbackArgs{Events: events}, res)
	want := &rt.FeedbackSummary{Events: 3, Impressions: 2, Clicks: 1, Users: 2}
	if !res.GetSuccess().Equals(want) {
		t.Errorf("Feedback = %v, want %v", res, want)
	}
	events = append(events, &rt.FeedbackEvent{UserID: "c", ItemID: 99999, Type: rt.FeedbackType_CLICK})
	res = rt.NewRankingServiceFeedbackResult()
	callThrift(t, c, wire.Binary, "Feedback", &rt.RankingServiceFeedbackArgs{Events: events}, res)
	if inv := res.GetInvalid(); inv == nil || inv.Violations[0].Field != "events[3].item_id" {
		t.Errorf("Feedback with a bad event = %v, want InvalidRequest on events[3].item_id", res)
	}
}

// TestThriftRecord: a oneway Record changes the user's ranking, as the
// events of Feedback do.
func TestThriftRecord(t *testing.T) {
	c := startThrift(t, newService(t), framedBinary)
	req := &rt.RankRequest{Context: thriftContext("fan"), CandidateCount: 200, Limit: 5}
	before := thriftRank(t, c, wire.Binary, req).GetSuccess()
	liked := before.Items[len(before.Items)-1].ItemID
	for range 20 {
		ev := &rt.FeedbackEvent{UserID: "fan", ItemID: liked, Type: rt.FeedbackType_CLICK}
		b, err := thrift.NewTSerializer().Write(testContext(t), &rt.RankingServiceRecordArgs{Event: ev})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Oneway(testContext(t), "Record", b); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		after := thriftRank(t, c, wire.Binary, req).GetSuccess()
		if !after.Equals(before) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("20 oneway clicks changed nothing in the user's ranking")
}

func TestThriftAutoplay(t *testing.T) {
	c := startThrift(t, newService(t), framedBinary)
	autoplay := func(action rt.PlaybackAction, item int32) *rt.RankingServiceAutoplayResult {
		res := rt.NewRankingServiceAutoplayResult()
		ev := &rt.PlaybackEvent{Context: thriftContext("viewer"), ItemID: item, Action: action, Progress: 1}
		callThrift(t, c, wire.Binary, "Autoplay", &rt.RankingServiceAutoplayArgs{Event: ev}, res)
		return res
	}
	if s := autoplay(rt.PlaybackAction_START, 12).GetSuccess(); s == nil || s.AfterItemID != 12 || s.IsSetNextItem() {
		t.Errorf("Autoplay of START = %v, want no suggestion", s)
	}
	s := autoplay(rt.PlaybackAction_COMPLETE, 12).GetSuccess()
	if s == nil || s.AfterItemID != 12 || s.NextItem == nil || s.NextItem.ItemID == 12 || len(s.Alternatives) != 3 {
		t.Errorf("Autoplay of COMPLETE = %v, want a next title and 3 alternatives", s)
	}
	if inv := autoplay(rt.PlaybackAction_UNSPECIFIED, 12).GetInvalid(); inv == nil || inv.Violations[0].Field != "event.action" {
		t.Errorf("Autoplay without an action = %v, want InvalidRequest on event.action", inv)
	}
}

// TestThriftServerStopsWithIdleConnections: an open, idle connection
// does not hold the server past its stop.
func TestThriftServerStopsWithIdleConnections(t *testing.T) {
	svc := newService(t)
	ts, err := svc.ThriftServer(ranking.ThriftOptions{DrainTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.Serve(ctx, ln) }()
	c, err := client.New(client.Options{Addr: ln.Addr().String(), MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	thriftRank(t, c, wire.Binary, &rt.RankRequest{Context: thriftContext("u"), CandidateCount: 10})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve still running 5s after its context ended, with an idle connection open")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the listener still accepts after Serve returned")
	}
}

func TestThriftOptions(t *testing.T) {
	svc := newService(t)
	for _, o := range []ranking.ThriftOptions{{Transport: "http"}, {Protocol: "json"}} {
		if _, err := svc.ThriftServer(o); err == nil || !strings.HasPrefix(err.Error(), "ranking: unknown Thrift") {
			t.Errorf("ThriftServer(%+v) = %v, want an unknown transport or protocol", o, err)
		}
	}
}
