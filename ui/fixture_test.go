// The fixture servers the ui's tests talk to: the rpckit test
// service in plaintext, TLS and mTLS (internal/rpctest), and a service of
// 500 methods compiled from .proto text at run time, for search. They live
// in test files so that the ui package itself imports nothing of rpckit's
// internals.
package ui

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// fixtureServers are the running fixtures.
type fixtureServers struct {
	Plain, TLS, MTLS, Wide string // host:port
	Certs                  *rpctest.Certs
	Dir                    string // certificates and protos live here
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
	for _, f := range []struct {
		addr *string
		opts rpctest.Options
	}{{&s.Plain, rpctest.Options{}}, {&s.TLS, rpctest.Options{TLS: certs.ServerTLS(false)}}, {&s.MTLS, rpctest.Options{TLS: certs.ServerTLS(true)}}} {
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
	return s, nil
}

// Stop stops every server.
func (s *fixtureServers) Stop() {
	for _, stop := range s.stops {
		stop()
	}
	s.stops = nil
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
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go srv.Serve(lis)
	s.stops = append(s.stops, srv.Stop)
	return lis.Addr().String(), nil
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
