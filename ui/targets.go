package ui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/lean"
	"github.com/rpckit/rpckit/invoke/loadtarget"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// connectRequest is what the page sends to connect (or reconnect, with
// the same ID) to a target. Certificates and schema files come as text.
type connectRequest struct {
	ID         string      `json:"id,omitempty"`
	Target     string      `json:"target"`
	Plaintext  bool        `json:"plaintext"`
	TLS        tlsMaterial `json:"tls"`
	Reflection bool        `json:"reflection"`
	Protos     []fileText  `json:"protos,omitempty"`
	Protoset   string      `json:"protoset,omitempty"` // base64 FileDescriptorSet
	Metadata   [][2]string `json:"metadata,omitempty"` // sent on reflection requests
	// Protocol of the calls: grpc (empty), grpc-web or connect; reflection
	// stays gRPC. HTTP2 asks gRPC-Web and Connect for h2c in plaintext.
	Protocol string `json:"protocol,omitempty"`
	HTTP2    bool   `json:"http2,omitempty"`
	// Thrift makes the target a Thrift service described by uploaded IDL.
	Thrift *thriftRequest `json:"thrift,omitempty"`
}

type tlsMaterial struct {
	CA         string `json:"ca,omitempty"`   // PEM
	Cert       string `json:"cert,omitempty"` // PEM
	Key        string `json:"key,omitempty"`  // PEM
	ServerName string `json:"serverName,omitempty"`
	Insecure   bool   `json:"insecure,omitempty"`
}

type fileText struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// target is one connection the page opened and its schema.
type target struct {
	id       string
	req      connectRequest
	conn     *invoke.Conn
	addr     string       // dialled, by the lean engine of load tests too
	lean     lean.Options // the connection's options for the lean engine
	source   schema.Source
	refl     *schema.ReflectionSource
	loopback bool
	thrift   *thriftTarget // a Thrift target: no conn, no source
}

func (t *target) close() {
	if t.refl != nil {
		t.refl.Close()
	}
	if t.conn != nil {
		t.conn.Close()
	}
	if t.thrift != nil {
		t.thrift.client.Close()
	}
}

// targets holds the page's connections by ID.
type targets struct {
	policy *dialPolicy
	mu     sync.Mutex
	byID   map[string]*target
	next   int
}

func newTargets(p *dialPolicy) *targets {
	return &targets{policy: p, byID: map[string]*target{}}
}

// grpc is the gRPC target id: streams, load tests and the form are
// gRPC's only.
func (ts *targets) grpc(id string) (*target, error) {
	t, err := ts.get(id)
	if err == nil && t.thrift != nil {
		return nil, fmt.Errorf("ui: %s is a Thrift target: it takes unary calls only", t.req.Target)
	}
	return t, err
}

func (ts *targets) get(id string) (*target, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.byID[id]
	if !ok {
		return nil, fmt.Errorf("ui: no connection %q (connect again)", id)
	}
	return t, nil
}

// put stores t under its ID (a new one when empty), closing what it
// replaces.
func (ts *targets) put(t *target) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.id == "" {
		ts.next++
		t.id = "c" + strconv.Itoa(ts.next)
	}
	if old := ts.byID[t.id]; old != nil {
		old.close()
	}
	ts.byID[t.id] = t
}

func (ts *targets) remove(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t := ts.byID[id]; t != nil {
		t.close()
		delete(ts.byID, id)
	}
}

func (ts *targets) closeAll() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for id, t := range ts.byID {
		t.close()
		delete(ts.byID, id)
	}
}

