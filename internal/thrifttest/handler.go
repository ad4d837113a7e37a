package thrifttest

import (
	"context"
	"sync"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
)

// Handler implements BenchService for the tests, as the Python server
// does: echoes, derived values, the declared exception, and oneway events
// on a channel. It also records each call's request-id THeader, and holds
// GetMedium of title "block" until Block closes.
type Handler struct {
	Events chan string   // Notify's events; when it is full they are dropped
	Block  chan struct{} // GetMedium of title "block" waits for it to close

	mu      sync.Mutex
	headers []string
	busy    int
}

// NewHandler returns a Handler whose Events hold 16 events.
func NewHandler() *Handler {
	return &Handler{Events: make(chan string, 16), Block: make(chan struct{})}
}

// Headers returns the request-id THeader of each call so far.
func (h *Handler) Headers() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.headers...)
}

// Busy returns how many GetMedium calls reached the block.
func (h *Handler) Busy() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.busy
}

func (h *Handler) record(ctx context.Context) {
	if id, ok := thrift.GetHeader(ctx, "request-id"); ok {
		h.mu.Lock()
		h.headers = append(h.headers, id)
		h.mu.Unlock()
	}
}

// Echo returns req.
func (h *Handler) Echo(ctx context.Context, req *bench.Small) (*bench.Small, error) {
	h.record(ctx)
	return req, nil
}

// GetMedium returns a Medium of id and title, or BenchError for a
// negative id.
func (h *Handler) GetMedium(ctx context.Context, id int64, title string) (*bench.Medium, error) {
	h.record(ctx)
	if title == "block" {
		h.mu.Lock()
		h.busy++
		h.mu.Unlock()
		<-h.Block
	}
	if id < 0 {
		return nil, &bench.BenchError{Code: int32(id), Message: title}
	}
	return &bench.Medium{Title: title, Total: id, Tags: []string{"a", "b"}, Labels: map[string]string{"k": "v"}}, nil
}

// PutMedium returns req.
func (h *Handler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}

// Trim returns the parts of req's Smalls.
func (h *Handler) Trim(_ context.Context, req *bench.Medium) (*bench.MediumPart, error) {
	part := func(s *bench.Small) *bench.SmallPart {
		return &bench.SmallPart{Tiny: s.Tiny, Score: s.Score, Blob: s.Blob}
	}
	out := &bench.MediumPart{ByName: map[string]*bench.SmallPart{}}
	for _, s := range req.Items {
		out.Items = append(out.Items, part(s))
	}
	for k, s := range req.ByName {
		out.ByName[k] = part(s)
	}
	if req.Head != nil {
		out.Head = part(req.Head)
	}
	return out, nil
}

// Grow returns a Large of pages copies of seed.
func (h *Handler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	l := &bench.Large{Main: seed, Head: seed.Head, Count: pages, Note: "grown"}
	for range pages {
		l.Pages = append(l.Pages, seed)
	}
	return l, nil
}

// Notify sends event on Events, or drops it when Events is full.
func (h *Handler) Notify(_ context.Context, event string) error {
	select {
	case h.Events <- event:
	default:
	}
	return nil
}

// Fail returns BenchError of code and message.
func (h *Handler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}
