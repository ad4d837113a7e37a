package cli_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["edgehttp"] = cmdEdgeHTTP
}

// cmdEdgeHTTP serves HTTP/1.1 responses at the edges of bench's HTTP
// client, its URL in $NAME:
//
//	edgehttp NAME
//
// /redirect answers 302 to /ok, /ok 200, /big a 100 KiB body, /slow
// after 2 s, /close 200 with Connection: close, /chunked 200 in chunks.
func cmdEdgeHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: edgehttp NAME")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok", http.StatusFound)
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 100<<10))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	})
	mux.HandleFunc("/close", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, "bye")
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for range 3 {
			io.WriteString(w, "chunk")
			w.(http.Flusher).Flush()
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	ts.Defer(func() { srv.Close() })
	ts.Setenv(args[0], "http://"+lis.Addr().String())
}
