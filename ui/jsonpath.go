package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// pathError is request JSON the codec refused, with the path of the
// innermost field that fails on its own (such as "item.tags[2]").
type pathError struct {
	Path string
	Err  error
}

func (e *pathError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("ui: at %s: %v", e.Path, e.Err)
}

func (e *pathError) Unwrap() error { return e.Err }

// encode converts body to wire bytes; when the codec refuses it, the error
// says where.
func encode(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, body []byte) ([]byte, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	wire, err := codec.Encode(nil, md, body)
	if err != nil {
		return nil, &pathError{Path: locate(codec, md, body, ""), Err: err}
	}
	return wire, nil
}

// locate finds the innermost field of msg that the codec refuses alone.
// The JSON codec is the only judge: each candidate is re-encoded as a
// message holding just that field, so the path agrees with what the codec
// accepts whatever its implementation.
func locate(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, msg []byte, path string) string {
	if wktSamples[md.FullName()] {
		return path
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(msg, &obj); err != nil {
		return path
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub := join(path, k)
		fd := fieldByName(md, k)
		if fd == nil {
			return sub
		}
		if accepts(codec, md, k, obj[k]) {
			continue
		}
		return locateValue(codec, md, fd, k, obj[k], sub)
	}
	return path
}

func locateValue(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor, key string, val json.RawMessage, path string) string {
	switch {
	case fd.IsList():
		var elems []json.RawMessage
		if json.Unmarshal(val, &elems) != nil {
			return path
		}
		for i, e := range elems {
			if !accepts(codec, md, key, listOf(e)) {
				return elemPath(fd.Message(), codec, e, path+"["+strconv.Itoa(i)+"]")
			}
		}
	case fd.IsMap():
		var entries map[string]json.RawMessage
		if json.Unmarshal(val, &entries) != nil {
			return path
		}
		keys := make([]string, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !accepts(codec, md, key, mapOf(k, entries[k])) {
				return elemPath(fd.MapValue().Message(), codec, entries[k], path+"["+strconv.Quote(k)+"]")
			}
		}
	case fd.Message() != nil:
		return locate(codec, fd.Message(), val, path)
	}
	return path
}

func elemPath(md protoreflect.MessageDescriptor, codec invoke.JSONCodec, val json.RawMessage, path string) string {
	if md == nil {
		return path
	}
	return locate(codec, md, val, path)
}

func accepts(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, key string, val json.RawMessage) bool {
	one, _ := json.Marshal(map[string]json.RawMessage{key: val})
	_, err := codec.Encode(nil, md, one)
	return err == nil
}

func listOf(e json.RawMessage) json.RawMessage {
	b, _ := json.Marshal([]json.RawMessage{e})
	return b
}

func mapOf(k string, v json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(map[string]json.RawMessage{k: v})
	return b
}

func fieldByName(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor {
	if fd := md.Fields().ByJSONName(name); fd != nil {
		return fd
	}
	return md.Fields().ByName(protoreflect.Name(name))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