// open dials the target and builds its schema source.
func (ts *targets) open(ctx context.Context, req connectRequest) (*target, error) {
	if strings.TrimSpace(req.Target) == "" {
		return nil, errors.New("ui: connect: no target")
	}
	res, err := ts.policy.resolve(ctx, req.Target)
	if err != nil {
		return nil, err
	}
	t := &target{id: req.ID, req: req, addr: res.addr, loopback: res.loopback}
	if req.Thrift != nil {
		if err := t.openThrift(res); err != nil {
			return nil, err
		}
		return t, nil
	}
	if err := t.dial(ctx, res); err != nil {
		return nil, err
	}
	if err := t.loadSchema(ctx); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// dial connects, and keeps the connection's settings for the lean engine
// of load tests (read while the TLS files exist).
func (t *target) dial(ctx context.Context, res resolved) error {
	req := t.req
	dir, err := os.MkdirTemp("", "rpckit-ui-")
	if err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	defer os.RemoveAll(dir) // invoke reads the files when the connection is made
	opts := invoke.DialOptions{
		Plaintext: req.Plaintext, Authority: res.authority,
		ConnectTimeout: 5 * time.Second, UserAgent: "rpckit-ui",
	}
	if opts.Protocol, err = invoke.ParseProtocol(req.Protocol); err != nil {
		return fmt.Errorf("ui: connect: %w", err)
	}
	opts.HTTP.HTTP2PriorKnowledge = req.HTTP2 && req.Plaintext
	if !req.Plaintext && req.TLS.ServerName != "" {
		opts.Authority = "" // the server name asked for is the authority
	}
	if !req.Plaintext {
		if opts.TLS, err = tlsFiles(dir, req.TLS); err != nil {
			return err
		}
	}
	if t.lean, err = loadtarget.LeanOptions(opts); err != nil {
		return err
	}
	t.conn, err = invoke.Dial(ctx, res.addr, opts)
	return err
}

// tlsFiles writes the page's PEM texts where invoke.TLSOptions reads them.
func tlsFiles(dir string, m tlsMaterial) (invoke.TLSOptions, error) {
	o := invoke.TLSOptions{ServerName: m.ServerName, Insecure: m.Insecure}
	for _, f := range []struct {
		text string
		path *string
		name string
	}{{m.CA, &o.CACert, "ca.pem"}, {m.Cert, &o.Cert, "cert.pem"}, {m.Key, &o.Key, "key.pem"}} {
		if strings.TrimSpace(f.text) == "" {
			continue
		}
		*f.path = filepath.Join(dir, f.name)
		if err := os.WriteFile(*f.path, []byte(f.text), 0o600); err != nil {
			return o, fmt.Errorf("ui: %w", err)
		}
	}
	return o, nil
}

// loadSchema builds the source: uploaded files, and reflection when asked
// or when nothing was uploaded.
func (t *target) loadSchema(ctx context.Context) error {
	var sources []schema.Source
	if len(t.req.Protos) > 0 {
		src, err := compileUploaded(ctx, t.req.Protos)
		if err != nil {
			return err
		}
		sources = append(sources, src)
	}
	if t.req.Protoset != "" {
		src, err := readUploadedProtoset(t.req.Protoset)
		if err != nil {
			return err
		}
		sources = append(sources, src)
	}
	if len(sources) == 0 || t.req.Reflection {
		t.refl = schema.Reflection(t.conn.ClientConn(), schema.ReflectionOptions{Header: metadataOf(t.req.Metadata)})
		sources = append(sources, t.refl)
	}
	t.source = schema.Merge(sources...)
	return nil
}

func compileUploaded(ctx context.Context, files []fileText) (schema.Source, error) {
	dir, err := os.MkdirTemp("", "rpckit-ui-proto-")
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	defer os.RemoveAll(dir)
	var names []string
	for _, f := range files {
		name := filepath.Clean(filepath.FromSlash(f.Name))
		if !strings.HasSuffix(name, ".proto") || filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
			return nil, fmt.Errorf("ui: uploaded file %q: want a relative .proto path", f.Name)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, fmt.Errorf("ui: %w", err)
		}
		if err := os.WriteFile(p, []byte(f.Content), 0o600); err != nil {
			return nil, fmt.Errorf("ui: %w", err)
		}
		names = append(names, filepath.ToSlash(name))
	}
	reg, err := schema.CompileFiles(ctx, schema.CompileOptions{Files: names, ImportPaths: []string{dir}})
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	return schema.FromFiles(reg), nil
}

func readUploadedProtoset(b64 string) (schema.Source, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("ui: protoset: not base64: %w", err)
	}
	f, err := os.CreateTemp("", "rpckit-ui-*.protoset")
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	defer os.Remove(f.Name())
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil {
		return nil, fmt.Errorf("ui: protoset: %w", errors.Join(werr, cerr))
	}
	src, err := schema.ReadProtosets(f.Name())
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), f.Name(), "uploaded protoset"))
	}
	return src, nil
}

// method resolves a method of t's schema.
func (t *target) method(ctx context.Context, name string) (protoreflect.MethodDescriptor, error) {
	return schema.FindMethod(ctx, t.source, name)
}

// files is the registry the codec resolves Any and extensions from.
func (t *target) files(ctx context.Context) (*protoregistry.Files, error) {
	return t.source.Files(ctx)
}
