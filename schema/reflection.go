package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// ReflectionOptions configures a reflection Source. The zero value asks
// grpc.reflection.v1 and falls back to v1alpha.
type ReflectionOptions struct {
	// Header is sent as metadata on the reflection stream.
	Header metadata.MD
	// V1AlphaOnly skips the v1 service, for servers known to lack it.
	V1AlphaOnly bool
}

// Reflection returns a Source that asks the server over conn. Files are
// fetched on demand and cached; one reflection stream serves all requests.
func Reflection(conn grpc.ClientConnInterface, opts ReflectionOptions) *ReflectionSource {
	return &ReflectionSource{conn: conn, opts: opts, reg: new(protoregistry.Files)}
}

// ReflectionSource is the Source returned by Reflection.
type ReflectionSource struct {
	conn grpc.ClientConnInterface
	opts ReflectionOptions

	mu       sync.Mutex
	stream   reflStream
	cancel   context.CancelFunc
	version  string
	reg      *protoregistry.Files
	services []protoreflect.FullName
}

// Version reports which reflection service answered ("v1" or "v1alpha"),
// or "" before the first request.
func (r *ReflectionSource) Version() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

// Close ends the reflection stream.
func (r *ReflectionSource) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reset()
}

func (r *ReflectionSource) reset() {
	if r.cancel != nil {
		r.cancel()
	}
	r.stream, r.cancel = nil, nil
}

// Services lists the services the server reports.
func (r *ReflectionSource) Services(ctx context.Context) ([]protoreflect.FullName, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listServices(ctx)
}

func (r *ReflectionSource) listServices(ctx context.Context) ([]protoreflect.FullName, error) {
	if r.services != nil {
		return r.services, nil
	}
	resp, err := r.ask(ctx, &rpb.ServerReflectionRequest{
		MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"},
	})
	if err != nil {
		return nil, err
	}
	var names []protoreflect.FullName
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, protoreflect.FullName(s.GetName()))
	}
	slices.Sort(names)
	r.services = names
	return names, nil
}

// FindSymbol fetches the file that defines name, with its imports.
func (r *ReflectionSource) FindSymbol(ctx context.Context, name protoreflect.FullName) (protoreflect.Descriptor, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.findSymbol(ctx, name)
}

func (r *ReflectionSource) findSymbol(ctx context.Context, name protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := findInFiles(r.reg, name); err == nil {
		return d, nil
	}
	err := r.fileContaining(ctx, name)
	if errors.Is(err, ErrNotFound) && name.Parent() != "" {
		// Some servers index only top-level symbols; try the enclosing one.
		err = r.fileContaining(ctx, name.Parent())
	}
	if err != nil {
		return nil, err
	}
	return findInFiles(r.reg, name)
}

// Files returns the files fetched so far, with their imports.
func (r *ReflectionSource) Files(context.Context) (*protoregistry.Files, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reg, nil
}

func (r *ReflectionSource) fileContaining(ctx context.Context, name protoreflect.FullName) error {
	resp, err := r.ask(ctx, &rpb.ServerReflectionRequest{
		MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: string(name)},
	})
	if err != nil {
		return err
	}
	if e := resp.GetErrorResponse(); e != nil {
		return reflectionError(e, fmt.Sprintf("symbol %q", name))
	}
	fdps, err := decodeFiles(resp.GetFileDescriptorResponse().GetFileDescriptorProto())
	if err != nil {
		return err
	}
	if len(fdps) == 0 {
		return fmt.Errorf("schema: reflection: symbol %q: empty file descriptor response", name)
	}
	b := newBuilder(r.reg)
	b.add(fdps...)
	b.fetch = func(file string) error { return r.fetchFile(ctx, b, file) }
	_, err = b.build(fdps[0].GetName())
	return err
}

func (r *ReflectionSource) fetchFile(ctx context.Context, b *builder, name string) error {
	resp, err := r.ask(ctx, &rpb.ServerReflectionRequest{
		MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: name},
	})
	if err != nil {
		return err
	}
	if e := resp.GetErrorResponse(); e != nil {
		return reflectionError(e, fmt.Sprintf("file %q", name))
	}
	fdps, err := decodeFiles(resp.GetFileDescriptorResponse().GetFileDescriptorProto())
	if err != nil {
		return err
	}
	b.add(fdps...)
	return nil
}

