package ranking

import (
	"fmt"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
)

const maxUserIDLen = 128

// checkContext validates a request context under the field path prefix.
func checkContext(v *violations, prefix string, rc *rankingv1.RequestContext) {
	if rc == nil {
		v.add(prefix, "required")
		return
	}
	checkUserID(v, prefix+".user_id", rc.GetUserId())
	if c := rc.GetCountry(); c != "" && !isCountryCode(c) {
		v.add(prefix+".country", "%q is not an ISO 3166-1 alpha-2 code", c)
	}
	if _, ok := rankingv1.Device_name[int32(rc.GetDevice())]; !ok {
		v.add(prefix+".device", "unknown device %d", rc.GetDevice())
	}
	if _, ok := rankingv1.Platform_name[int32(rc.GetPlatform())]; !ok {
		v.add(prefix+".platform", "unknown platform %d", rc.GetPlatform())
	}
}

func checkUserID(v *violations, field, id string) {
	switch {
	case id == "":
		v.add(field, "required")
	case len(id) > maxUserIDLen:
		v.add(field, "longer than %d bytes", maxUserIDLen)
	}
}

func isCountryCode(c string) bool {
	return len(c) == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z'
}

// checkRank checks a Rank request; prefix is "" or "request." when it is
// nested in a RankStream request. Too many candidates is
// RESOURCE_EXHAUSTED, anything else wrong INVALID_ARGUMENT.
func (s *Service) checkRank(req *rankingv1.RankRequest, prefix string) error {
	var v violations
	checkContext(&v, prefix+"context", req.GetContext())
	ids, count := req.GetCandidateIds(), int(req.GetCandidateCount())
	switch {
	case len(ids) > 0 && count > 0:
		v.add(prefix+"candidate_count", "give candidate_ids or candidate_count, not both")
	case len(ids) == 0 && count == 0:
		v.add(prefix+"candidate_ids", "give candidate_ids or a positive candidate_count")
	case count > s.cat.size():
		v.add(prefix+"candidate_count", "%d is more than the %d titles of the catalogue", count, s.cat.size())
	}
	if int(req.GetLimit()) > s.opts.MaxLimit {
		v.add(prefix+"limit", "%d is more than the maximum of %d", req.GetLimit(), s.opts.MaxLimit)
	}
	if n := max(len(ids), count); n > s.opts.MaxCandidates && len(v) == 0 {
		return tooManyCandidates(n, s.opts.MaxCandidates)
	}
	s.checkIDs(&v, prefix+"candidate_ids", ids)
	return v.err()
}

// checkIDs reports candidate ids outside the catalogue.
func (s *Service) checkIDs(v *violations, field string, ids []uint32) {
	for i, id := range ids {
		if int(id) >= s.cat.size() {
			v.add(fmt.Sprintf("%s[%d]", field, i), "no title %d in a catalogue of %d", id, s.cat.size())
		}
	}
}

func (s *Service) validateRankStream(req *rankingv1.RankStreamRequest) error {
	if req.GetRequest() == nil {
		var v violations
		v.add("request", "required")
		return v.err()
	}
	if int(req.GetPageSize()) > s.opts.MaxLimit {
		var v violations
		v.add("page_size", "%d is more than the maximum of %d", req.GetPageSize(), s.opts.MaxLimit)
		return v.err()
	}
	return s.checkRank(req.GetRequest(), "request.")
}

// checkItem reports a title id outside the catalogue.
func (s *Service) checkItem(v *violations, field string, id uint32) {
	if int(id) >= s.cat.size() {
		v.add(field, "no title %d in a catalogue of %d", id, s.cat.size())
	}
}
