package cli

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

// get reads the value at --get's path and prints it as JSON text: a
// scalar as a string quoted, a binary in base64, a number plain, an enum by
// its name; a struct or container as convert's JSON output writes it. An
// absent value is an error, unless --default asks for the field's IDL
// default (or its type's zero value).
func (c *thriftConvert) get(v dynamic.Value) ([]byte, error) {
	p, err := thriftPath("--get", c.f.get)
	if err != nil {
		return nil, err
	}
	e, err := v.Get(p)
	if err != nil {
		return nil, err
	}
	t := e.Type()
	if !e.Exists() {
		if !c.f.orDef {
			return nil, fmt.Errorf("no value at %s; give --default to print the default", p)
		}
		if !t.Kind.IsBase() && t.Kind != idl.EnumKind {
			return nil, fmt.Errorf("no value at %s; --default prints scalars only", p)
		}
		return defaultJSON(v, p, t)
	}
	if !t.Kind.IsBase() && t.Kind != idl.EnumKind {
		return c.valueJSON(e)
	}
	return append(scalarThriftJSON(nil, t, e), '\n'), nil
}

func scalarThriftJSON(dst []byte, t *dynamic.Type, e dynamic.Value) []byte {
	switch t.Kind {
	case idl.BoolKind:
		return strconv.AppendBool(dst, e.Bool())
	case idl.DoubleKind:
		return floatJSON(dst, e.Float(), 64)
	case idl.StringKind:
		b, _ := json.Marshal(e.String()) // Validate checked the UTF-8
		return append(dst, b...)
	case idl.BinaryKind:
		return strconv.AppendQuote(dst, base64.StdEncoding.EncodeToString(e.Binary()))
	case idl.UUIDKind:
		return strconv.AppendQuote(dst, uuidText(e.UUID()))
	case idl.EnumKind:
		if ev := t.Enum.ByNumber(int32(e.Int())); ev != nil {
			return strconv.AppendQuote(dst, ev.Name)
		}
	}
	return strconv.AppendInt(dst, e.Int(), 10)
}

// defaultJSON is the default of the field at p: the IDL's, when the field
// declares one, else the zero value of its type.
func defaultJSON(v dynamic.Value, p dynamic.Path, t *dynamic.Type) ([]byte, error) {
	var def *idl.Value
	if last := p[len(p)-1]; last.Kind == dynamic.StepField {
		parent, err := v.Get(p[:len(p)-1])
		if err != nil {
			return nil, err
		}
		f := parent.Type().FieldByID(last.ID)
		if last.Name != "" {
			f = parent.Type().FieldByName(last.Name)
		}
		if f != nil && f.IDL != nil {
			def = f.IDL.Default
		}
	}
	var out []byte
	switch k := t.Kind; {
	case def != nil && k == idl.EnumKind && def.Enum != nil:
		out = strconv.AppendQuote(out, def.Enum.Name)
	case def != nil && k == idl.BoolKind:
		out = strconv.AppendBool(out, def.Bool)
	case def != nil && k == idl.DoubleKind:
		out = floatJSON(out, def.Double, 64)
	case def != nil && k == idl.BinaryKind:
		out = strconv.AppendQuote(out, base64.StdEncoding.EncodeToString([]byte(def.String)))
	case def != nil && (k == idl.StringKind || k == idl.UUIDKind):
		b, _ := json.Marshal(def.String)
		out = append(out, b...)
	case def != nil:
		out = strconv.AppendInt(out, def.Int, 10)
	default:
		out = scalarThriftJSON(out, t, dynamic.Value{})
	}
	return append(out, '\n'), nil
}

func uuidText(u [16]byte) string {
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// thriftScalar parses the JSON text of a --set value by the kind of t:
// true or false, an integer in the type's range, a number, a quoted
// string, base64 for a binary, an enum's name or number, a quoted uuid.
func thriftScalar(t *dynamic.Type, text string) (dynamic.Val, error) {
	switch k := t.Kind; {
	case k == idl.BoolKind:
		b, err := strconv.ParseBool(text)
		if err != nil || (text != "true" && text != "false") {
			return dynamic.Val{}, fmt.Errorf("want true or false, not %s", text)
		}
		return dynamic.BoolVal(b), nil
	case k >= idl.I8Kind && k <= idl.I64Kind:
		bits := map[idl.Kind]int{idl.I8Kind: 8, idl.I16Kind: 16, idl.I32Kind: 32, idl.I64Kind: 64}[k]
		n, err := strconv.ParseInt(text, 10, bits)
		if err != nil {
			return dynamic.Val{}, fmt.Errorf("want an integer that fits %s, not %s", k, text)
		}
		return dynamic.IntVal(n), nil
	case k == idl.DoubleKind:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return dynamic.Val{}, fmt.Errorf("want a number, not %s", text)
		}
		return dynamic.FloatVal(x), nil
	case k == idl.EnumKind:
		return enumScalar(t, text)
	case k == idl.StringKind || k == idl.BinaryKind || k == idl.UUIDKind:
		return stringScalar(k, text)
	}
	return dynamic.Val{}, fmt.Errorf("the value is %s; with --idl, --set takes scalar values only", thriftKindName(t))
}

func enumScalar(t *dynamic.Type, text string) (dynamic.Val, error) {
	var name string
	if json.Unmarshal([]byte(text), &name) == nil {
		if ev := t.Enum.Value(name); ev != nil {
			return dynamic.IntVal(int64(ev.Value)), nil
		}
		return dynamic.Val{}, fmt.Errorf("enum %s has no value %q", t.Name(), name)
	}
	n, err := strconv.ParseInt(text, 10, 32)
	if err != nil {
		return dynamic.Val{}, fmt.Errorf("want a value name of enum %s (quoted) or a number, not %s", t.Name(), text)
	}
	return dynamic.IntVal(n), nil
}

func stringScalar(k idl.Kind, text string) (dynamic.Val, error) {
	var s string
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return dynamic.Val{}, fmt.Errorf("want a quoted JSON string for %s, not %s", k, text)
	}
	switch k {
	case idl.BinaryKind:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return dynamic.Val{}, fmt.Errorf("a binary is written in base64: %w", err)
		}
		return dynamic.BinaryVal(b), nil
	case idl.UUIDKind:
		u, err := parseUUID(s)
		if err != nil {
			return dynamic.Val{}, err
		}
		return dynamic.UUIDVal(u), nil
	}
	return dynamic.StringVal(s), nil
}

func parseUUID(s string) ([16]byte, error) {
	var u [16]byte
	h := strings.ReplaceAll(strings.Trim(s, "{}"), "-", "")
	if len(h) != 32 {
		return u, errors.New("want a uuid as 8-4-4-4-12 hex digits, not " + strconv.Quote(s))
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, errors.New("want a uuid as 8-4-4-4-12 hex digits, not " + strconv.Quote(s))
	}
	return u, nil
}
