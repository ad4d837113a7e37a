package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
	"github.com/spf13/cobra"
)

// thriftConvert is convert --idl: one struct read in one Thrift protocol,
// checked, read from or edited, and written in the same or the other.
type thriftConvert struct {
	f        *convertFlags
	from, to wire.Protocol
	// fromJSON and toJSON: the input or output is JSON; the struct goes
	// between them in the binary protocol.
	fromJSON, toJSON bool
	pretty           bool
	out              *dynamic.Type // what is written: the --type, or the --keep-type
	cache            dynamic.Cache
	syms             *idlSymbols
}

func runThriftConvert(cmd *cobra.Command, stdio Stdio, f *convertFlags, target string) error {
	if err := f.idl.check(&f.schema, target); err != nil {
		return err
	}
	c := &thriftConvert{f: f, pretty: f.json.indent(cmd, stdio)}
	if err := c.checkFlags(cmd); err != nil {
		return err
	}
	file, err := loadIDL(f.idl.file, f.schema.importPaths)
	if err != nil {
		return err
	}
	c.syms = newIDLSymbols(file)
	t, err := c.structType("--type", f.typeName)
	if err != nil {
		return err
	}
	in, err := c.read(stdio, t)
	if err != nil {
		return err
	}
	out, err := c.apply(t, in)
	if err != nil {
		return err
	}
	_, err = stdio.Out.Write(out)
	return err
}

func (c *thriftConvert) checkFlags(cmd *cobra.Command) error {
	f := c.f
	if !cmd.Flags().Changed("to") {
		f.to = f.from
	}
	var err error
	if c.from, c.fromJSON, err = thriftFormat("--from", f.from); err != nil {
		return err
	}
	if c.to, c.toJSON, err = thriftFormat("--to", f.to); err != nil {
		return err
	}
	if f.typeName == "" {
		return usagef("--type is required")
	}
	n := 0
	edit := len(f.set.list) > 0 || len(f.del.paths) > 0
	for _, set := range []bool{f.get != "", len(f.mask.paths) > 0, len(f.keep.paths) > 0, f.keepType != "", edit} {
		if set {
			n++
		}
	}
	if n > 1 {
		return usagef("--get, --mask, --keep, --keep-type and --set/--delete go one at a time")
	}
	if f.orDef && f.get == "" {
		return usagef("--default goes with --get")
	}
	return nil
}

// structType compiles the struct, union or exception name.
func (c *thriftConvert) structType(flag, name string) (*dynamic.Type, error) {
	sym, err := c.syms.find(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	st, ok := sym.decl.(*idl.Struct)
	if !ok {
		return nil, fmt.Errorf("%s %s is %s %s, not a struct", flag, sym.name, article(sym.kind), sym.kind)
	}
	return c.cache.Struct(st), nil
}

// read reads the input, at most --max-msg-size bytes, and checks that it
// is one well-formed struct of t in the --from protocol.
func (c *thriftConvert) read(stdio Stdio, t *dynamic.Type) ([]byte, error) {
	in, err := readLimited(stdio.In, c.f.conn.opts.MaxMsgSize, func([]byte) error { return nil })
	if err != nil {
		return nil, err
	}
	if c.fromJSON {
		return c.readJSON(in, t)
	}
	err = dynamic.Validate(t, c.from, in)
	if err == nil {
		return in, nil
	}
	other := wire.Compact
	if c.from == wire.Compact {
		other = wire.Binary
	}
	switch {
	case looksJSON(in[:min(len(in), headLen)]):
		return nil, errors.New("the input looks like JSON; give --from json")
	case len(in) > 0 && dynamic.Validate(t, other, in) == nil:
		return nil, fmt.Errorf("the input is a %s in the %s protocol, not %s; give --from %s", t.Name(), other, c.from, other)
	}
	return nil, fmt.Errorf("input is not a valid %s in the %s protocol: %w", t.Name(), c.from, err)
}

// apply does the read or the edit asked for and encodes the result in the
// --to protocol.
func (c *thriftConvert) apply(t *dynamic.Type, in []byte) ([]byte, error) {
	f := c.f
	v := dynamic.NewValue(t, c.from, in)
	c.out = t
	var err error
	switch {
	case f.get != "":
		return c.get(v)
	case len(f.mask.paths) > 0:
		in, err = c.mask(v, "--mask", c.f.mask.text, v.Mask)
	case len(f.keep.paths) > 0:
		in, err = c.mask(v, "--keep", c.f.keep.text, v.KeepPaths)
	case f.keepType != "":
		in, err = c.keep(v)
	case len(f.set.list) > 0 || len(f.del.paths) > 0:
		in, err = c.edit(t, in)
	}
	if err != nil {
		return nil, err
	}
	if c.toJSON {
		return c.writeJSON(c.out, c.from, in)
	}
	return recode(nil, c.out, c.from, c.to, in)
}

// mask drops (--mask) or keeps (--keep) the paths of flag.
func (c *thriftConvert) mask(v dynamic.Value, flag string, paths []string, apply func([]byte, *dynamic.FieldMask) ([]byte, error)) ([]byte, error) {
	fm, err := dynamic.NewFieldMask(v.Type(), paths...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return apply(nil, fm)
}

func (c *thriftConvert) keep(v dynamic.Value) ([]byte, error) {
	to, err := c.structType("--keep-type", c.f.keepType)
	if err != nil {
		return nil, err
	}
	out, err := v.Keep(nil, to)
	if err != nil {
		return nil, fmt.Errorf("--keep-type: %w", err)
	}
	c.out = to
	return out, nil
}

// edit applies the --delete paths, then the --set values, in the order
// given, each on the result of the one before.
func (c *thriftConvert) edit(t *dynamic.Type, in []byte) ([]byte, error) {
	for _, text := range c.f.del.text {
		p, err := thriftPath("--delete", text)
		if err != nil {
			return nil, err
		}
		if in, err = dynamic.NewValue(t, c.from, in).Delete(nil, p); err != nil {
			return nil, fmt.Errorf("--delete %s: %w", text, err)
		}
	}
	for _, s := range c.f.set.list {
		p, err := thriftPath("--set", s.text)
		if err != nil {
			return nil, err
		}
		v := dynamic.NewValue(t, c.from, in)
		at, err := v.Get(p)
		if err != nil {
			return nil, fmt.Errorf("--set %s: %w", s.text, err)
		}
		x, err := thriftScalar(at.Type(), s.value)
		if err != nil {
			return nil, fmt.Errorf("--set %s: %w", s.text, err)
		}
		if in, err = v.Set(nil, p, x); err != nil {
			return nil, fmt.Errorf("--set %s: %w", s.text, err)
		}
	}
	return in, nil
}

func thriftPath(flag, text string) (dynamic.Path, error) {
	p, err := dynamic.ParsePath(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return p, nil
}

// thriftKindName says what a Type is, for errors: "a struct Small",
// "a list<string>".
func thriftKindName(t *dynamic.Type) string {
	name := t.Name()
	if t.Kind.IsStruct() {
		name = t.Kind.String() + " " + name
	}
	return article(strings.TrimSpace(name)) + " " + name
}
