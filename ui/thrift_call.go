package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	tinvoke "github.com/rpckit/rpckit/thrift/invoke"
	ttranscode "github.com/rpckit/rpckit/thrift/transcode"
)

// Thrift calls end as gRPC ones do for the page, with these code names
// beside OK: a declared exception (its type in Exception, its JSON in
// Messages), an application exception (Code is its type), or an error
// of the call itself (the server down, a timeout).
const (
	codeException   = "EXCEPTION"
	codeApplication = "APPLICATION_EXCEPTION"
	codeCallError   = "ERROR"
)

func (h *Handler) describeThrift(w http.ResponseWriter, t *target, name string) {
	fn, err := t.thrift.function(name)
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	tmpl, err := tinvoke.ArgsTemplate(fn)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, describeResponse{Kind: "function", Text: signature(fn), Template: tmpl})
}

// thriftArgs encodes body as the arguments of the function name; refused
// JSON is a pathError naming the field at fault.
func thriftArgs(t *target, name string, body []byte) (*idl.Function, []byte, error) {
	fn, err := t.thrift.function(name)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	args, err := t.thrift.client.Encode(fn, body)
	return fn, args, argsError(err)
}

// argsError is a refused arguments JSON as a pathError naming the field.
func argsError(err error) error {
	var te *ttranscode.Error
	if errors.As(err, &te) {
		return &pathError{Path: te.Path, Err: errors.New(te.Msg)}
	}
	return err
}

func (h *Handler) checkThrift(w http.ResponseWriter, t *target, req checkRequest) {
	if _, _, err := thriftArgs(t, req.Method, req.Body); err != nil {
		writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, checkResponse{Canonical: req.Body})
}

func (h *Handler) callThrift(w http.ResponseWriter, r *http.Request, t *target, req callRequest) {
	fn, args, err := thriftArgs(t, req.Method, req.Body)
	if err != nil {
		var pe *pathError
		if errors.As(err, &pe) {
			writeFailure(w, err)
		} else {
			writeError(w, http.StatusNotFound, err)
		}
		return
	}
	ctx, cancel := h.callContext(r.Context(), nil, req.TimeoutMS)
	defer cancel()
	if ctx, err = t.thrift.withHeaders(ctx, req.Metadata); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	start := time.Now()
	value, err := t.thrift.client.Call(ctx, fn, args)
	writeJSON(w, http.StatusOK, thriftResult(value, err, time.Since(start)))
}

// withHeaders puts the metadata rows in ctx as THeader info headers, in
// order; rows with no key are left out. Only the header transport carries
// them: elsewhere rows are refused rather than dropped.
func (tt *thriftTarget) withHeaders(ctx context.Context, rows [][2]string) (context.Context, error) {
	for _, kv := range rows {
		k := strings.TrimSpace(kv[0])
		if k == "" {
			continue
		}
		if tt.transport != client.Header {
			return ctx, fmt.Errorf("ui: info header %q needs the header transport, not %s: reconnect with transport header", k, tt.transport)
		}
		ctx = client.WithHeader(ctx, k, kv[1])
	}
	return ctx, nil
}

// thriftResult describes how a Thrift call ended.
func thriftResult(value json.RawMessage, err error, took time.Duration) callResult {
	res := callResult{TimeMS: float64(took.Microseconds()) / 1000, CodeName: "OK", Headers: [][2]string{}, Trailers: [][2]string{}}
	if err != nil {
		thriftFailure(&res, err)
	} else if value != nil {
		res.Messages, res.Received = []json.RawMessage{value}, 1
	}
	return res
}

// thriftFailure fills in res for a call that failed.
func thriftFailure(res *callResult, err error) {
	var ex *tinvoke.Exception
	var ae *client.ApplicationError
	switch {
	case errors.As(err, &ex):
		res.CodeName, res.Exception = codeException, ex.Name
		res.Messages, res.Received = []json.RawMessage{ex.JSON}, 1
	case errors.As(err, &ae):
		res.CodeName, res.Code = codeApplication, int(ae.Type)
		res.Message = strings.TrimSpace(ae.Type.String() + ": " + ae.Message)
	default:
		res.CodeName, res.Message = codeCallError, err.Error()
	}
}
