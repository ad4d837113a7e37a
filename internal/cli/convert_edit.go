package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// setting is one --set: a path and the JSON of the value to put there.
type setting struct {
	path  dynamic.Path
	text  string
	value string
}

// settingsValue is the repeatable --set PATH=JSONVALUE flag. The path ends
// at the first '=' outside brackets and quoted strings.
type settingsValue struct{ list []setting }

func (v *settingsValue) Set(s string) error {
	i := pathEnd(s)
	if i < 0 {
		return fmt.Errorf("%q: want PATH=JSONVALUE", s)
	}
	p, err := dynamic.ParsePath(s[:i])
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "dynamic: "))
	}
	if !json.Valid([]byte(s[i+1:])) {
		return fmt.Errorf("%s: the value %q is not JSON (quote strings: %s='\"text\"')", s[:i], s[i+1:], s[:i])
	}
	v.list = append(v.list, setting{path: p, text: s[:i], value: s[i+1:]})
	return nil
}

func (v *settingsValue) String() string {
	parts := make([]string, len(v.list))
	for i, s := range v.list {
		parts[i] = s.text + "=" + s.value
	}
	return strings.Join(parts, ",")
}

func (v *settingsValue) Type() string { return "path=json" }

// pathEnd returns the index of the first '=' of s outside brackets and
// quoted strings, or -1.
func pathEnd(s string) int { return topLevelIndex(s, '=') }

// editDoc loads wire into a dynamic.Doc, removes each --delete path, then
// sets each --set value, in the order given, and returns the new message.
func (f *convertFlags) editDoc(codec invoke.JSONCodec, v dynamic.Value, wire []byte) ([]byte, error) {
	d := dynamic.NewDoc()
	if err := d.Load(v.Type(), wire); err != nil {
		return nil, err
	}
	for i, p := range f.del.paths {
		if err := d.Delete(p); err != nil {
			return nil, fmt.Errorf("--delete %s: %w", f.del.text[i], trimDynamic(err))
		}
	}
	for _, s := range f.set.list {
		val, err := settingValue(codec, v, s)
		if err == nil {
			err = d.Set(s.path, val)
		}
		if err != nil {
			return nil, fmt.Errorf("--set %s: %w", s.text, trimDynamic(err))
		}
	}
	return d.Marshal(), nil
}

// trimDynamic drops the package prefix of dynamic's errors, which the
// flag name replaces.
func trimDynamic(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "dynamic: "))
}

// settingValue reads the JSON of s as the value of the element its path
// names: the JSON goes through the same decoder as a whole message, in a
// one-field message around it, so enums, 64-bit integers, bytes and
// well-known types read as they do anywhere else.
func settingValue(codec invoke.JSONCodec, v dynamic.Value, s setting) (protoreflect.Value, error) {
	if _, err := v.Get(s.path); err != nil {
		return protoreflect.Value{}, err
	}
	holder, f := leafField(v.Type(), s.path)
	if f == nil {
		return protoreflect.Value{}, errors.New("no field at this path")
	}
	js, get := "{"+jsonKey(f.JSONName)+":"+s.value+"}", dynamic.Path{dynamic.NumberStep(f.Num)}
	switch last := s.path[len(s.path)-1]; {
	case last.Kind == dynamic.StepField && (f.List || f.Map):
		return protoreflect.Value{}, errors.New("set a list element or map entry, not the whole field")
	case f.Map:
		holder, f = f.Message, f.MapValue
		js, get = "{"+jsonKey(f.JSONName)+":"+s.value+"}", dynamic.Path{dynamic.NumberStep(f.Num)}
	case f.List:
		js, get = "{"+jsonKey(f.JSONName)+":["+s.value+"]}", append(get, dynamic.IndexStep(0))
	}
	wire, err := codec.Encode(nil, holder.Desc, []byte(js))
	if err != nil {
		return protoreflect.Value{}, valueError(s.value, f.JSONName, err)
	}
	e, err := dynamic.NewValue(holder, wire).Get(get)
	switch {
	case err != nil:
		return protoreflect.Value{}, err
	case e.IsMessage():
		return protoreflect.ValueOfBytes(e.Message().Bytes()), nil
	}
	return e.ProtoValue(), nil
}

// valueError says what is wrong with the JSON value of a --set. The
// position and path of the decoder's error are those of the one-field
// message around the value, so only a path inside the value is kept.
func valueError(value, field string, err error) error {
	var te *transcode.Error
	if !errors.As(err, &te) {
		return fmt.Errorf("the value %s: %w", value, err)
	}
	if rest, ok := strings.CutPrefix(te.Path, field+"."); ok {
		return fmt.Errorf("the value %s: field %q: %s", value, rest, te.Msg)
	}
	return fmt.Errorf("the value %s: %s", value, te.Msg)
}

// leafField returns the field the last field step of p names and the
// Type that holds it; p has been checked by dynamic.Value.Get.
func leafField(t *dynamic.Type, p dynamic.Path) (*dynamic.Type, *dynamic.Field) {
	var f *dynamic.Field
	for _, s := range p {
		if s.Kind != dynamic.StepField {
			continue
		}
		if f != nil {
			if t = f.Message; f.Map {
				t = f.MapValue.Message
			}
		}
		if t == nil {
			return nil, nil
		}
		if f = fieldOf(t, s); f == nil {
			return nil, nil
		}
	}
	return t, f
}

func fieldOf(t *dynamic.Type, s dynamic.Step) *dynamic.Field {
	if s.Num != 0 {
		return t.FieldByNumber(s.Num)
	}
	if f := t.FieldByName(s.Name); f != nil {
		return f
	}
	return t.FieldByJSONName(s.Name)
}

func jsonKey(name string) string {
	b, _ := json.Marshal(name)
	return string(b)
}
