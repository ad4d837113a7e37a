package ranking

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
)

// maxViolations bounds the field violations one error lists.
const maxViolations = 10

// violations collects what is wrong with a request.
type violations []*errdetails.BadRequest_FieldViolation

func (v *violations) add(field, format string, args ...any) {
	if len(*v) < maxViolations {
		*v = append(*v, &errdetails.BadRequest_FieldViolation{Field: field, Description: fmt.Sprintf(format, args...)})
	}
}

// err returns INVALID_ARGUMENT with a google.rpc.BadRequest detail, or nil
// when nothing was found.
func (v violations) err() error {
	if len(v) == 0 {
		return nil
	}
	st := status.New(codes.InvalidArgument, fmt.Sprintf("ranking: invalid request: %s: %s", v[0].Field, v[0].Description))
	return withDetail(st, &errdetails.BadRequest{FieldViolations: v})
}

// tooManyCandidates returns RESOURCE_EXHAUSTED with a QuotaFailure detail.
func tooManyCandidates(n, limit int) error {
	st := status.New(codes.ResourceExhausted, fmt.Sprintf("ranking: %d candidates, more than the limit of %d", n, limit))
	return withDetail(st, &errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{{
		Subject:     "candidates",
		Description: fmt.Sprintf("at most %d candidates per request", limit),
	}}})
}

func withDetail(st *status.Status, detail protoadapt.MessageV1) error {
	withD, err := st.WithDetails(detail)
	if err != nil {
		return st.Err()
	}
	return withD.Err()
}

// contextStatus turns a context error met mid-scoring into its status:
// DEADLINE_EXCEEDED or CANCELED.
func contextStatus(err error) error {
	st := status.FromContextError(err)
	return status.Error(st.Code(), "ranking: "+st.Message())
}
