package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/mdvalue"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// maxBody bounds a request to the API (uploaded schemas included).
const maxBody = 32 << 20

type apiError struct {
	Error string `json:"error"`
	Path  string `json:"path,omitempty"` // JSON path of bad request input
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	e := apiError{Error: err.Error()}
	var pe *pathError
	if errors.As(err, &pe) {
		e.Path = pe.Path
	}
	writeJSON(w, code, e)
}

// writeFailure answers an operation that was carried out and failed (a
// target that cannot be dialled, input the codec refuses): 200 with the
// error, so the page reports it without the browser logging a failed
// request.
func writeFailure(w http.ResponseWriter, err error) { writeError(w, http.StatusOK, err) }

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("ui: bad request body: %w", err))
		return false
	}
	return true
}

type serviceInfo struct {
	Name    string       `json:"name"`
	Doc     string       `json:"doc,omitempty"` // a Thrift service's doc comment
	Methods []methodInfo `json:"methods"`
	Error   string       `json:"error,omitempty"`
}

type methodInfo struct {
	Name            string `json:"name"`
	FullName        string `json:"fullName"`
	ClientStreaming bool   `json:"clientStreaming"`
	ServerStreaming bool   `json:"serverStreaming"`
	Input           string `json:"input"`
	Output          string `json:"output"`
	// A Thrift function's: Input and Output are then its argument list
	// and return type as the IDL writes them.
	Doc    string `json:"doc,omitempty"`
	Oneway bool   `json:"oneway,omitempty"`
	Throws string `json:"throws,omitempty"`
}

type connectResponse struct {
	ID       string        `json:"id"`
	Target   string        `json:"target"`
	Loopback bool          `json:"loopback"`
	Services []serviceInfo `json:"services"`
	Thrift   bool          `json:"thrift,omitempty"`
}

