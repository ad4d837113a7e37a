// Command tgwbench holds the peers of bench/thrift_gateway_vs_apache.sh:
//
//	tgwbench medium                 the Medium specimen as JSON, on stdout
//	tgwbench upstream               serves BenchService (Apache Go library,
//	                                framed binary) on 127.0.0.1:0 and prints
//	                                its address
//	tgwbench apache-gateway -upstream ADDR
//	                                the baseline gateway: POST /v1/medium
//	                                decoded by encoding/json into the Apache
//	                                generated Medium (X-Title header,
//	                                counts query and ids cookie bound over
//	                                the body as the IDL's annotations say),
//	                                PutMedium through Apache Go clients, the
//	                                reply encoded by encoding/json; prints
//	                                its address
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tgwbench medium | upstream | apache-gateway -upstream ADDR")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "medium":
		err = json.NewEncoder(os.Stdout).Encode(thriftfixture.Medium())
	case "upstream":
		err = upstream()
	case "apache-gateway":
		fs := flag.NewFlagSet("apache-gateway", flag.ExitOnError)
		up := fs.String("upstream", "", "BenchService address")
		fs.Parse(os.Args[2:])
		err = apacheGateway(*up)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tgwbench:", err)
		os.Exit(1)
	}
}

type handler struct{}

func (handler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) { return req, nil }
func (handler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	return &bench.Medium{Title: title, Total: id}, nil
}
func (handler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}
func (handler) Trim(context.Context, *bench.Medium) (*bench.MediumPart, error) {
	return &bench.MediumPart{}, nil
}
func (handler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	return &bench.Large{Main: seed, Count: pages}, nil
}
func (handler) Notify(context.Context, string) error { return nil }
func (handler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}

func upstream() error {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	cfg := &thrift.TConfiguration{}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(handler{}), sock,
		thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTBinaryProtocolFactoryConf(cfg))
	if err := srv.Listen(); err != nil {
		return err
	}
	fmt.Println(ln.Addr())
	return srv.AcceptLoop()
}

// clients is a pool of Apache clients, each on its own connection (an
// Apache client serves one call at a time).
type clients chan *bench.BenchServiceClient

func (c clients) get(addr string) (*bench.BenchServiceClient, error) {
	select {
	case cl := <-c:
		return cl, nil
	default:
	}
	cfg := &thrift.TConfiguration{ConnectTimeout: 5 * time.Second, SocketTimeout: 30 * time.Second}
	trans := thrift.NewTFramedTransportConf(thrift.NewTSocketConf(addr, cfg), cfg)
	if err := trans.Open(); err != nil {
		return nil, err
	}
	prot := thrift.NewTBinaryProtocolConf(trans, cfg)
	return bench.NewBenchServiceClient(thrift.NewTStandardClient(prot, prot)), nil
}

func (c clients) put(cl *bench.BenchServiceClient) {
	select {
	case c <- cl:
	default:
	}
}

func apacheGateway(up string) error {
	pool := make(clients, 256)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/medium", func(w http.ResponseWriter, r *http.Request) {
		var m bench.Medium
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20)).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := bind(r, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cl, err := pool.get(up)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		out, err := cl.PutMedium(r.Context(), &m)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		pool.put(cl)
		b, err := json.Marshal(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr())
	return (&http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}).Serve(ln)
}

// bind sets the fields bench.thrift's annotations bind from the request,
// when it has them.
func bind(r *http.Request, m *bench.Medium) error {
	if v := r.Header.Get("X-Title"); v != "" {
		m.Title = v
	}
	if vs := r.URL.Query()["counts"]; len(vs) > 0 {
		m.Counts = m.Counts[:0]
		for _, v := range strings.Split(strings.Join(vs, ","), ",") {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return err
			}
			m.Counts = append(m.Counts, int32(n))
		}
	}
	if c, err := r.Cookie("ids"); err == nil {
		m.Ids = m.Ids[:0]
		for _, v := range strings.Split(c.Value, ",") {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return err
			}
			m.Ids = append(m.Ids, n)
		}
	}
	return nil
}
