package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// The page's WebSocket carries streams and load tests, several at once,
// each named by an ID the page picks. Frames are JSON objects with a type
// "t". From the page:
//
//	open   {id, conn, method, metadata, timeoutMs, body?}  start a call (body: the one request of a unary or server stream)
//	send   {id, body}     one request message of a client or bidi stream
//	half   {id}           half-close: no more requests
//	cancel {id}           cancel the call
//	ack    {id, n}        the page has shown n more response messages
//	bench  {id, bench}    start a load test; stop {id} ends it
//
// To the page:
//
//	header   {id, rows}             response headers
//	msgs     {id, items}            response messages, in order, batched
//	sent     {id, n}                requests sent so far
//	error    {id, error, path?}     a request the codec refused (the call goes on) or a failure to start
//	end      {id, result}           how the call ended (status, trailers, details, counts)
//	progress {id, progress}         a load test's second
//	benchend {id, result, ...}      a load test's result, as rpckit bench --format json writes it
type inFrame struct {
	T         string          `json:"t"`
	ID        string          `json:"id"`
	Conn      string          `json:"conn,omitempty"`
	Method    string          `json:"method,omitempty"`
	Body      json.RawMessage `json:"body,omitempty"`
	Metadata  [][2]string     `json:"metadata,omitempty"`
	TimeoutMS int64           `json:"timeoutMs,omitempty"`
	N         int             `json:"n,omitempty"`
	Bench     *benchRequest   `json:"bench,omitempty"`
}

type outFrame struct {
	T        string            `json:"t"`
	ID       string            `json:"id"`
	Rows     [][2]string       `json:"rows,omitempty"`
	Items    []json.RawMessage `json:"items,omitempty"`
	N        int64             `json:"n,omitempty"`
	Error    string            `json:"error,omitempty"`
	Path     string            `json:"path,omitempty"`
	Result   any               `json:"result,omitempty"`
	Progress any               `json:"progress,omitempty"`
}

// Bounds of a msgs frame: the page parses one frame in one task.
const (
	maxBatchItems = 1000
	maxBatchBytes = 256 << 10
	// window is how many response messages may be sent and not yet
	// acknowledged by the page; past it the stream stops reading, and
	// HTTP/2 flow control holds the server back.
	window = 5000
)

// wsSession is one page's WebSocket.
type wsSession struct {
	h      *Handler
	ws     *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	out    chan outFrame
	wg     sync.WaitGroup

	mu      sync.Mutex
	streams map[string]*stream
	benches map[string]context.CancelFunc
}

func (h *Handler) websocket(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil) // origin already checked: same host only
	if err != nil {
		return
	}
	ws.SetReadLimit(maxBody)
	ctx, cancel := context.WithCancel(h.ctx)
	s := &wsSession{
		h: h, ws: ws, ctx: ctx, cancel: cancel, out: make(chan outFrame, 256),
		streams: map[string]*stream{}, benches: map[string]context.CancelFunc{},
	}
	h.wsWG.Add(1)
	defer h.wsWG.Done()
	go s.writeLoop()
	s.readLoop()
	cancel()
	s.wg.Wait()
	ws.Close(websocket.StatusNormalClosure, "")
}

func (s *wsSession) readLoop() {
	for {
		_, data, err := s.ws.Read(s.ctx)
		if err != nil {
			return
		}
		var f inFrame
		if err := json.Unmarshal(data, &f); err != nil {
			s.send(outFrame{T: "error", Error: "ui: bad frame: " + err.Error()})
			continue
		}
		s.dispatch(f)
	}
}

func (s *wsSession) dispatch(f inFrame) {
	switch f.T {
	case "open":
		s.open(f)
	case "send", "half", "cancel", "ack":
		if st := s.stream(f.ID); st != nil {
			st.control(f)
		}
	case "bench":
		s.startBench(f)
	case "stop":
		s.stopBench(f.ID)
	default:
		s.send(outFrame{T: "error", ID: f.ID, Error: fmt.Sprintf("ui: unknown frame type %q", f.T)})
	}
}

// send queues a frame for the writer; it blocks while the queue is full,
// which holds back the stream that produces it.
func (s *wsSession) send(f outFrame) bool {
	select {
	case s.out <- f:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// writeLoop writes frames in order, merging queued msgs frames of the
// same stream into one, up to the batch bounds.
func (s *wsSession) writeLoop() {
	var pending *outFrame
	for {
		var f outFrame
		if pending != nil {
			f, pending = *pending, nil
		} else {
			select {
			case f = <-s.out:
			case <-s.ctx.Done():
				return
			}
		}
		if f.T == "msgs" {
			pending = s.merge(&f)
		}
		if err := s.write(f); err != nil {
			s.cancel()
			return
		}
	}
}

// merge appends the queued msgs frames of f's stream to f and returns the
// first other frame it took from the queue, if any.
func (s *wsSession) merge(f *outFrame) *outFrame {
	size := itemsSize(f.Items)
	for len(f.Items) < maxBatchItems && size < maxBatchBytes {
		select {
		case next := <-s.out:
			if next.T != "msgs" || next.ID != f.ID {
				return &next
			}
			f.Items = append(f.Items, next.Items...)
			size += itemsSize(next.Items)
		default:
			return nil
		}
	}
	return nil
}

func itemsSize(items []json.RawMessage) int {
	n := 0
	for _, it := range items {
		n += len(it) + 1
	}
	return n
}

func (s *wsSession) write(f outFrame) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	return s.ws.Write(ctx, websocket.MessageText, data)
}

func (s *wsSession) stream(id string) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id]
}

func (s *wsSession) failed(id string, err error) {
	f := outFrame{T: "error", ID: id, Error: err.Error()}
	var pe *pathError
	if errors.As(err, &pe) {
		f.Path = pe.Path
	}
	s.send(f)
}
