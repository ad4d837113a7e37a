package ranking

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
)

// thriftHandler serves the Thrift methods with the Service's validation
// and model, and counts the calls in flight for the server's drain.
type thriftHandler struct {
	s        *Service
	inflight atomic.Int64
}

var _ rt.RankingService = (*thriftHandler)(nil)

func (h *thriftHandler) begin() func() {
	h.inflight.Add(1)
	return func() { h.inflight.Add(-1) }
}

// Rank implements RankingService.Rank.
func (h *thriftHandler) Rank(ctx context.Context, req *rt.RankRequest) (*rt.RankResponse, error) {
	defer h.begin()()
	var v violations
	in := fromThriftRank(&v, "", req)
	if err := v.err(); err != nil {
		return nil, h.thriftError(err)
	}
	resp, err := h.s.Rank(ctx, in)
	if err != nil {
		return nil, h.thriftError(err)
	}
	return &rt.RankResponse{
		Items: toThriftItems(resp.GetItems()), CandidatesScored: int32(resp.GetCandidatesScored()),
		ModelVersion: resp.GetModelVersion(),
	}, nil
}

// RankPage implements RankingService.RankPage: RankStream's page number
// page. A page past the last is empty and marked last.
func (h *thriftHandler) RankPage(ctx context.Context, req *rt.RankRequest, pageSize, page int32) (*rt.RankPageResponse, error) {
	defer h.begin()()
	var v violations
	in := fromThriftRank(&v, "request.", req)
	size, p := int(unsigned(&v, "page_size", pageSize)), int(unsigned(&v, "page", page))
	if err := v.err(); err != nil {
		return nil, h.thriftError(err)
	}
	if err := h.s.validateRankStream(&rankingv1.RankStreamRequest{Request: in, PageSize: uint32(size)}); err != nil {
		return nil, h.thriftError(err)
	}
	ranked, _, err := h.s.rank(ctx, in)
	if err != nil {
		return nil, h.thriftError(err)
	}
	size = limitOf(uint32(size))
	first := min(p*size, len(ranked))
	end := min(first+size, len(ranked))
	return &rt.RankPageResponse{
		Items: toThriftItems(h.s.items(ranked[first:end], first)), Page: int32(p), Last: end == len(ranked),
	}, nil
}

// Feedback implements RankingService.Feedback: the events are applied in
// order, as the gRPC stream's are; a bad one ends the call.
func (h *thriftHandler) Feedback(_ context.Context, events []*rt.FeedbackEvent) (*rt.FeedbackSummary, error) {
	defer h.begin()()
	t := newFeedbackTally()
	for i, ev := range events {
		var v violations
		in := fromThriftFeedback(&v, fmt.Sprintf("events[%d]", i), ev)
		if err := v.err(); err != nil {
			return nil, h.thriftError(err)
		}
		if err := h.s.feedback(t, in, i); err != nil {
			return nil, h.thriftError(err)
		}
	}
	return toThriftSummary(t.summary()), nil
}

// Record implements RankingService.Record, oneway: a bad event is logged
// at debug level and dropped, as no reply can carry the error.
func (h *thriftHandler) Record(_ context.Context, ev *rt.FeedbackEvent) error {
	defer h.begin()()
	var v violations
	in := fromThriftFeedback(&v, "event", ev)
	err := v.err()
	if err == nil {
		err = h.s.feedback(newFeedbackTally(), in, 0)
	}
	if err != nil {
		h.s.opts.Logger.Debug("ranking: Record dropped an event", slog.Any("error", err))
	}
	return nil
}

// Autoplay implements RankingService.Autoplay for one playback event.
func (h *thriftHandler) Autoplay(ctx context.Context, ev *rt.PlaybackEvent) (*rt.Suggestion, error) {
	defer h.begin()()
	var v violations
	in := fromThriftPlayback(&v, ev)
	if err := v.err(); err != nil {
		return nil, h.thriftError(err)
	}
	if err := h.s.checkPlayback(in, "event"); err != nil {
		return nil, h.thriftError(err)
	}
	if !h.s.applyPlayback(in) {
		return &rt.Suggestion{AfterItemID: int32(in.GetItemId()), Alternatives: []*rt.RankedItem{}}, nil
	}
	sug, err := h.s.suggest(ctx, in)
	if err != nil {
		return nil, h.thriftError(err)
	}
	return &rt.Suggestion{
		AfterItemID: int32(sug.GetAfterItemId()), NextItem: toThriftItem(sug.GetNext()),
		Alternatives: toThriftItems(sug.GetAlternatives()),
	}, nil
}

// thriftError is toThriftError with the service's candidate limit filled
// in a QuotaExceeded.
func (h *thriftHandler) thriftError(err error) error {
	err = toThriftError(err)
	var q *rt.QuotaExceeded
	if errors.As(err, &q) {
		q.Limit = int32(min(h.s.opts.MaxCandidates, 1<<31-1))
	}
	return err
}
