package ui

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/rpckit/rpckit/examples/ranking"
)

// apiThrift is the main IDL file of the Thrift fixture: it includes the
// ranking service's IDL, extends its service and adds a function the
// server does not have.
const apiThrift = `include "ranking.thrift"

/** The ranking service, as the page sees it. */
service Ranking extends ranking.RankingService {
  /** Missing is not served: calls end in an application exception. */
  void Missing(1: i32 id)
}
`

// startThrift serves the ranking service's Thrift side on loopback
// (framed binary) and writes its IDL files into the fixture's directory.
func (s *fixtureServers) startThrift() error {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // the server's logs of closed connections
	svc, err := ranking.New(ranking.Options{CatalogueSize: 200, EmbeddingDim: 8, MaxCandidates: 100})
	if err != nil {
		return err
	}
	srv, err := svc.ThriftServer(ranking.ThriftOptions{})
	if err != nil {
		return err
	}
	addr, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return err
	}
	s.stops = append(s.stops, func() { _ = stop() })
	s.Thrift = addr.String()
	dir := filepath.Join(s.Dir, "thrift")
	s.ThriftIDL = []string{filepath.Join(dir, "api.thrift"), filepath.Join(dir, "ranking.thrift")}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(s.ThriftIDL[0], []byte(apiThrift), 0o644); err != nil {
		return err
	}
	return os.WriteFile(s.ThriftIDL[1], []byte(ranking.ThriftIDL()), 0o644)
}

// thriftFiles are the fixture's IDL files as the page uploads them.
func thriftFiles() []fileText {
	return []fileText{{Name: "api.thrift", Content: apiThrift}, {Name: "ranking.thrift", Content: ranking.ThriftIDL()}}
}
