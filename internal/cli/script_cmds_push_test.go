package cli_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["pushgateway"] = cmdPushgateway
}

// cmdPushgateway starts a stand-in for a Prometheus Pushgateway on
// loopback for the rest of the script and sets NAME to its URL:
//
//	pushgateway NAME FILE [STATUS]
//
// Like the real one it parses each push as the text format and answers
// 400 to one that does not parse; otherwise it answers STATUS (default
// 200). It appends each request to FILE: a line "METHOD PATH", a line
// "group: NAME=VALUE ..." with the grouping key decoded, a line
// "Content-Type: ...", a line "parsed N families", then the body.
func cmdPushgateway(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: pushgateway NAME FILE [STATUS]")
	}
	status := http.StatusOK
	if len(args) == 3 {
		var err error
		status, err = strconv.Atoi(args[2])
		ts.Check(err)
	}
	path := ts.MkAbs(args[1])
	var mu sync.Mutex
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(bytes.NewReader(body))
		mu.Lock()
		defer mu.Unlock()
		f, ferr := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if ferr == nil {
			fmt.Fprintf(f, "%s %s\ngroup: %s\nContent-Type: %s\nparsed %d families\n%s", r.Method, r.URL.EscapedPath(),
				groupingKey(r.URL.EscapedPath()), r.Header.Get("Content-Type"), len(fams), body)
			f.Close()
		}
		if err != nil {
			http.Error(w, "text format parsing error: "+err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(status)
		fmt.Fprintln(w, http.StatusText(status))
	})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	ts.Defer(func() { srv.Close() })
	ts.Setenv(args[0], "http://"+lis.Addr().String())
}

// groupingKey decodes the labels of a Pushgateway path,
// /metrics/job/NAME{/LABEL/VALUE}, VALUE in base64 when LABEL ends with
// @base64.
func groupingKey(path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/metrics/"), "/")
	var out []string
	for i := 0; i+1 < len(parts); i += 2 {
		name, value := parts[i], parts[i+1]
		if n, ok := strings.CutSuffix(name, "@base64"); ok {
			b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(value, "="))
			if err != nil {
				value = "(bad base64)"
			} else {
				name, value = n, string(b)
			}
		} else if v, err := url.PathUnescape(value); err == nil {
			value = v
		}
		out = append(out, name+"="+value)
	}
	return strings.Join(out, " ")
}
