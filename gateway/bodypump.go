package gateway

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// bodyPump is the goroutine that reads a stream's request body while the
// responses go out. The upstream may end the call before the client is
// done sending: the handler must then stop the pump and wait for it, as
// the body and the writer must not be touched once the handler returns.
type bodyPump struct {
	stopped atomic.Bool // the call is over: read no more
	done    chan struct{}
	err     chan error // send's error, once it returns
}

// startPump runs send on a goroutine of its own. Its error goes to p.err
// and, when not nil, cancels the call: bad input must not let the call
// end normally on the requests sent so far.
func startPump(cancel context.CancelFunc, send func(stopped *atomic.Bool) error) *bodyPump {
	p := &bodyPump{done: make(chan struct{}), err: make(chan error, 1)}
	go func() {
		defer close(p.done)
		err := send(&p.stopped)
		p.err <- err
		if err != nil {
			cancel()
		}
	}()
	return p
}

// stop ends the pump's read and waits for the pump to return. HTTP/2 lets
// the body be closed under a read; HTTP/1.1 holds Close until the read
// ends, so its read is cut off with a passed deadline instead.
func (p *bodyPump) stop(w http.ResponseWriter, r *http.Request) {
	select {
	case <-p.done:
		return
	default:
	}
	p.stopped.Store(true)
	if r.ProtoMajor >= 2 {
		_ = r.Body.Close()
	} else {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	<-p.done
}
