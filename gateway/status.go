package gateway

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/rpckit/rpckit/internal/bodytimeout"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// HTTPStatus maps a gRPC status code to the HTTP status REST clients
// expect (the mapping of google.rpc.Code and grpc-gateway).
func HTTPStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.Canceled:
		return 499 // client closed request
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError // Unknown, Internal, DataLoss
}

// clientFault is a request body the client got wrong in a way that has an
// HTTP status of its own, with the gRPC code that goes with it: the same
// answer on every route, whatever reads the body.
type clientFault struct {
	httpStatus int
	code       codes.Code
	msg        string
}

func (e *clientFault) Error() string { return e.msg }

func (e *clientFault) GRPCStatus() *status.Status { return status.New(e.code, e.msg) }

// bodyError is the error of reading a request body: past MaxBodyBytes,
// 413 RESOURCE_EXHAUSTED; too slow to arrive, 408 DEADLINE_EXCEEDED; else
// INVALID_ARGUMENT, after where when it is given.
func bodyError(err error, where string) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &clientFault{http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
			fmt.Sprintf("request body larger than %d bytes", tooBig.Limit)}
	}
	var slow *bodytimeout.Error
	if errors.As(err, &slow) {
		return &clientFault{http.StatusRequestTimeout, codes.DeadlineExceeded, slow.Error()}
	}
	if where == "" {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return status.Errorf(codes.InvalidArgument, "%s: %v", where, err)
}

// httpStatus is the HTTP status of a failed call: a client fault's own,
// else the status code's.
func httpStatus(err error, code codes.Code) int {
	var f *clientFault
	if errors.As(err, &f) {
		return f.httpStatus
	}
	return HTTPStatus(code)
}
