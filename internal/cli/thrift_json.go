package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	tinvoke "github.com/rpckit/rpckit/thrift/invoke"
	ttranscode "github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
	"github.com/spf13/pflag"
)

// thriftJSONFlags bind the JSON choices of convert --idl into the
// options of thrift/transcode.
type thriftJSONFlags struct {
	marshal        ttranscode.MarshalOptions
	discardUnknown bool
}

func (f *thriftJSONFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.marshal.EnumNames, "enum-names", false, "with --idl, print enum values by name rather than number")
	fs.BoolVar(&f.marshal.I64Strings, "i64-strings", false, "with --idl, print every i64 as a JSON string (fields annotated api.js_conv always are)")
	fs.BoolVar(&f.marshal.UseIDs, "ids", false, "with --idl, key JSON fields by their ids rather than their names")
	fs.BoolVar(&f.discardUnknown, "discard-unknown", false, "with --idl, skip JSON fields the struct does not have instead of failing")
}

func (f *thriftJSONFlags) marshalOpts(p wire.Protocol) ttranscode.MarshalOptions {
	o := f.marshal
	o.Protocol = p
	return o
}

// thriftFormat parses --from or --to with --idl: a protocol, or JSON.
func thriftFormat(flag, name string) (p wire.Protocol, isJSON bool, err error) {
	switch name {
	case "binary":
		return wire.Binary, false, nil
	case "compact":
		return wire.Compact, false, nil
	case "json":
		return wire.Binary, true, nil
	}
	return 0, false, usagef("%s %q: want json, binary or compact with --idl", flag, name)
}

// readJSON converts the JSON input to the binary protocol.
func (c *thriftConvert) readJSON(in []byte, t *dynamic.Type) ([]byte, error) {
	o := ttranscode.UnmarshalOptions{Protocol: wire.Binary, DiscardUnknown: c.f.tjson.discardUnknown}
	b, err := o.Unmarshal(t, in)
	if err != nil {
		return nil, &inputError{subject: "input", err: err}
	}
	return b, nil
}

// writeJSON converts the struct b, of type t in protocol p, to JSON text
// ending in a newline, indented when asked.
func (c *thriftConvert) writeJSON(t *dynamic.Type, p wire.Protocol, b []byte) ([]byte, error) {
	out, err := c.f.tjson.marshalOpts(p).Marshal(t, b)
	if err != nil {
		return nil, err
	}
	return c.finish(out), nil
}

func (c *thriftConvert) finish(out []byte) []byte {
	if c.pretty {
		var buf bytes.Buffer
		if json.Indent(&buf, out, "", "  ") == nil {
			out = buf.Bytes()
		}
	}
	return append(out, '\n')
}

// valueJSON is --get's JSON of a struct or container found in the input.
func (c *thriftConvert) valueJSON(e dynamic.Value) ([]byte, error) {
	out, err := c.f.tjson.marshalOpts(e.Protocol()).MarshalValue(nil, e.Type(), e.Raw())
	if err != nil {
		return nil, err
	}
	return c.finish(out), nil
}

// thriftInputMessage renders a conversion error of thrift/transcode as
// the protobuf side's are: what, then where.
func thriftInputMessage(err error) (string, bool) {
	var ie *inputError
	var te *ttranscode.Error
	if !errors.As(err, &ie) || !errors.As(ie.err, &te) {
		return "", false
	}
	var b strings.Builder
	b.WriteString(ie.subject)
	if te.Line > 0 {
		fmt.Fprintf(&b, ", line %d col %d", te.Line, te.Col)
	} else {
		fmt.Fprintf(&b, ", offset %d", te.Offset)
	}
	if te.Path != "" {
		fmt.Fprintf(&b, ", field %q", te.Path)
	}
	return b.String() + ": " + te.Msg, true
}

// thriftTemplate prints sample JSON for the struct, union or exception
// name, or for the arguments of the function name (Service.method): every
// field with a sample value (a union its first), containers with one
// element, enums by their first name.
func thriftTemplate(out *bytes.Buffer, f *idl.File, name string) error {
	if name == "" {
		return usagef("--template needs a struct or a function: describe --idl FILE --template NAME")
	}
	sym, err := newIDLSymbols(f).find(name)
	if err != nil {
		return err
	}
	var j []byte
	switch d := sym.decl.(type) {
	case *idl.Struct:
		j, err = tinvoke.Template(d)
	case *idl.Function:
		j, err = tinvoke.ArgsTemplate(d)
	default:
		return fmt.Errorf("--template needs a struct, union, exception or function; %s is %s %s", sym.name, article(sym.kind), sym.kind)
	}
	if err != nil {
		return err
	}
	if err := json.Indent(out, j, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	return nil
}
