package invoke

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

// webStatus turns a connect-go error (a Connect error body, gRPC-Web
// trailers, or a transport failure) into the gRPC status error grpc-go
// would have given: code, message and details, so callError makes the
// same *Error of it.
func webStatus(err error) error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if !errors.As(err, &ce) {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return status.Error(codes.DeadlineExceeded, err.Error())
		case errors.Is(err, context.Canceled):
			return status.Error(codes.Canceled, err.Error())
		}
		return status.Error(codes.Unknown, err.Error())
	}
	p := &spb.Status{Code: int32(ce.Code()), Message: ce.Message()}
	for _, d := range ce.Details() {
		p.Details = append(p.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type(), Value: d.Bytes()})
	}
	return status.FromProto(p).Err()
}

// headerMD is HTTP headers as gRPC metadata: lowercase keys, -bin values
// decoded (kept as they are when they are not base64).
func headerMD(h http.Header) metadata.MD {
	md := make(metadata.MD, len(h))
	for k, vs := range h {
		k = strings.ToLower(k)
		for _, v := range vs {
			md[k] = append(md[k], decodeOrKeep(k, v))
		}
	}
	return md
}

// setHeaders copies the outgoing metadata of ctx into h, -bin values in
// base64.
func setHeaders(ctx context.Context, h http.Header) {
	md, _ := metadata.FromOutgoingContext(ctx)
	for k, vs := range md {
		for _, v := range vs {
			h.Add(k, encodeValue(k, v))
		}
	}
}

func encodeValue(key, v string) string {
	if strings.HasSuffix(key, "-bin") {
		return connect.EncodeBinaryHeader([]byte(v))
	}
	return v
}

func decodeOrKeep(key, v string) string {
	if strings.HasSuffix(key, "-bin") {
		if b, err := connect.DecodeBinaryHeader(v); err == nil {
			return string(b)
		}
	}
	return v
}

// webError is webStatus for a call under ctx. connect-go reports some
// broken connections (a write on a closed socket) as CANCELLED; unless ctx
// was cancelled, that is UNAVAILABLE, as grpc-go says.
func webError(ctx context.Context, err error) error {
	err = webStatus(err)
	if st, ok := status.FromError(err); ok && st.Code() == codes.Canceled && ctx.Err() == nil {
		return status.Error(codes.Unavailable, st.Message())
	}
	return err
}
