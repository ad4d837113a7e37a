package cli_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// scriptCmds are the scripts' own commands, for servers that the scripts
// start in the background:
//
//	freeport NAME...          sets each NAME to a free loopback TCP port
//	waithealth ADDR STATUS    polls grpc.health.v1 (whole server) at ADDR
//	                          until it reports STATUS (at most 20 s)
//	httpget URL               GET URL; stdout gets the status line and body
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"freeport":   cmdFreePort,
	"waithealth": cmdWaitHealth,
	"httpget":    cmdHTTPGet,
}

func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: freeport NAME...")
	}
	for _, name := range args {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		ts.Setenv(name, strconv.Itoa(lis.Addr().(*net.TCPAddr).Port))
		ts.Check(lis.Close())
	}
}

func cmdWaitHealth(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waithealth ADDR STATUS")
	}
	want, ok := healthpb.HealthCheckResponse_ServingStatus_value[args[1]]
	if !ok {
		ts.Fatalf("waithealth: unknown status %q", args[1])
	}
	conn, err := grpc.NewClient(args[0], grpc.WithTransportCredentials(insecure.NewCredentials()))
	ts.Check(err)
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	deadline := time.Now().Add(20 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
		cancel()
		if err == nil && int32(resp.GetStatus()) == want {
			return
		}
		last = fmt.Sprint(resp.GetStatus(), err)
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("waithealth %s: no %s within 20s (last: %s)", args[0], args[1], last)
}

func cmdHTTPGet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: httpget URL")
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(args[0])
	if err != nil {
		if neg {
			return
		}
		ts.Fatalf("httpget: %v", err)
	}
	defer resp.Body.Close()
	fmt.Fprintln(ts.Stdout(), resp.Status)
	_, err = io.Copy(ts.Stdout(), resp.Body)
	ts.Check(err)
	if (resp.StatusCode >= 400) != neg {
		ts.Fatalf("httpget %s: %s", args[0], resp.Status)
	}
}
