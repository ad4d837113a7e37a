package ranking_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"github.com/rpckit/rpckit/server"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
)

var testOptions = ranking.Options{CatalogueSize: 5000, EmbeddingDim: 16, MaxCandidates: 3000, MaxLimit: 200}

// startRanking serves the ranking service with rpckit's server runtime on
// loopback and returns a connection to it.
func startRanking(t *testing.T) *grpc.ClientConn {
	t.Helper()
	svc, err := ranking.New(testOptions)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Options{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	svc.Register(srv)
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	conn, err := grpc.NewClient(srv.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		<-done
	})
	return conn
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var evening = timestamppb.New(time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC))

func reqContext(user string) *rankingv1.RequestContext {
	return &rankingv1.RequestContext{UserId: user, Device: rankingv1.Device_DEVICE_TV, Country: "FR", Timestamp: evening}
}

func wantRanked(t *testing.T, items []*rankingv1.RankedItem, n int) {
	t.Helper()
	if len(items) != n {
		t.Fatalf("%d items, want %d", len(items), n)
	}
	for i, it := range items {
		if it.GetPosition() != uint32(i+1) || it.GetScore() <= 0 || it.GetScore() >= 1 || it.GetGenre() == "" {
			t.Errorf("item %d: %v", i, it)
		}
		if i > 0 && it.GetScore() > items[i-1].GetScore() {
			t.Errorf("item %d scores %v above item %d's %v", i, it.GetScore(), i-1, items[i-1].GetScore())
		}
	}
}

func TestRankFromCatalogue(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	req := &rankingv1.RankRequest{Context: reqContext("alice"), CandidateCount: 2000, Limit: 25}
	resp, err := client.Rank(testContext(t), req)
	if err != nil {
		t.Fatal(err)
	}
	wantRanked(t, resp.GetItems(), 25)
	if resp.GetCandidatesScored() != 2000 || resp.GetModelVersion() != ranking.ModelVersion {
		t.Errorf("scored %d with %q", resp.GetCandidatesScored(), resp.GetModelVersion())
	}
	again, _ := client.Rank(testContext(t), req)
	if !slices.EqualFunc(resp.GetItems(), again.GetItems(), func(a, b *rankingv1.RankedItem) bool {
		return a.GetItemId() == b.GetItemId() && a.GetScore() == b.GetScore()
	}) {
		t.Error("the same request ranked differently")
	}
	bob, _ := client.Rank(testContext(t), &rankingv1.RankRequest{Context: reqContext("bob"), CandidateCount: 2000, Limit: 25})
	if bob.GetItems()[0].GetItemId() == resp.GetItems()[0].GetItemId() && bob.GetItems()[1].GetItemId() == resp.GetItems()[1].GetItemId() {
		t.Error("two users got the same ranking")
	}
}

func TestRankCandidateIDs(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	ids := []uint32{7, 4999, 12, 300, 301, 302, 0}
	resp, err := client.Rank(testContext(t), &rankingv1.RankRequest{Context: reqContext("carol"), CandidateIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	wantRanked(t, resp.GetItems(), len(ids)) // default limit 10 > 7
	for _, it := range resp.GetItems() {
		if !slices.Contains(ids, it.GetItemId()) {
			t.Errorf("ranked %d, not a candidate", it.GetItemId())
		}
	}
}

// wantBadRequest checks err is INVALID_ARGUMENT naming field in a BadRequest.
func wantBadRequest(t *testing.T, err error, field string) {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument {
		t.Fatalf("got %v, want INVALID_ARGUMENT", err)
	}
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				if v.GetField() == field {
					return
				}
			}
			t.Fatalf("BadRequest %v does not name %s", br, field)
		}
	}
	t.Fatalf("%v has no BadRequest detail", err)
}

