// The fixture servers the ui's tests talk to: the rpckit test
// service in plaintext (recording what it is sent), TLS and mTLS
// (internal/rpctest), and a service of 500 methods compiled from .proto
// text at run time, for search. They live in test files so that the ui
// package itself imports nothing of rpckit's internals.
package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// fixtureServers are the running fixtures.
type fixtureServers struct {
	Plain, TLS, MTLS, Wide string   // host:port
	Connect                string   // the test service on connect-go (rpctest.StartConnect)
	Protoset               string   // the test service's FileDescriptorSet, for Connect
	Thrift                 string   // the ranking service's Thrift side (framed binary)
	ThriftIDL              []string // its IDL files as the page uploads them (api.thrift first)
	Certs                  *rpctest.Certs
	Recorded               *recorder // the unary calls Plain was sent
	Dir                    string    // certificates and protos live here
	stops                  []func()
}

// startFixtures starts every fixture server on 127.0.0.1; dir receives the
// certificates (ca.pem, client.pem, client-key.pem).
func startFixtures(dir string) (*fixtureServers, error) {
	s := &fixtureServers{Dir: dir}
	certs, err := rpctest.MakeCerts(dir)
	if err != nil {
		return nil, err
	}
	s.Certs = certs
	if s.Plain, err = s.startRecorded(); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		addr *string
		opts rpctest.Options
	}{{&s.TLS, rpctest.Options{TLS: certs.ServerTLS(false)}}, {&s.MTLS, rpctest.Options{TLS: certs.ServerTLS(true)}}} {
		srv, err := rpctest.Start(f.opts)
		if err != nil {
			s.Stop()
			return nil, err
		}
		*f.addr = srv.Addr
		s.stops = append(s.stops, srv.Stop)
	}
	if s.Wide, err = s.startWide(); err != nil {
		s.Stop()
		return nil, err
	}
	if err := s.startConnect(); err != nil {
		s.Stop()
		return nil, err
	}
	if err := s.startThrift(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// startConnect serves the test service on connect-go and writes its
// protoset, as reflection is gRPC only.
func (s *fixtureServers) startConnect() error {
	srv, err := rpctest.StartConnect()
	if err != nil {
		return err
	}
	s.stops = append(s.stops, srv.Stop)
	s.Connect, s.Protoset = srv.Addr, filepath.Join(s.Dir, "test.protoset")
	return rpctest.WriteProtoset(s.Protoset)
}

// Stop stops every server.
func (s *fixtureServers) Stop() {
	for _, stop := range s.stops {
		stop()
	}
	s.stops = nil
}

// serve runs srv on 127.0.0.1 until the fixture stops, and returns its
// address.
func (s *fixtureServers) serve(srv *grpc.Server) (string, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go srv.Serve(lis)
	s.stops = append(s.stops, srv.Stop)
	return lis.Addr().String(), nil
}

// startRecorded serves the test service in plaintext, with reflection,
// recording every unary call it is sent.
func (s *fixtureServers) startRecorded() (string, error) {
	s.Recorded = &recorder{}
	srv := grpc.NewServer(grpc.UnaryInterceptor(s.Recorded.unary))
	testv1.RegisterTestServer(srv, rpctest.Service{})
	reflection.Register(srv)
	return s.serve(srv)
}

// recorded is one unary call as the server received it: the request in
// protojson and the metadata the caller chose (keys starting "x-").
type recorded struct {
	Seq      int64               `json:"seq"`
	Method   string              `json:"method"`
	Metadata map[string][]string `json:"metadata"`
	Request  json.RawMessage     `json:"request"`
}

// recorder keeps the last recorderSize calls.
type recorder struct {
	mu    sync.Mutex
	seq   int64
	calls []recorded
}

const recorderSize = 1024

func (r *recorder) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	js, err := protojson.Marshal(req.(proto.Message))
	if err != nil {
		return nil, err
	}
	md, _ := metadata.FromIncomingContext(ctx)
	chosen := map[string][]string{}
	for k, vs := range md {
		if strings.HasPrefix(k, "x-") {
			chosen[k] = vs
		}
	}
	r.mu.Lock()
	r.seq++
	r.calls = append(r.calls, recorded{Seq: r.seq, Method: info.FullMethod, Metadata: chosen, Request: js})
	if len(r.calls) > recorderSize {
		r.calls = append(r.calls[:0], r.calls[len(r.calls)-recorderSize:]...)
	}
	r.mu.Unlock()
	return next(ctx, req)
}

