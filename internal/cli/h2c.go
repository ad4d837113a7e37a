package cli

import "net/http"

// plainHTTP2 makes srv serve HTTP/2 without TLS (h2c with prior knowledge,
// as gRPC and gRPC-Web clients speak it) beside HTTP/1.1, and HTTP/2 over
// TLS when it serves TLS.
func plainHTTP2(srv *http.Server) *http.Server {
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetHTTP2(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	return srv
}

// h2cTransport is a client that speaks HTTP/2 without TLS to http:// URLs,
// with prior knowledge.
func h2cTransport() *http.Transport {
	t := &http.Transport{Protocols: new(http.Protocols)}
	t.Protocols.SetUnencryptedHTTP2(true)
	return t
}
