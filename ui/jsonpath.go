package ui

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// pathError is request JSON the codec refused, with the path of the field
// at fault (such as "item.tags[2]"), in JSON names as the page's form has
// them.
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
// says where, with the field path transcode's error carries.
func encode(codec invoke.JSONCodec, md protoreflect.MessageDescriptor, body []byte) ([]byte, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	wire, err := codec.Encode(nil, md, body)
	if err != nil {
		return nil, &pathError{Path: errorPath(err), Err: err}
	}
	return wire, nil
}

// errorPath is the path of the field at fault in a transcode error: the
// field whose value is refused, or the key that names no field.
func errorPath(err error) string {
	var te *transcode.Error
	if !errors.As(err, &te) {
		return ""
	}
	var uf *transcode.UnknownFieldError
	if errors.As(te, &uf) {
		return join(te.Path, uf.Name)
	}
	return te.Path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