// after lists the calls recorded after sequence number seq.
func (r *recorder) after(seq int64) []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := []recorded{}
	for _, c := range r.calls {
		if c.Seq > seq {
			out = append(out, c)
		}
	}
	return out
}

// ServeHTTP answers GET /calls?after=N with the calls recorded since.
func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	seq, _ := strconv.ParseInt(req.URL.Query().Get("after"), 10, 64)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(r.after(seq))
}

// wideMethods is how many methods the wide service has.
const wideMethods = 500

var (
	wideVerbs = []string{"Get", "List", "Create", "Update", "Delete", "Watch", "Search", "Archive", "Restore", "Export",
		"Import", "Validate", "Approve", "Reject", "Publish", "Copy", "Move", "Lock", "Unlock", "Audit"}
	wideNouns = []string{"Account", "Budget", "Carrier", "Dataset", "Invoice", "Journal", "Ledger", "Mailbox", "Network",
		"Order", "Parcel", "Quota", "Report", "Shipment", "Ticket", "Upload", "Vendor", "Warehouse", "Widget", "Zone",
		"Bucket", "Cluster", "Device", "Folder", "Gateway"}
)

// wideProto is the .proto text of rpckit.wide.v1.Catalog.
func wideProto() string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage rpckit.wide.v1;\n\n")
	b.WriteString("message Request { string id = 1; int64 n = 2; }\nmessage Reply { string id = 1; string method = 2; }\n\n")
	b.WriteString("service Catalog {\n")
	for _, v := range wideVerbs {
		for _, n := range wideNouns {
			fmt.Fprintf(&b, "  rpc %s%s(Request) returns (Reply);\n", v, n)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func (s *fixtureServers) startWide() (string, error) {
	dir := filepath.Join(s.Dir, "wide")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "wide.proto"), []byte(wideProto()), 0o644); err != nil {
		return "", err
	}
	files, err := schema.CompileFiles(context.Background(), schema.CompileOptions{Files: []string{"wide.proto"}, ImportPaths: []string{dir}})
	if err != nil {
		return "", err
	}
	d, err := files.FindDescriptorByName("rpckit.wide.v1.Catalog")
	if err != nil {
		return "", err
	}
	srv := grpc.NewServer()
	srv.RegisterService(wideDesc(d.(protoreflect.ServiceDescriptor)), struct{}{})
	ropts := reflection.ServerOptions{Services: srv, DescriptorResolver: files, ExtensionResolver: protoregistry.GlobalTypes}
	rpb.RegisterServerReflectionServer(srv, reflection.NewServerV1(ropts))
	rpbalpha.RegisterServerReflectionServer(srv, reflection.NewServer(ropts))
	return s.serve(srv)
}

// wideDesc serves every method of sd with dynamic messages: the reply
// carries the request's id and the method's name.
func wideDesc(sd protoreflect.ServiceDescriptor) *grpc.ServiceDesc {
	desc := &grpc.ServiceDesc{ServiceName: string(sd.FullName()), HandlerType: (*any)(nil)}
	for i := range sd.Methods().Len() {
		md := sd.Methods().Get(i)
		desc.Methods = append(desc.Methods, grpc.MethodDesc{
			MethodName: string(md.Name()),
			Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				in := dynamicpb.NewMessage(md.Input())
				if err := dec(in); err != nil {
					return nil, err
				}
				out := dynamicpb.NewMessage(md.Output())
				out.Set(md.Output().Fields().ByName("id"), in.Get(md.Input().Fields().ByName("id")))
				out.Set(md.Output().Fields().ByName("method"), protoreflect.ValueOfString(string(md.Name())))
				return out, nil
			},
		})
	}
	return desc
}