func decodeFiles(raw [][]byte) ([]*descriptorpb.FileDescriptorProto, error) {
	out := make([]*descriptorpb.FileDescriptorProto, 0, len(raw))
	for _, b := range raw {
		fdp := new(descriptorpb.FileDescriptorProto)
		if err := proto.Unmarshal(b, fdp); err != nil {
			return nil, fmt.Errorf("schema: reflection: %w", err)
		}
		out = append(out, fdp)
	}
	return out, nil
}

func reflectionError(e *rpb.ErrorResponse, what string) error {
	if codes.Code(e.GetErrorCode()) == codes.NotFound {
		return fmt.Errorf("schema: reflection: %s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("schema: reflection: %s: %s: %s", what, codes.Code(e.GetErrorCode()), e.GetErrorMessage())
}

// ask sends one request and reads its answer, opening the stream (v1, then
// v1alpha) on first use. The stream outlives ctx, but ctx ending ends the
// request: the stream is cancelled, and opened again by the next one.
func (r *ReflectionSource) ask(ctx context.Context, req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
	resp, err := r.askStream(ctx, req)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("schema: reflection: %w", context.Cause(ctx))
	}
	return resp, err
}

func (r *ReflectionSource) askStream(ctx context.Context, req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
	if r.stream == nil {
		if err := r.open(ctx, !r.opts.V1AlphaOnly); err != nil {
			return nil, err
		}
	}
	resp, err := r.roundTrip(ctx, req)
	if status.Code(err) == codes.Unimplemented && r.version == "v1" {
		r.reset()
		if err := r.open(ctx, false); err != nil {
			return nil, err
		}
		resp, err = r.roundTrip(ctx, req)
	}
	if err != nil {
		r.reset()
		return nil, fmt.Errorf("schema: reflection: %w", err)
	}
	return resp, nil
}

func (r *ReflectionSource) roundTrip(ctx context.Context, req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
	defer context.AfterFunc(ctx, r.cancel)()
	if err := r.stream.Send(req); err != nil {
		// The cause of a failed send is reported by Recv.
		if _, rerr := r.stream.Recv(); rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	return r.stream.Recv()
}

func (r *ReflectionSource) open(ctx context.Context, v1 bool) error {
	// The stream outlives the call that opened it, but not its values.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if len(r.opts.Header) > 0 {
		sctx = metadata.NewOutgoingContext(sctx, r.opts.Header)
	}
	defer context.AfterFunc(ctx, cancel)()
	var err error
	if v1 {
		r.stream, err = rpb.NewServerReflectionClient(r.conn).ServerReflectionInfo(sctx)
		r.version = "v1"
	} else {
		var s rpbalpha.ServerReflection_ServerReflectionInfoClient
		s, err = rpbalpha.NewServerReflectionClient(r.conn).ServerReflectionInfo(sctx)
		r.stream, r.version = alphaStream{s}, "v1alpha"
	}
	if err != nil {
		cancel()
		r.stream = nil
		return fmt.Errorf("schema: reflection: %w", err)
	}
	r.cancel = cancel
	return nil
}

type reflStream interface {
	Send(*rpb.ServerReflectionRequest) error
	Recv() (*rpb.ServerReflectionResponse, error)
}

// alphaStream speaks v1alpha with v1 messages; the two are wire-identical.
type alphaStream struct {
	s rpbalpha.ServerReflection_ServerReflectionInfoClient
}

func (a alphaStream) Send(req *rpb.ServerReflectionRequest) error {
	//lint:ignore SA1019 v1alpha is the fallback for servers that lack v1
	var out rpbalpha.ServerReflectionRequest
	if err := convert(req, &out); err != nil {
		return err
	}
	return a.s.Send(&out)
}

func (a alphaStream) Recv() (*rpb.ServerReflectionResponse, error) {
	in, err := a.s.Recv()
	if err != nil {
		return nil, err
	}
	out := new(rpb.ServerReflectionResponse)
	return out, convert(in, out)
}

func convert(from, to proto.Message) error {
	b, err := proto.Marshal(from)
	if err != nil {
		return err
	}
	return proto.Unmarshal(b, to)
}
