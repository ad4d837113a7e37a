package thriftgw

import (
	"net/http"
	"sync"

	"github.com/rpckit/rpckit/internal/gwmetrics"
)

// scratch is what a request needs and gives back when it is answered:
// the status recorder and the buffers of the body, the encoded arguments,
// the reply and the JSON answer, each grown to its size once and reused
// request after request.
type scratch struct {
	rec                     gwmetrics.StatusWriter
	body, args, reply, resp []byte
}

// maxKept is the largest buffer a scratch keeps: one big request does not
// pin its memory for the ones after it.
const maxKept = 256 << 10

// scratchPool hands out scratches.
type scratchPool struct{ p sync.Pool }

func (sp *scratchPool) get(w http.ResponseWriter) *scratch {
	s, ok := sp.p.Get().(*scratch)
	if !ok {
		s = &scratch{}
	}
	s.rec = gwmetrics.StatusWriter{ResponseWriter: w}
	return s
}

// put takes s back; nothing of it may be used after.
func (sp *scratchPool) put(s *scratch) {
	s.rec = gwmetrics.StatusWriter{}
	s.body, s.args, s.reply, s.resp = keep(s.body), keep(s.args), keep(s.reply), keep(s.resp)
	sp.p.Put(s)
}

func keep(b []byte) []byte {
	if cap(b) > maxKept {
		return nil
	}
	return b[:0]
}
