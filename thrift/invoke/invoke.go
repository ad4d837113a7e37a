package invoke

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Client calls the functions of a Thrift service with JSON over one
// thrift/client pool. It is safe for concurrent use.
type Client struct {
	tc    *client.Client
	proto wire.Protocol
	types types
}

// New returns a client for opts; it connects on the first call.
func New(opts client.Options) (*Client, error) {
	tc, err := client.New(opts)
	if err != nil {
		return nil, err
	}
	return &Client{tc: tc, proto: opts.Protocol}, nil
}

// Close closes the client's connections.
func (c *Client) Close() error { return c.tc.Close() }

// Encode encodes js, the JSON of fn's arguments (an object keyed by the
// argument names), as fn's arguments struct in the client's protocol.
func (c *Client) Encode(fn *idl.Function, js []byte) ([]byte, error) {
	return encode(c.types.of(fn).args, fn, c.proto, js)
}

// CallJSON encodes js as fn's arguments and calls fn; see [Client.Call].
func (c *Client) CallJSON(ctx context.Context, fn *idl.Function, js []byte) (json.RawMessage, error) {
	args, err := c.Encode(fn, js)
	if err != nil {
		return nil, err
	}
	return c.Call(ctx, fn, args)
}

// Call calls fn with args, its encoded arguments struct, and returns the
// JSON of the success value: nil for a void function, a oneway one, or a
// reply with no field set. A declared exception is an [*Exception].
func (c *Client) Call(ctx context.Context, fn *idl.Function, args []byte) (json.RawMessage, error) {
	if fn.Oneway {
		return nil, c.tc.Oneway(ctx, fn.Name, args)
	}
	reply, err := c.tc.Call(ctx, fn.Name, args, nil)
	if err != nil {
		return nil, err
	}
	return result(fn, c.types.of(fn).result, c.proto, reply)
}

// Encode encodes js as fn's arguments struct in protocol p, for callers
// that send it themselves (a load target).
func Encode(fn *idl.Function, p wire.Protocol, js []byte) ([]byte, error) {
	var cache dynamic.Cache
	return encode(cache.Type(StructType(fn.Args)), fn, p, js)
}

func encode(t *dynamic.Type, fn *idl.Function, p wire.Protocol, js []byte) ([]byte, error) {
	b, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(t, js)
	if err != nil {
		return nil, fmt.Errorf("thrift/invoke: the arguments of %s: %w", fn.Name, err)
	}
	return b, nil
}

// StructType is the type of the struct s: the IDL model gives a
// function's argument list and result no Ref of their own.
func StructType(s *idl.Struct) *idl.Type {
	if s.Ref != nil {
		return s.Ref
	}
	return &idl.Type{Kind: idl.StructKind, Name: s.Name, File: s.File, Struct: s}
}

// fnTypes are the compiled arguments and result structs of a function.
type fnTypes struct{ args, result *dynamic.Type }

// types compiles each function's structs once, in one cache.
type types struct {
	mu    sync.Mutex
	cache dynamic.Cache
	fns   map[*idl.Function]fnTypes
}

func (t *types) of(fn *idl.Function) fnTypes {
	t.mu.Lock()
	defer t.mu.Unlock()
	ft, ok := t.fns[fn]
	if !ok {
		if t.fns == nil {
			t.fns = map[*idl.Function]fnTypes{}
		}
		ft.args = t.cache.Type(StructType(fn.Args))
		if fn.Result != nil { // oneway functions have none
			ft.result = t.cache.Type(StructType(fn.Result))
		}
		t.fns[fn] = ft
	}
	return ft
}
