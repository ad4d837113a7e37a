package ui

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// The browser suite (ui/browsertest) runs this test binary with -serve:
// instead of testing, it starts the fixture servers and two pages, prints
// one JSON line saying where everything is, and serves until its stdin
// closes or it is signalled.
var serveFlag = flag.Bool("serve", false, "serve the fixtures and the page for the browser suite instead of testing")

type serveInfo struct {
	URL        string   `json:"url"`        // the page, with its token
	Origin     string   `json:"origin"`     // the page's origin
	ExposedURL string   `json:"exposedUrl"` // a page in exposed mode allowing only Plain
	Plain      string   `json:"plain"`
	TLS        string   `json:"tls"`
	MTLS       string   `json:"mtls"`
	Wide       string   `json:"wide"`
	Connect    string   `json:"connect"`   // the test service on connect-go
	Protoset   string   `json:"protoset"`  // its schema, for Connect
	Thrift     string   `json:"thrift"`    // the ranking service's Thrift side (framed binary)
	ThriftIDL  []string `json:"thriftIdl"` // its IDL files: api.thrift, which includes ranking.thrift
	CA         string   `json:"ca"`
	ClientCert string   `json:"clientCert"`
	ClientKey  string   `json:"clientKey"`
	Dir        string   `json:"dir"`
	Recorder   string   `json:"recorder"` // GET {recorder}/calls?after=N: what Plain was sent
}

func serveForBrowser() int {
	dir, err := os.MkdirTemp("", "rpckit-ui-browser-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	fx, err := startFixtures(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer fx.Stop()
	page, stop1, err := servePage(Options{Target: fx.Plain})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stop1()
	port := fx.Plain[strings.LastIndexByte(fx.Plain, ':')+1:]
	exposed, stop2, err := servePage(Options{Exposed: true, Allow: []string{"127.0.0.1:" + port}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stop2()
	recorder, stop3, err := serveLoopback(fx.Recorded)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stop3()
	info := serveInfo{
		URL: page, Origin: page[:strings.Index(page, "/?")], ExposedURL: exposed,
		Plain: fx.Plain, TLS: fx.TLS, MTLS: fx.MTLS, Wide: fx.Wide, Connect: fx.Connect, Protoset: fx.Protoset,
		Thrift: fx.Thrift, ThriftIDL: fx.ThriftIDL,
		CA: fx.Certs.CA, ClientCert: fx.Certs.ClientCert, ClientKey: fx.Certs.ClientKey, Dir: dir,
		Recorder: recorder,
	}
	line, _ := json.Marshal(info)
	fmt.Println(string(line))
	waitForEnd()
	return 0
}

// servePage serves a Handler on 127.0.0.1 and returns its URL with token.
func servePage(opts Options) (string, func(), error) {
	h, err := New(opts)
	if err != nil {
		return "", nil, err
	}
	base, stop, err := serveLoopback(h)
	if err != nil {
		h.Close()
		return "", nil, err
	}
	return base + "/?token=" + h.Token(), func() { stop(); h.Close() }, nil
}

// serveLoopback serves h on 127.0.0.1 and returns its base URL.
func serveLoopback(h http.Handler) (string, func(), error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(lis)
	return "http://" + lis.Addr().String(), func() { srv.Close() }, nil
}

func waitForEnd() {
	done := make(chan struct{}, 2)
	go func() { io.Copy(io.Discard, os.Stdin); done <- struct{}{} }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case <-done:
	case <-sig:
	}
}
