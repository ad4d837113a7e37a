package ranking

import (
	"context"
	"fmt"
	"io"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"google.golang.org/grpc"
)

// Autoplay tuning: how many titles are considered for the next one, how
// many alternatives come with it, and how much the title just played
// steers the choice against the user's long-term taste.
const (
	autoplayCandidates   = 2_000
	autoplayAlternatives = 3
	autoplayItemWeight   = 0.6
)

// Autoplay implements RankingService.Autoplay: playback events update the
// user's features (a completion draws the user toward the title, a skip
// away from it), and each COMPLETE or SKIP is answered with the next title.
func (s *Service) Autoplay(stream grpc.BidiStreamingServer[rankingv1.PlaybackEvent, rankingv1.Suggestion]) error {
	for i := 0; ; i++ {
		ev, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.checkPlayback(ev, fmt.Sprintf("events[%d]", i)); err != nil {
			return err
		}
		if !s.applyPlayback(ev) {
			continue
		}
		sug, err := s.suggest(stream.Context(), ev)
		if err != nil {
			return err
		}
		if err := stream.Send(sug); err != nil {
			return err
		}
	}
}

// checkPlayback checks a playback event whose field path is prefix.
func (s *Service) checkPlayback(ev *rankingv1.PlaybackEvent, prefix string) error {
	var v violations
	checkContext(&v, prefix+".context", ev.GetContext())
	s.checkItem(&v, prefix+".item_id", ev.GetItemId())
	if _, ok := rankingv1.PlaybackEvent_Action_name[int32(ev.GetAction())]; !ok || ev.GetAction() == 0 {
		v.add(prefix+".action", "want START, PROGRESS, COMPLETE or SKIP, got %v", ev.GetAction())
	}
	if p := ev.GetProgress(); !(p >= 0 && p <= 1) {
		v.add(prefix+".progress", "%v is not in [0, 1]", p)
	}
	return v.err()
}

// applyPlayback updates the user and reports whether the event asks for a
// suggestion.
func (s *Service) applyPlayback(ev *rankingv1.PlaybackEvent) bool {
	u := s.users.get(ev.GetContext().GetUserId())
	id := ev.GetItemId()
	g := s.cat.items[id].genre
	switch ev.GetAction() {
	case rankingv1.PlaybackEvent_ACTION_COMPLETE:
		u.engage(id, g, s.cat.vector(id), 1)
		return true
	case rankingv1.PlaybackEvent_ACTION_SKIP:
		u.engage(id, g, s.cat.vector(id), -0.5)
		return true
	}
	return false
}

// suggest ranks titles for what to play after ev's title: the query
// vector leans toward the title just played.
func (s *Service) suggest(ctx context.Context, ev *rankingv1.PlaybackEvent) (*rankingv1.Suggestion, error) {
	var q query
	q.setContext(ev.GetContext(), s.now())
	s.users.get(ev.GetContext().GetUserId()).snapshot(&q.user)
	id := ev.GetItemId()
	q.exclude, q.hasExcl = id, true
	w := float32(autoplayItemWeight)
	if ev.GetAction() == rankingv1.PlaybackEvent_ACTION_SKIP {
		w = 0 // a skipped title steers nothing
	}
	for d, v := range s.cat.vector(id) {
		q.user.emb[d] = (1-w)*q.user.emb[d] + w*v
	}
	normalize(q.user.emb)
	n := min(autoplayCandidates, s.cat.size())
	candidates := s.cat.draw(hashString(ev.GetContext().GetUserId())^uint64(id), n, make([]uint32, 0, n))
	ranked, err := s.ranker.rank(ctx, &q, candidates, 1+autoplayAlternatives)
	if err != nil {
		return nil, contextStatus(err)
	}
	sug := &rankingv1.Suggestion{AfterItemId: id}
	if items := s.items(ranked, 0); len(items) > 0 {
		sug.Next, sug.Alternatives = items[0], items[1:]
	}
	return sug, nil
}
