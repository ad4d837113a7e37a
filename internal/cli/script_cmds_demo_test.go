package cli_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
)

// More script commands, for serve's shutdown and logs:
//
//	reflhold ADDR             opens a reflection stream to ADDR, asks it one
//	                          question and keeps it open, idle
//	reflended WITHIN          waits at most WITHIN (a duration) for the
//	                          server to end the stream reflhold opened;
//	                          stdout gets the status it ended with
//	waithttp URL REGEXP       polls GET URL until its body matches REGEXP
//	                          (at most 20 s)
func init() {
	scriptCmds["reflhold"] = cmdReflHold
	scriptCmds["reflended"] = cmdReflEnded
	scriptCmds["waithttp"] = cmdWaitHTTP
}

// heldStreams are the reflection streams reflhold opened, by script.
var heldStreams sync.Map // *testscript.TestScript -> rpb.ServerReflection_ServerReflectionInfoClient

func cmdReflHold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reflhold ADDR")
	}
	conn, err := grpc.NewClient(args[0], grpc.WithTransportCredentials(insecure.NewCredentials()))
	ts.Check(err)
	ctx, cancel := context.WithCancel(context.Background())
	ts.Defer(func() { cancel(); conn.Close(); heldStreams.Delete(ts) })
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	ts.Check(err)
	ts.Check(stream.Send(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"}}))
	_, err = stream.Recv()
	ts.Check(err)
	heldStreams.Store(ts, stream)
}

func cmdReflEnded(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reflended WITHIN")
	}
	within, err := time.ParseDuration(args[0])
	ts.Check(err)
	v, ok := heldStreams.Load(ts)
	if !ok {
		ts.Fatalf("reflended: no stream held (reflhold first)")
	}
	ended := make(chan error, 1)
	go func() {
		_, err := v.(rpb.ServerReflection_ServerReflectionInfoClient).Recv()
		ended <- err
	}()
	select {
	case err := <-ended:
		fmt.Fprintln(ts.Stdout(), status.Code(err))
	case <-time.After(within):
		ts.Fatalf("reflended: the reflection stream is still open after %s", within)
	}
}

func cmdWaitHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waithttp URL REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := client.Get(args[0]); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if re.Match(body) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("waithttp %s: no %q within 20s", args[0], args[1])
}
