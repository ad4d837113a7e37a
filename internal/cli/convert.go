package cli

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

type convertFlags struct {
	conn     connFlags
	schema   schemaFlags
	json     jsonFlags
	typeName string
	from, to string
	get      string
	orDef    bool
	mask     pathsValue
	keep     pathsValue
	set      settingsValue
	del      pathsValue
	idl      idlFlags
	keepType string
	tjson    thriftJSONFlags
}

func newConvertCmd(stdio Stdio) *cobra.Command {
	var f convertFlags
	cmd := &cobra.Command{
		Use:   "convert [TARGET] --type pkg.Message",
		Short: "Convert a message between JSON and protobuf; read, edit, mask or trim its fields",
		Long: `Read one message of --type from stdin and write it to stdout: as JSON or
protobuf binary (--from, --to), with fields removed (--mask), trimmed to a
field mask (--keep), edited (--delete, then --set, each in the order given),
or just one value read out of it (--get, printed as JSON). The schema comes
from --proto, --protoset, or a TARGET's reflection.

Paths are field names (proto or JSON) joined by dots, with [N] for a list
element and ["key"] or [N] for a map entry: items[2].price, labels["env"].
--mask, --keep and --delete take a comma-separated list of them; --set takes
PATH=JSONVALUE, the value as proto3 JSON ('name="x"', 'items[0].qty=3',
'labels["env"]="prod"'); a list index must name an element that is there.
With --get, an unset
field reads as its default, as in proto3; a list element past the end or an
absent map key has no value: nothing is printed and the exit code is 1,
unless --default asks for the default.

With --idl, the schema is a Thrift IDL file and --type a struct of it;
--from and --to are json, binary or compact (--to defaults to --from).
Thrift JSON keys fields by their IDL names (--ids: by id), writes i64 as
numbers (--i64-strings, or a field annotated api.js_conv: as strings),
binary as base64, enums as numbers (--enum-names: by name), and maps with
struct keys as lists of {"key":...,"value":...}; input takes every form.
--set takes scalar values; --keep PATHS keeps only those fields, and
--keep-type NAME trims to a subset struct (Medium to MediumPart).`,
		Example: `  rpckit convert --protoset api.pb --type pkg.Order --from json --to binary < order.json > order.bin
  rpckit convert --protoset api.pb --type pkg.Order --get 'items[0].sku' < order.bin
  rpckit convert --protoset api.pb --type pkg.User --mask email,phone --to binary < user.bin > redacted.bin
  rpckit convert --protoset api.pb --type pkg.Order --set 'status="SHIPPED"' --delete note --to binary < order.bin
  rpckit convert --idl api.thrift --type api.Order --from binary --to compact < order.bin > order.compact
  rpckit convert --idl api.thrift --type api.Order --from json --to binary < order.json > order.bin`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && !strings.Contains(args[0], ":") {
				return usagef("%q is not a target (host:port or unix:path)", args[0])
			}
			target, _ := splitTarget(args)
			if f.idl.file != "" {
				return runThriftConvert(cmd, stdio, &f, target)
			}
			return runConvert(cmd, stdio, &f, target)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.typeName, "type", "", "full name of the message type (required)")
	fs.StringVar(&f.from, "from", "binary", "input format: binary or json; binary or compact with --idl")
	fs.StringVar(&f.to, "to", "json", "output format: json or binary; binary or compact with --idl (default: --from)")
	fs.StringVar(&f.get, "get", "", "print the value at `PATH` as JSON; a list element past the end or an absent map key is an error (exit 1)")
	fs.BoolVar(&f.orDef, "default", false, "with --get, print the default where the path has no value")
	fs.Var(&f.mask, "mask", "remove these field `paths` (comma-separated, repeatable)")
	fs.Var(&f.keep, "keep", "keep only these field `paths`, as a FieldMask does (comma-separated, repeatable)")
	fs.Var(&f.set, "set", "set the value at PATH to the proto3 JSON `PATH=JSONVALUE` (repeatable)")
	fs.Var(&f.del, "delete", "delete the fields, list elements or map entries at these `paths` (comma-separated, repeatable)")
	f.conn.register(fs)
	f.schema.register(fs)
	f.json.register(fs)
	f.idl.register(fs)
	fs.StringVar(&f.keepType, "keep-type", "", "with --idl, trim the struct to the subset struct `NAME`")
	f.tjson.register(fs)
	return cmd
}

func runConvert(cmd *cobra.Command, stdio Stdio, f *convertFlags, target string) error {
	if err := f.check(); err != nil {
		return err
	}
	s, err := open(cmd.Context(), target, &f.conn, &f.schema)
	if err != nil {
		return err
	}
	defer s.close()
	md, err := messageType(cmd, s, f.typeName)
	if err != nil {
		return err
	}
	codec, err := s.codec(cmd.Context(), f.json.opts)
	if err != nil {
		return err
	}
	wire, err := f.readWire(codec, md, stdio.In)
	if err != nil {
		return err
	}
	out, err := f.apply(codec, md, wire)
	if err != nil {
		return err
	}
	if f.to == "json" || f.get != "" {
		out = f.finishJSON(cmd, stdio, out)
	}
	_, err = stdio.Out.Write(out)
	return err
}