func TestRankErrors(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	ctx := testContext(t)
	bad := []struct {
		field string
		req   *rankingv1.RankRequest
	}{
		{"context", &rankingv1.RankRequest{CandidateCount: 10}},
		{"context.user_id", &rankingv1.RankRequest{Context: &rankingv1.RequestContext{}, CandidateCount: 10}},
		{"context.country", &rankingv1.RankRequest{Context: &rankingv1.RequestContext{UserId: "u", Country: "france"}, CandidateCount: 10}},
		{"context.device", &rankingv1.RankRequest{Context: &rankingv1.RequestContext{UserId: "u", Device: 99}, CandidateCount: 10}},
		{"candidate_ids", &rankingv1.RankRequest{Context: reqContext("u")}},
		{"candidate_count", &rankingv1.RankRequest{Context: reqContext("u"), CandidateIds: []uint32{1}, CandidateCount: 3}},
		{"candidate_ids[1]", &rankingv1.RankRequest{Context: reqContext("u"), CandidateIds: []uint32{1, 5000}}},
		{"limit", &rankingv1.RankRequest{Context: reqContext("u"), CandidateCount: 10, Limit: 201}},
	}
	for _, b := range bad {
		_, err := client.Rank(ctx, b.req)
		wantBadRequest(t, err, b.field)
	}
	_, err := client.Rank(ctx, &rankingv1.RankRequest{Context: reqContext("u"), CandidateCount: 3001})
	st := status.Convert(err)
	if st.Code() != codes.ResourceExhausted || len(st.Details()) != 1 {
		t.Fatalf("3001 candidates: %v, want RESOURCE_EXHAUSTED with a QuotaFailure", err)
	}
	if _, ok := st.Details()[0].(*errdetails.QuotaFailure); !ok {
		t.Errorf("detail %T, want QuotaFailure", st.Details()[0])
	}
}

