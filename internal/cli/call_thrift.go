package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	tinvoke "github.com/rpckit/rpckit/thrift/invoke"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
	"github.com/spf13/cobra"
)

// Exit codes of call --idl beside gRPC's 64+N: a declared exception, and
// 100+T for an application exception of type T.
const (
	exitThriftException   = 96
	exitThriftApplication = 100
	maxApplicationType    = 27 // 100+T stays below the signals' 128+N
)

// thriftCall is call --idl: the arguments struct from JSON, one call
// (thrift/invoke), the result as JSON.
type thriftCall struct {
	f     *callFlags
	fn    *idl.Function
	proto wire.Protocol
	out   bytes.Buffer
}

// grpcOnlyCallFlags are call's gRPC flags that mean nothing for Thrift.
var grpcOnlyCallFlags = append([]string{"verbose", "authority", "reflect-header", "target-addr", "service-config", "breaker",
	"emit-defaults", "proto-names", "enums-as-ints"}, webOnlyFlags...)

func runThriftCall(cmd *cobra.Command, stdio Stdio, f *callFlags, target, method string) error {
	if err := f.thrift.idl.check(&f.schema, ""); err != nil {
		return err
	}
	for _, name := range grpcOnlyCallFlags {
		if cmd.Flags().Changed(name) {
			return usagef("--%s does not go with --idl", name)
		}
	}
	file, err := loadIDL(f.thrift.idl.file, f.schema.importPaths)
	if err != nil {
		return err
	}
	c := &thriftCall{f: f}
	if c.fn, err = findFunction(file, method); err != nil {
		return err
	}
	co, err := f.thrift.clientOptions(target, &f.conn)
	if err != nil {
		return err
	}
	co.Timeout = thriftTimeout(f.timeout)
	c.proto = co.Protocol
	args, err := c.args(stdio)
	if err != nil {
		return err
	}
	tc, err := tinvoke.New(co)
	if err != nil {
		return err
	}
	defer tc.Close()
	return c.call(cmd, stdio, tc, args)
}

// args reads -d (JSON, @file or @-; none: no arguments) and encodes it as
// the function's arguments struct.
func (c *thriftCall) args(stdio Stdio) ([]byte, error) {
	data := c.f.data
	if data == "" {
		data = "{}"
	}
	return thriftJSONArgs(c.fn, c.proto, data, stdio.In, c.f.conn.opts.MaxMsgSize)
}

// thriftJSONArgs reads data (JSON, @file or @- for stdin), at most limit
// bytes, and encodes it as fn's arguments struct in protocol p.
func thriftJSONArgs(fn *idl.Function, p wire.Protocol, data string, stdin io.Reader, limit int) ([]byte, error) {
	r, closeIn, err := openRaw(data, stdin)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	js, err := readLimited(r, limit, func([]byte) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	b, err := tinvoke.Encode(fn, p, js)
	var te *transcode.Error
	if errors.As(err, &te) {
		return nil, fmt.Errorf("request (the arguments of %s): %w", fn.Name, te)
	}
	return b, err
}

func (c *thriftCall) call(cmd *cobra.Command, stdio Stdio, tc *tinvoke.Client, args []byte) error {
	ctx := cmd.Context()
	if c.f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.f.timeout)
		defer cancel()
	}
	value, err := tc.Call(ctx, c.fn, args)
	var ex *tinvoke.Exception
	if errors.As(err, &ex) {
		value, _ = json.Marshal(map[string]json.RawMessage{ex.Name: ex.JSON})
		err = &exitError{code: exitThriftException, err: rendered(fmt.Sprintf("%s: exception %s", c.name(), ex.Name))}
	} else if err != nil {
		return c.failure(err)
	}
	if value == nil {
		return nil
	}
	if werr := c.print(cmd, stdio, value); werr != nil {
		return werr
	}
	return err
}

func (c *thriftCall) print(cmd *cobra.Command, stdio Stdio, value []byte) error {
	c.out.Reset()
	if c.f.json.indent(cmd, stdio) {
		if err := json.Indent(&c.out, value, "", "  "); err != nil {
			return err
		}
	} else {
		c.out.Write(value)
	}
	c.out.WriteByte('\n')
	_, err := stdio.Out.Write(c.out.Bytes())
	return err
}

// failure gives an application exception its exit code, 100+type.
func (c *thriftCall) failure(err error) error {
	var ae *client.ApplicationError
	if !errors.As(err, &ae) {
		return err
	}
	code := exitThriftApplication
	if ae.Type >= 0 && ae.Type <= maxApplicationType {
		code += int(ae.Type)
	}
	msg := fmt.Sprintf("%s: application exception %s", c.name(), ae.Type)
	if ae.Message != "" {
		msg += ": " + strings.TrimSpace(ae.Message)
	}
	return &exitError{code: code, err: rendered(msg)}
}

// name is the method's Service.method.
func (c *thriftCall) name() string { return c.fn.Service.Name + "." + c.fn.Name }