func (f *convertFlags) check() error {
	if f.typeName == "" {
		return usagef("--type is required")
	}
	for name, v := range map[string]string{"--from": f.from, "--to": f.to} {
		if v != "json" && v != "binary" {
			return usagef("%s %q: want json or binary", name, v)
		}
	}
	n := 0
	edit := len(f.set.list) > 0 || len(f.del.paths) > 0
	for _, set := range []bool{f.get != "", len(f.mask.paths) > 0, len(f.keep.paths) > 0, edit} {
		if set {
			n++
		}
	}
	if n > 1 {
		return usagef("--get, --mask, --keep and --set/--delete go one at a time")
	}
	if f.orDef && f.get == "" {
		return usagef("--default goes with --get")
	}
	if f.keepType != "" {
		return usagef("--keep-type goes with --idl; for protobuf, --keep takes field paths")
	}
	return nil
}

func messageType(cmd *cobra.Command, s *session, name string) (protoreflect.MessageDescriptor, error) {
	d, err := findSymbol(cmd, s, name)
	if err != nil {
		return nil, err
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("--type %s is a %s, not a message", name, schema.Kind(d))
	}
	return md, nil
}

// readWire reads the one input message, of at most --max-msg-size bytes,
// as protobuf, checking it, or as JSON, encoding it. Either way it stops
// at the first byte that shows the input is bad; when the input fails as
// one form and its first bytes look like the other, the error says so and
// names --from.
func (f *convertFlags) readWire(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, r io.Reader) ([]byte, error) {
	if f.from == "json" {
		return readJSONWire(codec, md, r, f.conn.opts.MaxMsgSize)
	}
	return readBinaryWire(md, r, f.conn.opts.MaxMsgSize)
}

var (
	errLooksBinary = errors.New("the input looks like protobuf binary, not JSON; leave out --from json to read binary")
	errLooksJSON   = errors.New("the input looks like JSON, not protobuf binary; give --from json to read JSON")
)

func readJSONWire(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, r io.Reader, limit int) ([]byte, error) {
	hr := &headReader{r: r}
	wire, err := readJSONMessage(hr, limit, encoder(codec, md))
	if err == nil {
		return wire, nil
	}
	if looksBinary(hr.head) && !looksJSON(hr.head) {
		return nil, errLooksBinary
	}
	return nil, err
}

