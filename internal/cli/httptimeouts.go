package cli

import (
	"net/http"
	"time"

	"github.com/spf13/pflag"
)

// httpTimeouts are the flags that bound a listener's slow and idle
// clients, as a reverse proxy's do; 0 turns one off.
type httpTimeouts struct {
	idle, readHeader, body time.Duration
}

// register adds the flags, their names after prefix ("admin-" for serve).
func (t *httpTimeouts) register(fs *pflag.FlagSet, prefix string) {
	durationVar(fs, &t.idle, prefix+"idle-timeout", 120*time.Second, "close keep-alive connections idle this long (0: never)")
	durationVar(fs, &t.readHeader, prefix+"read-header-timeout", 10*time.Second, "longest wait for a request's headers (0: none)")
	durationVar(fs, &t.body, prefix+"body-timeout", 30*time.Second, "longest a request body, or each message of a streamed one, may take to arrive (0: none)")
}

// server is an http.Server for h with the idle and header timeouts.
func (t httpTimeouts) server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, IdleTimeout: t.idle, ReadHeaderTimeout: t.readHeader}
}

// offIfZero is a flag's duration as library Options take it, where zero
// is the default and a negative value none.
func offIfZero(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
