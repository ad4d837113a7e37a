// Command gwbench holds the pieces of bench/gateway_vs_grpc_gateway.sh:
//
//	gwbench upstream                   serve rpckit.gwtest.v1.Everything/Echo and reflection
//	gwbench grpc-gateway -upstream A   serve grpc-gateway's generated proxy of it
//	gwbench vanguard -upstream A       serve Vanguard (REST and Connect) in front of it
//	gwbench medium [-proto]            print the Medium fixture message as JSON
//	                                   (or in the wire format)
//
// The servers listen on 127.0.0.1:0, print their address on stdout and run
// until SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"connectrpc.com/vanguard"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	gwtestv1 "github.com/rpckit/rpckit/internal/gen/rpckit/gwtest/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/reflection"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gwbench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("want upstream, grpc-gateway, vanguard or medium")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "upstream":
		return upstream(ctx)
	case "grpc-gateway":
		return grpcGatewayCmd(ctx, args[1:])
	case "vanguard":
		return vanguardCmd(ctx, args[1:])
	case "medium":
		return printMedium(args[1:])
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// grpcGatewayCmd reads grpc-gateway's flags and serves it.
func grpcGatewayCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("grpc-gateway", flag.ContinueOnError)
	addr := fs.String("upstream", "", "the upstream's address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return grpcGateway(ctx, *addr)
}

// vanguardCmd reads Vanguard's flags and serves it.
func vanguardCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("vanguard", flag.ContinueOnError)
	addr := fs.String("upstream", "", "the upstream's address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, err := vanguardHandler(*addr)
	if err != nil {
		return err
	}
	return serveHTTP(ctx, h)
}

// printMedium writes the Medium fixture as JSON, or with -proto in the
// wire format.
func printMedium(args []string) error {
	marshal := protojson.Marshal
	if len(args) > 0 && args[0] == "-proto" {
		marshal = proto.Marshal
	}
	b, err := marshal(fixture.Medium())
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}

// echo answers Echo with its request.
type echo struct {
	gwtestv1.UnimplementedEverythingServer
}

func (echo) Echo(_ context.Context, m *fixturev1.Medium) (*fixturev1.Medium, error) { return m, nil }

func upstream(ctx context.Context) error {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := grpc.NewServer()
	gwtestv1.RegisterEverythingServer(srv, echo{})
	reflection.Register(srv)
	fmt.Println(lis.Addr())
	go func() { <-ctx.Done(); srv.Stop() }()
	return srv.Serve(lis)
}

func grpcGateway(ctx context.Context, addr string) error {
	mux := runtime.NewServeMux()
	dial := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if err := gwtestv1.RegisterEverythingHandlerFromEndpoint(ctx, mux, addr, dial); err != nil {
		return err
	}
	return serveHTTP(ctx, mux)
}

// serveHTTP serves h on a loopback port it prints, HTTP/1.1 and h2c,
// until ctx ends.
func serveHTTP(ctx context.Context, h http.Handler) error {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	fmt.Println(lis.Addr())
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(lis); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// vanguardHandler is Vanguard's transcoder in front of the gRPC upstream
// at addr, reached through a reverse proxy over h2c: proto to the
// upstream, no compression, as rpckit's gateway sends.
func vanguardHandler(addr string) (http.Handler, error) {
	tr := &http.Transport{Protocols: new(http.Protocols), MaxIdleConnsPerHost: 100}
	tr.Protocols.SetUnencryptedHTTP2(true)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: addr})
	proxy.Transport = tr
	svc := vanguard.NewService("rpckit.gwtest.v1.Everything", proxy,
		vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
		vanguard.WithTargetCodecs(vanguard.CodecProto),
		vanguard.WithNoTargetCompression())
	return vanguard.NewTranscoder([]*vanguard.Service{svc})
}