func TestRankStreamPages(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	ctx := testContext(t)
	req := &rankingv1.RankRequest{Context: reqContext("dave"), CandidateCount: 1000, Limit: 23}
	want, err := client.Rank(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := client.RankStream(ctx, &rankingv1.RankStreamRequest{Request: req, PageSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []*rankingv1.RankedItem
	for page := uint32(0); ; page++ {
		p, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.GetPage() != page || p.GetLast() != (page == 4) || len(p.GetItems()) != min(5, 23-int(page)*5) {
			t.Errorf("page %d: number %d, last %v, %d items", page, p.GetPage(), p.GetLast(), len(p.GetItems()))
		}
		got = append(got, p.GetItems()...)
		if page > 10 {
			t.Fatal("too many pages")
		}
	}
	if !slices.EqualFunc(got, want.GetItems(), func(a, b *rankingv1.RankedItem) bool {
		return a.GetItemId() == b.GetItemId() && a.GetPosition() == b.GetPosition()
	}) {
		t.Error("pages do not add up to the Rank result")
	}
	bad, _ := client.RankStream(ctx, &rankingv1.RankStreamRequest{Request: &rankingv1.RankRequest{Context: reqContext("d")}})
	_, err = bad.Recv()
	wantBadRequest(t, err, "request.candidate_ids")
}

// genreShare counts the top items of genre g.
func genreShare(items []*rankingv1.RankedItem, g string) int {
	n := 0
	for _, it := range items {
		if it.GetGenre() == g {
			n++
		}
	}
	return n
}

// TestFeedbackShiftsRanking: clicks on one genre raise its share of the
// user's top titles.
func TestFeedbackShiftsRanking(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	ctx := testContext(t)
	req := &rankingv1.RankRequest{Context: reqContext("erin"), CandidateCount: 3000, Limit: 50}
	before, err := client.Rank(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// Find titles of the genre least represented in erin's top 50.
	pool, _ := client.Rank(ctx, &rankingv1.RankRequest{Context: reqContext("pool"), CandidateCount: 3000, Limit: 200})
	target := leastShown(before.GetItems(), pool.GetItems())
	stream, err := client.Feedback(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var clicks, impressions uint32
	for _, it := range pool.GetItems() {
		typ := rankingv1.FeedbackEvent_TYPE_IMPRESSION
		if it.GetGenre() == target {
			typ = rankingv1.FeedbackEvent_TYPE_CLICK
			clicks++
		} else {
			impressions++
		}
		if err := stream.Send(&rankingv1.FeedbackEvent{UserId: "erin", ItemId: it.GetItemId(), Type: typ}); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := stream.CloseAndRecv()
	if err != nil {
		t.Fatal(err)
	}
	if sum.GetClicks() != clicks || sum.GetImpressions() != impressions || sum.GetEvents() != clicks+impressions || sum.GetUsers() != 1 {
		t.Errorf("summary %v, want %d clicks %d impressions 1 user", sum, clicks, impressions)
	}
	after, _ := client.Rank(ctx, req)
	if b, a := genreShare(before.GetItems(), target), genreShare(after.GetItems(), target); a <= b {
		t.Errorf("%s titles in the top 50: %d before %d clicks, %d after", target, b, clicks, a)
	}
}

func leastShown(top, pool []*rankingv1.RankedItem) string {
	best, bestN := "", 1<<30
	for _, it := range pool {
		if n := genreShare(top, it.GetGenre()); n < bestN && genreShare(pool, it.GetGenre()) >= 5 {
			best, bestN = it.GetGenre(), n
		}
	}
	return best
}

func TestFeedbackBadEvent(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	stream, err := client.Feedback(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	events := []*rankingv1.FeedbackEvent{
		{UserId: "f", ItemId: 1, Type: rankingv1.FeedbackEvent_TYPE_CLICK},
		{UserId: "f", ItemId: 2, Type: rankingv1.FeedbackEvent_TYPE_IMPRESSION},
		{UserId: "f", ItemId: 99999, Type: rankingv1.FeedbackEvent_TYPE_CLICK},
	}
	for _, ev := range events {
		if err := stream.Send(ev); err != nil {
			break // the server may end the stream first
		}
	}
	_, err = stream.CloseAndRecv()
	wantBadRequest(t, err, "events[2].item_id")
}

func TestAutoplay(t *testing.T) {
	client := rankingv1.NewRankingServiceClient(startRanking(t))
	stream, err := client.Autoplay(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	rc := reqContext("gus")
	send := func(item uint32, a rankingv1.PlaybackEvent_Action, p float32) {
		t.Helper()
		if err := stream.Send(&rankingv1.PlaybackEvent{Context: rc, ItemId: item, Action: a, Progress: p}); err != nil {
			t.Fatal(err)
		}
	}
	send(42, rankingv1.PlaybackEvent_ACTION_START, 0)
	send(42, rankingv1.PlaybackEvent_ACTION_PROGRESS, 0.5)
	send(42, rankingv1.PlaybackEvent_ACTION_COMPLETE, 1)
	sug, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if sug.GetAfterItemId() != 42 || sug.GetNext() == nil || sug.GetNext().GetItemId() == 42 || len(sug.GetAlternatives()) != 3 {
		t.Fatalf("suggestion after 42: %v", sug)
	}
	wantRanked(t, append([]*rankingv1.RankedItem{sug.GetNext()}, sug.GetAlternatives()...), 4)
	next := sug.GetNext().GetItemId()
	send(next, rankingv1.PlaybackEvent_ACTION_SKIP, 0.1)
	sug, err = stream.Recv()
	if err != nil || sug.GetAfterItemId() != next || sug.GetNext().GetItemId() == next {
		t.Fatalf("suggestion after a skip: %v, %v", sug, err)
	}
	send(1, rankingv1.PlaybackEvent_ACTION_UNSPECIFIED, 0)
	_, err = stream.Recv()
	wantBadRequest(t, err, "events[4].action")
}

func TestHealthServing(t *testing.T) {
	conn := startRanking(t)
	resp, err := healthpb.NewHealthClient(conn).Check(testContext(t), &healthpb.HealthCheckRequest{Service: ranking.ServiceName})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health of %s: %v, %v", ranking.ServiceName, resp, err)
	}
}

func TestOptionsRejected(t *testing.T) {
	for _, o := range []ranking.Options{{CatalogueSize: -1}, {EmbeddingDim: 5000}, {MaxCandidates: -2}} {
		if _, err := ranking.New(o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
}
