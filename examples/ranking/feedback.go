package ranking

import (
	"fmt"
	"io"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"google.golang.org/grpc"
)

// maxSummaryUsers bounds the distinct users a Feedback summary counts
// exactly; past it the count stops growing.
const maxSummaryUsers = 1 << 16

// Feedback implements RankingService.Feedback: each event updates its
// user's features at once, so a Rank issued mid-stream already sees it.
// A bad event ends the stream with INVALID_ARGUMENT naming its index.
func (s *Service) Feedback(stream grpc.ClientStreamingServer[rankingv1.FeedbackEvent, rankingv1.FeedbackSummary]) error {
	t := newFeedbackTally()
	for i := 0; ; i++ {
		ev, err := stream.Recv()
		if err == io.EOF {
			return stream.SendAndClose(t.summary())
		}
		if err != nil {
			return err
		}
		if err := s.feedback(t, ev, i); err != nil {
			return err
		}
	}
}

// feedbackTally is the summary of the events of one Feedback call so far.
type feedbackTally struct {
	sum   rankingv1.FeedbackSummary
	users map[string]struct{}
}

func newFeedbackTally() *feedbackTally {
	return &feedbackTally{users: map[string]struct{}{}}
}

func (t *feedbackTally) summary() *rankingv1.FeedbackSummary {
	t.sum.Users = uint32(len(t.users))
	return &t.sum
}

// feedback checks event number i and applies it, counting it in t.
func (s *Service) feedback(t *feedbackTally, ev *rankingv1.FeedbackEvent, i int) error {
	if err := s.checkFeedback(ev, i); err != nil {
		return err
	}
	s.applyFeedback(ev, &t.sum)
	if len(t.users) < maxSummaryUsers {
		t.users[ev.GetUserId()] = struct{}{}
	}
	return nil
}

func (s *Service) checkFeedback(ev *rankingv1.FeedbackEvent, i int) error {
	var v violations
	field := func(name string) string { return fmt.Sprintf("events[%d].%s", i, name) }
	checkUserID(&v, field("user_id"), ev.GetUserId())
	s.checkItem(&v, field("item_id"), ev.GetItemId())
	switch ev.GetType() {
	case rankingv1.FeedbackEvent_TYPE_IMPRESSION, rankingv1.FeedbackEvent_TYPE_CLICK:
	default:
		v.add(field("type"), "want TYPE_IMPRESSION or TYPE_CLICK, got %v", ev.GetType())
	}
	return v.err()
}

func (s *Service) applyFeedback(ev *rankingv1.FeedbackEvent, sum *rankingv1.FeedbackSummary) {
	u := s.users.get(ev.GetUserId())
	id := ev.GetItemId()
	g := s.cat.items[id].genre
	sum.Events++
	if ev.GetType() == rankingv1.FeedbackEvent_TYPE_CLICK {
		u.engage(id, g, s.cat.vector(id), 1)
		sum.Clicks++
		return
	}
	u.impression(g)
	sum.Impressions++
}