func readBinaryWire(md protoreflect.MessageDescriptor, r io.Reader, limit int) ([]byte, error) {
	invalid := func(in []byte, err error) error {
		if looksJSON(in[:min(len(in), headLen)]) {
			return errLooksJSON
		}
		return fmt.Errorf("input is not a valid %s: %w", md.FullName(), err)
	}
	scan := protoScan{limit: limit}
	in, err := readLimited(r, limit, func(b []byte) error {
		if err := scan.feed(b); err != nil {
			return invalid(b, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := dynamic.Validate(dynamic.TypeOf(md), in); err != nil {
		return nil, invalid(in, err)
	}
	return in, nil
}

// apply does the edit or read asked for; the result is wire bytes, or JSON
// for --get.
func (f *convertFlags) apply(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, wire []byte) ([]byte, error) {
	v := dynamic.NewValue(dynamic.TypeOf(md), wire)
	var err error
	switch {
	case f.get != "":
		return getJSON(codec, v, f.get, f.orDef)
	case len(f.mask.paths) > 0:
		wire, err = maskPaths(v.Type(), wire, f.mask.paths)
	case len(f.keep.paths) > 0:
		wire, err = keepPaths(v.Type(), wire, f.keep.paths)
	case len(f.set.list) > 0 || len(f.del.paths) > 0:
		wire, err = f.editDoc(codec, v, wire)
	}
	if err != nil {
		return nil, err
	}
	if f.to == "json" {
		// Room for the JSON up front: a large result grown step by step
		// holds its old and new copies at once, and the newline appended
		// after it would copy it once more. Capacity not written to costs
		// no memory.
		return codec.Decode(make([]byte, 0, 2*len(wire)+64), md, wire)
	}
	return wire, nil
}

func (f *convertFlags) finishJSON(cmd *cobra.Command, stdio Stdio, js []byte) []byte {
	if f.json.indent(cmd, stdio) {
		var out bytes.Buffer
		if json.Indent(&out, js, "", "  ") == nil {
			js = out.Bytes()
		}
	}
	return append(js, '\n')
}

// getJSON reads the value at path and renders it as proto3 JSON. A path
// through a list element or map entry that is not there has no value: an
// error, unless orDefault asks for the default. An unset singular field
// reads as its default, as proto3 has it.
func getJSON(codec invoke.JSONCodec, v dynamic.Value, path string, orDefault bool) ([]byte, error) {
	p, err := dynamic.ParsePath(path)
	if err != nil {
		return nil, err
	}
	e, err := v.Get(p)
	if err != nil {
		return nil, err
	}
	if !orDefault && !e.Exists() {
		if absent, err := missingElement(v, p); err != nil || absent {
			return nil, cmp.Or(err, fmt.Errorf("no value at %s; give --default to print the default", p))
		}
	}
	return elemJSON(codec, nil, e)
}

// missingElement reports whether a list index or map key on path p names
// an element that is not there.
func missingElement(v dynamic.Value, p dynamic.Path) (bool, error) {
	for i, s := range p {
		if s.Kind == dynamic.StepField {
			continue
		}
		e, err := v.Get(p[:i+1])
		if err != nil || !e.Exists() {
			return err == nil, err
		}
	}
	return false, nil
}

// looksJSON reports whether in starts, after white space, as a JSON
// object or array does.
func looksJSON(in []byte) bool {
	in = bytes.TrimLeft(in, " \t\r\n")
	return len(in) > 0 && (in[0] == '{' || in[0] == '[')
}

// headLen is how much of the input looksJSON and looksBinary see.
const headLen = 512

// headReader keeps the first headLen bytes read through it.
type headReader struct {
	r    io.Reader
	head []byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := headLen - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// looksBinary reports whether in, the start of an input, holds what JSON
// text cannot: control characters other than white space, or bytes that
// are not UTF-8 (a rune cut at the end of in is not counted).
func looksBinary(in []byte) bool {
	for _, c := range in {
		if c < ' ' && c != '\t' && c != '\r' && c != '\n' {
			return true
		}
	}
	for len(in) > 0 {
		r, size := utf8.DecodeRune(in)
		if r == utf8.RuneError && size == 1 {
			return utf8.FullRune(in)
		}
		in = in[size:]
	}
	return false
}

func elemJSON(codec invoke.JSONCodec, dst []byte, e dynamic.Elem) ([]byte, error) {
	switch {
	case e.IsList():
		return listJSON(codec, dst, e.List())
	case e.IsMap():
		return mapJSON(codec, dst, e.Map())
	case e.IsMessage():
		m := e.Message()
		return codec.Decode(dst, m.Type().Desc, m.Bytes())
	}
	return scalarJSON(dst, e.Field(), e)
}

func listJSON(codec invoke.JSONCodec, dst []byte, l dynamic.List) ([]byte, error) {
	dst = append(dst, '[')
	var err error
	rerr := l.Range(func(i int, e dynamic.Elem) bool {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst, err = elemJSON(codec, dst, e)
		return err == nil
	})
	if err == nil {
		err = rerr
	}
	return append(dst, ']'), err
}

func mapJSON(codec invoke.JSONCodec, dst []byte, m dynamic.Map) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	var err error
	rerr := m.Range(func(k, val dynamic.Elem) bool {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		key, _ := json.Marshal(mapKeyText(k))
		dst = append(dst, key...)
		dst = append(dst, ':')
		dst, err = elemJSON(codec, dst, val)
		return err == nil
	})
	if err == nil {
		err = rerr
	}
	return append(dst, '}'), err
}

func mapKeyText(k dynamic.Elem) string {
	switch k.Field().Kind {
	case protoreflect.StringKind:
		return k.String()
	case protoreflect.BoolKind:
		return strconv.FormatBool(k.Bool())
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return strconv.FormatUint(k.Uint(), 10)
	}
	return strconv.FormatInt(k.Int(), 10)
}

// scalarJSON renders one scalar as canonical proto3 JSON.
func scalarJSON(dst []byte, fd *dynamic.Field, e dynamic.Elem) ([]byte, error) {
	switch fd.Kind {
	case protoreflect.BoolKind:
		return strconv.AppendBool(dst, e.Bool()), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return strconv.AppendInt(dst, e.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return strconv.AppendUint(dst, e.Uint(), 10), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.AppendQuote(dst, strconv.FormatInt(e.Int(), 10)), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.AppendQuote(dst, strconv.FormatUint(e.Uint(), 10)), nil
	case protoreflect.FloatKind:
		return floatJSON(dst, e.Float(), 32), nil
	case protoreflect.DoubleKind:
		return floatJSON(dst, e.Float(), 64), nil
	case protoreflect.StringKind:
		b, err := json.Marshal(e.String())
		return append(dst, b...), err
	case protoreflect.BytesKind:
		return strconv.AppendQuote(dst, base64.StdEncoding.EncodeToString(e.Bytes())), nil
	case protoreflect.EnumKind:
		return enumJSON(dst, fd, e.Enum()), nil
	}
	return dst, fmt.Errorf("field %s: kind %s has no JSON form here", fd.Name, fd.Kind)
}

func floatJSON(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func enumJSON(dst []byte, fd *dynamic.Field, n protoreflect.EnumNumber) []byte {
	if fd.Desc.Enum().FullName() == "google.protobuf.NullValue" {
		return append(dst, "null"...)
	}
	if name, ok := fd.Enum.Name(n); ok {
		return strconv.AppendQuote(dst, name)
	}
	return strconv.AppendInt(dst, int64(n), 10)
}