func (h *Handler) connect(w http.ResponseWriter, r *http.Request) {
	var req connectRequest
	if !readJSON(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	t, err := h.targets.open(ctx, req)
	if err != nil {
		writeFailure(w, err)
		return
	}
	if t.thrift != nil {
		h.targets.put(t)
		writeJSON(w, http.StatusOK, connectResponse{ID: t.id, Target: req.Target, Loopback: t.loopback, Services: t.thrift.services, Thrift: true})
		return
	}
	services, err := listServices(ctx, t.source)
	if err != nil {
		t.close()
		writeFailure(w, err)
		return
	}
	h.targets.put(t)
	writeJSON(w, http.StatusOK, connectResponse{ID: t.id, Target: req.Target, Loopback: t.loopback, Services: services})
}

func listServices(ctx context.Context, src schema.Source) ([]serviceInfo, error) {
	names, err := src.Services(ctx)
	if err != nil {
		return nil, err
	}
	out := []serviceInfo{}
	for _, name := range names {
		si := serviceInfo{Name: string(name), Methods: []methodInfo{}}
		d, err := src.FindSymbol(ctx, name)
		if err != nil {
			si.Error = err.Error()
		} else if sd, ok := d.(protoreflect.ServiceDescriptor); ok {
			for i := range sd.Methods().Len() {
				si.Methods = append(si.Methods, methodInfoOf(sd.Methods().Get(i)))
			}
		}
		out = append(out, si)
	}
	return out, nil
}

func methodInfoOf(md protoreflect.MethodDescriptor) methodInfo {
	return methodInfo{
		Name: string(md.Name()), FullName: string(md.Parent().FullName()) + "/" + string(md.Name()),
		ClientStreaming: md.IsStreamingClient(), ServerStreaming: md.IsStreamingServer(),
		Input: string(md.Input().FullName()), Output: string(md.Output().FullName()),
	}
}

func (h *Handler) disconnect(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID string `json:"id"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	h.targets.remove(req.ID)
	writeJSON(w, http.StatusOK, struct{}{})
}

type describeResponse struct {
	Kind     string          `json:"kind"`
	Text     string          `json:"text"`
	Template json.RawMessage `json:"template,omitempty"` // a method's request, a message
}

func (h *Handler) describe(w http.ResponseWriter, r *http.Request) {
	t, err := h.targets.get(r.URL.Query().Get("conn"))
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	name := r.URL.Query().Get("symbol")
	if t.thrift != nil {
		h.describeThrift(w, t, name)
		return
	}
	d, err := t.source.FindSymbol(r.Context(), protoreflect.FullName(strings.ReplaceAll(strings.TrimPrefix(name, "/"), "/", ".")))
	if err != nil {
		writeError(w, http.StatusNotFound, schema.SuggestSymbol(r.Context(), t.source, name, err))
		return
	}
	resp := describeResponse{Kind: schema.Kind(d), Text: schema.Print(d)}
	switch d := d.(type) {
	case protoreflect.MethodDescriptor:
		resp.Template = schema.Template(d.Input())
	case protoreflect.MessageDescriptor:
		resp.Template = schema.Template(d)
	}
	writeJSON(w, http.StatusOK, resp)
}

func (h *Handler) messageSchema(w http.ResponseWriter, r *http.Request) {
	t, err := h.targets.grpc(r.URL.Query().Get("conn"))
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	name := protoreflect.FullName(r.URL.Query().Get("message"))
	d, err := t.source.FindSymbol(r.Context(), name)
	md, ok := d.(protoreflect.MessageDescriptor)
	if err != nil || !ok {
		writeError(w, http.StatusNotFound, fmt.Errorf("ui: no message %q", name))
		return
	}
	writeJSON(w, http.StatusOK, describeMessages(md))
}

// checkRequest asks whether body is a valid message of the method's
// input (or of the named message).
type checkRequest struct {
	Conn    string          `json:"conn"`
	Method  string          `json:"method,omitempty"`
	Message string          `json:"message,omitempty"`
	Body    json.RawMessage `json:"body"`
}

type checkResponse struct {
	// Canonical is the body as the codec prints it back after encoding.
	Canonical json.RawMessage `json:"canonical"`
}

func (h *Handler) check(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	if !readJSON(w, r, &req) {
		return
	}
	if t, err := h.targets.get(req.Conn); err == nil && t.thrift != nil {
		h.checkThrift(w, t, req)
		return
	}
	t, md, err := h.messageOf(r.Context(), req.Conn, req.Method, req.Message)
	if err != nil {
		writeError(w, http.StatusNotFound, err)
		return
	}
	codec, err := h.codec(r.Context(), t)
	if err != nil {
		writeError(w, http.StatusBadGateway, err)
		return
	}
	wire, err := encode(codec, md, req.Body)
	if err != nil {
		writeFailure(w, err)
		return
	}
	js, err := codec.Decode(nil, md, wire)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, checkResponse{Canonical: js})
}

func (h *Handler) messageOf(ctx context.Context, conn, method, message string) (*target, protoreflect.MessageDescriptor, error) {
	t, err := h.targets.get(conn)
	if err != nil {
		return nil, nil, err
	}
	if method != "" {
		m, err := t.method(ctx, method)
		if err != nil {
			return nil, nil, err
		}
		return t, m.Input(), nil
	}
	d, err := t.source.FindSymbol(ctx, protoreflect.FullName(message))
	if md, ok := d.(protoreflect.MessageDescriptor); ok && err == nil {
		return t, md, nil
	}
	return nil, nil, fmt.Errorf("ui: no message %q", message)
}

func (h *Handler) codec(ctx context.Context, t *target) (invoke.JSONCodec, error) {
	files, err := t.files(ctx)
	if err != nil {
		return nil, err
	}
	return h.opts.Codec(files), nil
}

// metadataOf turns the page's key/value rows into metadata; values of -bin
// keys are base64-decoded when they are valid base64 (padded or not), as
// the CLI does.
func metadataOf(rows [][2]string) metadata.MD {
	md := metadata.MD{}
	for _, kv := range rows {
		k := strings.ToLower(strings.TrimSpace(kv[0]))
		if k == "" {
			continue
		}
		md.Append(k, mdvalue.DecodeOrKeep(k, kv[1]))
	}
	return md
}

// rowsOf lists metadata as sorted key/value rows, -bin values in base64.
func rowsOf(md metadata.MD) [][2]string {
	rows := [][2]string{}
	for k, vs := range md {
		for _, v := range vs {
			rows = append(rows, [2]string{k, mdvalue.Text(k, v)})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}
