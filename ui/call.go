package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// callRequest is one unary call from the page.
type callRequest struct {
	Conn      string          `json:"conn"`
	Method    string          `json:"method"`
	Body      json.RawMessage `json:"body"`
	Metadata  [][2]string     `json:"metadata"`
	TimeoutMS int64           `json:"timeoutMs"` // zero or less: the default
}

// callResult is how a call ended, for the response view.
type callResult struct {
	Code     int               `json:"code"`
	CodeName string            `json:"codeName"`
	Message  string            `json:"message,omitempty"`
	TimeMS   float64           `json:"timeMs"`
	Headers  [][2]string       `json:"headers"`
	Trailers [][2]string       `json:"trailers"`
	Messages []json.RawMessage `json:"messages,omitempty"`
	Status   json.RawMessage   `json:"status,omitempty"`  // google.rpc.Status
	Details  []json.RawMessage `json:"details,omitempty"` // its details, decoded
	Received int               `json:"received"`
	// Exception is a Thrift call's declared exception: its type's name.
	Exception string `json:"exception,omitempty"`
}

func (h *Handler) call(w http.ResponseWriter, r *http.Request) {
	var req callRequest
	if !readJSON(w, r, &req) {
		return
	}
	t, err := h.targets.get(req.Conn)
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	if t.thrift != nil {
		h.callThrift(w, r, t, req)
		return
	}
	md, err := t.method(r.Context(), req.Method)
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	if md.IsStreamingClient() || md.IsStreamingServer() {
		writeError(w, http.StatusBadRequest, fmt.Errorf("ui: %s is a streaming method: open it as a stream", md.FullName()))
		return
	}
	codec, err := h.codec(r.Context(), t)
	if err != nil {
		writeError(w, http.StatusBadGateway, err)
		return
	}
	wire, err := encode(codec, md.Input(), req.Body)
	if err != nil {
		writeFailure(w, err)
		return
	}
	ctx, cancel := h.callContext(r.Context(), req.Metadata, req.TimeoutMS)
	defer cancel()
	start := time.Now()
	resp, err := t.conn.Unary(ctx, md, wire)
	res := finish(codec, err, time.Since(start))
	res.Headers, res.Trailers = rowsOf(resp.Header), rowsOf(resp.Trailer)
	if err == nil {
		js, derr := codec.Decode(nil, md.Output(), resp.Message)
		if derr != nil {
			writeError(w, http.StatusBadGateway, derr)
			return
		}
		res.Messages, res.Received = []json.RawMessage{js}, 1
	}
	writeJSON(w, http.StatusOK, res)
}

// callContext carries the call's metadata and deadline.
func (h *Handler) callContext(ctx context.Context, rows [][2]string, timeoutMS int64) (context.Context, context.CancelFunc) {
	ctx = metadata.NewOutgoingContext(ctx, metadataOf(rows))
	d := time.Duration(timeoutMS) * time.Millisecond
	if d <= 0 {
		d = h.opts.DefaultTimeout
	}
	return context.WithTimeout(ctx, d)
}

// finish describes the end of a call: its status, with details decoded.
func finish(codec invoke.JSONCodec, err error, took time.Duration) callResult {
	res := callResult{TimeMS: float64(took.Microseconds()) / 1000, CodeName: "OK"}
	if err == nil {
		return res
	}
	st := statusOf(err)
	res.Code, res.CodeName, res.Message = int(st.Code()), invoke.CodeName(st.Code()), st.Message()
	if codec == nil {
		return res
	}
	if js, serr := invoke.StatusJSON(codec, st); serr == nil {
		res.Status = js
	}
	for _, d := range invoke.DetailsJSON(codec, st) {
		res.Details = append(res.Details, d)
	}
	return res
}

func statusOf(err error) *status.Status {
	var ie *invoke.Error
	if errors.As(err, &ie) {
		return ie.Status
	}
	if st, ok := status.FromError(err); ok {
		return st
	}
	if errors.Is(err, context.Canceled) {
		return status.New(codes.Canceled, err.Error())
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return status.New(codes.DeadlineExceeded, err.Error())
	}
	return status.New(codes.Unknown, err.Error())
}

// decodeOne is the JSON of one response message.
func decodeOne(codec invoke.JSONCodec, md protoreflect.MethodDescriptor, msg []byte) (json.RawMessage, error) {
	return codec.Decode(nil, md.Output(), msg)
}
