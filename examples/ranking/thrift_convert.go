package ranking

import (
	"errors"
	"fmt"
	"math"
	"time"

	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The Thrift structs are turned into the gRPC messages, which the service
// validates and ranks as it does for gRPC calls. Thrift has no unsigned
// integers: a negative id or count is a field violation here.

// unsigned returns n as a uint32, adding a violation when it is negative.
func unsigned(v *violations, field string, n int32) uint32 {
	if n < 0 {
		v.add(field, "%d is negative", n)
		return 0
	}
	return uint32(n)
}

// enum32 returns a Thrift enum value as the int32 of its proto twin; a
// value out of int32's range becomes -1, which no enum of the service has.
func enum32(n int64) int32 {
	if n < math.MinInt32 || n > math.MaxInt32 {
		return -1
	}
	return int32(n)
}

func timestampOf(ms *int64) *timestamppb.Timestamp {
	if ms == nil {
		return nil
	}
	return timestamppb.New(time.UnixMilli(*ms))
}

func fromThriftContext(rc *rt.RequestContext) *rankingv1.RequestContext {
	if rc == nil {
		return nil
	}
	return &rankingv1.RequestContext{
		UserId:    rc.UserID,
		Device:    rankingv1.Device(enum32(int64(rc.Device))),
		Platform:  rankingv1.Platform(enum32(int64(rc.Platform))),
		Country:   rc.Country,
		Timestamp: timestampOf(rc.TimestampMs),
	}
}

// fromThriftRank converts a Rank request whose field path is prefix ("" or
// "request.").
func fromThriftRank(v *violations, prefix string, req *rt.RankRequest) *rankingv1.RankRequest {
	if req == nil {
		req = &rt.RankRequest{}
	}
	out := &rankingv1.RankRequest{
		Context:        fromThriftContext(req.Context),
		CandidateCount: unsigned(v, prefix+"candidate_count", req.CandidateCount),
		Limit:          unsigned(v, prefix+"limit", req.Limit),
	}
	if len(req.CandidateIds) > 0 {
		out.CandidateIds = make([]uint32, len(req.CandidateIds))
		for i, id := range req.CandidateIds {
			out.CandidateIds[i] = unsigned(v, fmt.Sprintf("%scandidate_ids[%d]", prefix, i), id)
		}
	}
	return out
}

func fromThriftFeedback(v *violations, field string, ev *rt.FeedbackEvent) *rankingv1.FeedbackEvent {
	if ev == nil {
		ev = &rt.FeedbackEvent{}
	}
	return &rankingv1.FeedbackEvent{
		UserId:    ev.UserID,
		ItemId:    unsigned(v, field+".item_id", ev.ItemID),
		Type:      rankingv1.FeedbackEvent_Type(enum32(int64(ev.Type))),
		Timestamp: timestampOf(ev.TimestampMs),
	}
}

func fromThriftPlayback(v *violations, ev *rt.PlaybackEvent) *rankingv1.PlaybackEvent {
	if ev == nil {
		ev = &rt.PlaybackEvent{}
	}
	return &rankingv1.PlaybackEvent{
		Context:  fromThriftContext(ev.Context),
		ItemId:   unsigned(v, "event.item_id", ev.ItemID),
		Action:   rankingv1.PlaybackEvent_Action(enum32(int64(ev.Action))),
		Progress: float32(ev.Progress),
	}
}

func toThriftItems(items []*rankingv1.RankedItem) []*rt.RankedItem {
	out := make([]*rt.RankedItem, len(items))
	for i, it := range items {
		out[i] = toThriftItem(it)
	}
	return out
}

func toThriftItem(it *rankingv1.RankedItem) *rt.RankedItem {
	if it == nil {
		return nil
	}
	return &rt.RankedItem{
		ItemID: int32(it.GetItemId()), Score: float64(it.GetScore()),
		Position: int32(it.GetPosition()), Genre: it.GetGenre(),
	}
}

func toThriftSummary(sum *rankingv1.FeedbackSummary) *rt.FeedbackSummary {
	return &rt.FeedbackSummary{
		Events: int32(sum.GetEvents()), Impressions: int32(sum.GetImpressions()),
		Clicks: int32(sum.GetClicks()), Users: int32(sum.GetUsers()),
	}
}

// toThriftError turns the service's gRPC status into the method's declared
// exception: INVALID_ARGUMENT is InvalidRequest (with the BadRequest
// detail's violations), RESOURCE_EXHAUSTED QuotaExceeded. Anything else
// (a deadline, a cancellation) stays an error, which the processor sends
// as an application exception of type INTERNAL_ERROR.
func toThriftError(err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	switch st.Code() {
	case codes.InvalidArgument:
		return invalidRequest(st)
	case codes.ResourceExhausted:
		return quotaExceeded(st)
	}
	return errors.New(st.Message())
}

func invalidRequest(st *status.Status) *rt.InvalidRequest {
	out := &rt.InvalidRequest{Message: st.Message()}
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, fv := range br.GetFieldViolations() {
				out.Violations = append(out.Violations, &rt.FieldViolation{Field: fv.GetField(), Description: fv.GetDescription()})
			}
		}
	}
	return out
}

func quotaExceeded(st *status.Status) *rt.QuotaExceeded {
	out := &rt.QuotaExceeded{Message: st.Message()}
	for _, d := range st.Details() {
		if qf, ok := d.(*errdetails.QuotaFailure); ok && len(qf.GetViolations()) > 0 {
			out.Subject = qf.GetViolations()[0].GetSubject()
		}
	}
	return out
}
