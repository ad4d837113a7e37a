// Package gwtest serves rpckit.gwtest.v1.Everything for the gateway's
// differential test against grpc-gateway: answers computed from the
// request alone, so both gateways in front of it can be compared.
package gwtest

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	gwtestv1 "github.com/rpckit/rpckit/internal/gen/rpckit/gwtest/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// Service implements Everything. Every call sends the response header
// x-resp-h and trailer x-resp-t; items carry, as labels, the request
// metadata the server saw under "authorization", "x-request-id",
// "x-forwarded-for" and "x-echo-*".
type Service struct {
	gwtestv1.UnimplementedEverythingServer
}

func (Service) GetItem(ctx context.Context, req *gwtestv1.GetItemRequest) (*gwtestv1.Item, error) {
	sendMetadata(ctx)
	if err := failFor(req.GetName()); err != nil {
		return nil, err
	}
	return &gwtestv1.Item{
		Name: req.GetName(), DisplayName: "Item " + path.Base(req.GetName()),
		Kind: gwtestv1.Kind_KIND_BOOK, Labels: seenMetadata(ctx),
	}, nil
}

func (Service) ListItems(ctx context.Context, req *gwtestv1.ListItemsRequest) (*gwtestv1.ListItemsResponse, error) {
	sendMetadata(ctx)
	item := &gwtestv1.Item{Name: req.GetParent() + "/items/1", Ttl: durationpb.New(0)}
	return &gwtestv1.ListItemsResponse{Items: []*gwtestv1.Item{item}, Request: req}, nil
}

func (Service) CreateItem(ctx context.Context, req *gwtestv1.CreateItemRequest) (*gwtestv1.Item, error) {
	sendMetadata(ctx)
	item := cloneItem(req.GetItem())
	item.Name = req.GetParent() + "/items/" + req.GetItemId()
	return item, nil
}

func (Service) UpdateItem(ctx context.Context, req *gwtestv1.UpdateItemRequest) (*gwtestv1.Item, error) {
	sendMetadata(ctx)
	if err := failFor(req.GetItem().GetName()); err != nil && !req.GetAllowMissing() {
		return nil, err
	}
	item := cloneItem(req.GetItem())
	if m := req.GetUpdateMask(); m != nil {
		item.UpdateMask = &fieldmaskpb.FieldMask{Paths: slices.Sorted(slices.Values(m.GetPaths()))}
	}
	if req.GetAllowMissing() {
		item.Labels = map[string]string{"allow_missing": "true"}
	}
	return item, nil
}

func (Service) DeleteItem(ctx context.Context, req *gwtestv1.GetItemRequest) (*emptypb.Empty, error) {
	sendMetadata(ctx)
	return &emptypb.Empty{}, failFor(req.GetName())
}

func (Service) ArchiveItem(ctx context.Context, req *gwtestv1.ArchiveItemRequest) (*gwtestv1.ArchiveItemResponse, error) {
	sendMetadata(ctx)
	if err := failFor(req.GetName()); err != nil {
		return nil, err
	}
	item := &gwtestv1.Item{Name: req.GetName(), Archived: true}
	return &gwtestv1.ArchiveItemResponse{Item: item, Reason: req.GetReason()}, nil
}

func (Service) GetFile(ctx context.Context, req *gwtestv1.GetFileRequest) (*gwtestv1.File, error) {
	sendMetadata(ctx)
	return &gwtestv1.File{Path: req.GetPath(), Size: int64(len(req.GetPath()))}, nil
}

func (Service) Lookup(ctx context.Context, req *gwtestv1.LookupRequest) (*gwtestv1.LookupRequest, error) {
	sendMetadata(ctx)
	return req, nil
}

func (Service) WatchItems(req *gwtestv1.WatchItemsRequest, stream grpc.ServerStreamingServer[gwtestv1.Item]) error {
	sendMetadata(stream.Context())
	if err := failFor(req.GetParent()); err != nil {
		return err
	}
	for i := range req.GetCount() {
		if req.GetFailAfter() > 0 && i == req.GetFailAfter() {
			return withDetails(codes.NotFound, fmt.Sprintf("item %d is gone", i+1),
				&errdetails.ResourceInfo{ResourceType: "item", ResourceName: fmt.Sprint(i + 1)})
		}
		if err := stream.Send(&gwtestv1.Item{Name: fmt.Sprintf("%s/items/%d", req.GetParent(), i+1), Views: int64(i)}); err != nil {
			return err
		}
	}
	return nil
}

func (Service) Echo(_ context.Context, req *fixturev1.Medium) (*fixturev1.Medium, error) {
	return req, nil
}

func cloneItem(it *gwtestv1.Item) *gwtestv1.Item {
	if it == nil {
		return &gwtestv1.Item{}
	}
	return proto.Clone(it).(*gwtestv1.Item)
}

// failFor fails a call on a name ending in a status's keyword.
func failFor(name string) error {
	switch {
	case strings.HasSuffix(name, "missing"):
		return withDetails(codes.NotFound, name+" not found",
			&errdetails.ResourceInfo{ResourceType: "item", ResourceName: name, Description: "no such item"},
			&errdetails.ErrorInfo{Reason: "ITEM_MISSING", Domain: "gwtest.rpckit.dev", Metadata: map[string]string{"name": name}})
	case strings.HasSuffix(name, "denied"):
		return withDetails(codes.PermissionDenied, "not yours",
			&errdetails.ErrorInfo{Reason: "NOT_OWNER", Domain: "gwtest.rpckit.dev"})
	case strings.HasSuffix(name, "invalid"):
		return withDetails(codes.InvalidArgument, "bad name",
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "name", Description: "ends in invalid"}}})
	case strings.HasSuffix(name, "unavailable"):
		return withDetails(codes.Unavailable, "try later", &errdetails.RetryInfo{RetryDelay: durationpb.New(2e9)})
	}
	return nil
}

func withDetails(c codes.Code, msg string, details ...proto.Message) error {
	st := status.New(c, msg)
	var v1 []protoadapt.MessageV1
	for _, d := range details {
		v1 = append(v1, protoadapt.MessageV1Of(d))
	}
	st, err := st.WithDetails(v1...)
	if err != nil {
		return status.Errorf(codes.Internal, "gwtest: details: %v", err)
	}
	return st.Err()
}

func sendMetadata(ctx context.Context) {
	_ = grpc.SetHeader(ctx, metadata.Pairs("x-resp-h", "h"))
	_ = grpc.SetTrailer(ctx, metadata.Pairs("x-resp-t", "t"))
}

// seenMetadata is the request metadata the labels show.
func seenMetadata(ctx context.Context) map[string]string {
	md, _ := metadata.FromIncomingContext(ctx)
	out := map[string]string{}
	for k, vs := range md {
		if k == "authorization" || k == "x-request-id" || k == "x-forwarded-for" || strings.HasPrefix(k, "x-echo-") {
			out[k] = strings.Join(vs, ",")
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
