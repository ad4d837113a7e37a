package invoke_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/invoke"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // the server's logs of closed connections
	os.Exit(m.Run())
}

// serve starts the ranking service's Thrift side on loopback in protocol
// proto and returns its address.
func serve(t *testing.T, proto string) string {
	t.Helper()
	svc, err := ranking.New(ranking.Options{CatalogueSize: 200, EmbeddingDim: 8, MaxCandidates: 100})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := svc.ThriftServer(ranking.ThriftOptions{Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return addr.String()
}

func rankingFn(t *testing.T, src, name string) *idl.Function {
	t.Helper()
	f, err := idl.Parse("ranking.thrift", []byte(src), idl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Service("RankingService").Function(name)
	if fn == nil {
		t.Fatalf("no function %s", name)
	}
	return fn
}

func newClient(t *testing.T, addr string, p wire.Protocol) *invoke.Client {
	t.Helper()
	c, err := invoke.New(client.Options{Addr: addr, Protocol: p, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCallJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    wire.Protocol
	}{{"binary", wire.Binary}, {"compact", wire.Compact}} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, serve(t, tc.name), tc.p)
			fn := rankingFn(t, ranking.ThriftIDL(), "Feedback")
			out, err := c.CallJSON(context.Background(), fn,
				[]byte(`{"events":[{"user_id":"a","item_id":1,"type":"CLICK"},{"user_id":"b","item_id":2,"type":"IMPRESSION"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"events":2,"impressions":1,"clicks":1,"users":2}`; string(out) != want {
				t.Errorf("got %s, want %s", out, want)
			}
		})
	}
}

func TestCallEnumsByName(t *testing.T) {
	c := newClient(t, serve(t, "binary"), wire.Binary)
	fn := rankingFn(t, ranking.ThriftIDL(), "Rank")
	out, err := c.CallJSON(context.Background(), fn, []byte(`{"request":{"context":{"user_id":"u1","device":"TV"},"candidate_count":20,"limit":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Items []struct {
			Position int `json:"position"`
		} `json:"items"`
		Scored int `json:"candidates_scored"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Items) != 3 || got.Items[2].Position != 3 || got.Scored != 20 {
		t.Errorf("result %s: want 3 items of 20 scored", out)
	}
}

func TestOneway(t *testing.T) {
	c := newClient(t, serve(t, "binary"), wire.Binary)
	out, err := c.CallJSON(context.Background(), rankingFn(t, ranking.ThriftIDL(), "Record"),
		[]byte(`{"event":{"user_id":"u9","item_id":4,"type":"CLICK"}}`))
	if err != nil || out != nil {
		t.Fatalf("oneway: %s, %v; want nothing", out, err)
	}
	// The server took it: a later call on the same connection works.
	fb := rankingFn(t, ranking.ThriftIDL(), "Feedback")
	if _, err := c.CallJSON(context.Background(), fb, []byte(`{"events":[]}`)); err != nil {
		t.Fatal(err)
	}
}

func TestDeclaredException(t *testing.T) {
	c := newClient(t, serve(t, "binary"), wire.Binary)
	_, err := c.CallJSON(context.Background(), rankingFn(t, ranking.ThriftIDL(), "Rank"), []byte(`{"request":{"candidate_count":5}}`))
	var ex *invoke.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("error %v (%T); want an *Exception", err, err)
	}
	if ex.Name != "InvalidRequest" || ex.Function != "RankingService.Rank" {
		t.Errorf("exception %s of %s; want InvalidRequest of RankingService.Rank", ex.Name, ex.Function)
	}
	want := `{"message":"ranking: invalid request: context: required","violations":[{"field":"context","description":"required"}]}`
	if string(ex.JSON) != want {
		t.Errorf("exception JSON %s, want %s", ex.JSON, want)
	}
	if err.Error() != "thrift/invoke: RankingService.Rank: exception InvalidRequest" {
		t.Errorf("message %q", err)
	}
}

func TestApplicationException(t *testing.T) {
	c := newClient(t, serve(t, "binary"), wire.Binary)
	fn := rankingFn(t, "service RankingService { void Missing() }", "Missing")
	_, err := c.CallJSON(context.Background(), fn, []byte(`{}`))
	var ae *client.ApplicationError
	if !errors.As(err, &ae) || ae.Type != client.UnknownMethod {
		t.Fatalf("error %v; want an application exception UNKNOWN_METHOD", err)
	}
}

func TestBadArguments(t *testing.T) {
	c := newClient(t, "127.0.0.1:1", wire.Binary) // never dialed
	_, err := c.CallJSON(context.Background(), rankingFn(t, ranking.ThriftIDL(), "Rank"), []byte(`{"request":{"candidate_count":"x"}}`))
	var te *transcode.Error
	if !errors.As(err, &te) || te.Path != "request.candidate_count" {
		t.Fatalf("error %v; want a transcode error at request.candidate_count", err)
	}
	if !strings.HasPrefix(err.Error(), "thrift/invoke: the arguments of Rank: ") {
		t.Errorf("message %q", err)
	}
}

func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := newClient(t, addr, wire.Binary)
	_, err = c.CallJSON(context.Background(), rankingFn(t, ranking.ThriftIDL(), "Feedback"), []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("error %v; want connection refused", err)
	}
}

func TestEncode(t *testing.T) {
	fn := rankingFn(t, ranking.ThriftIDL(), "Feedback")
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		c := newClient(t, "127.0.0.1:1", p)
		a, err := invoke.Encode(fn, p, []byte(`{"events":[{"user_id":"a"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.Encode(fn, []byte(`{"events":[{"user_id":"a"}]}`))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s: Encode %x, Client.Encode %x, %v; want the same bytes", p, a, b, err)
		}
	}
}
