package dynamic

import (
	"errors"
	"strconv"

	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Error reports bytes that are malformed, or that do not fit the Type:
// the offset in the bytes given to the operation, the path of the value
// being read, and a wire.Code, or for a misfit (Code 0) a message.
type Error struct {
	Offset int
	Path   string
	Code   wire.Code
	Msg    string
}

func (e *Error) Error() string {
	s := "thrift/dynamic: offset " + strconv.Itoa(e.Offset) + ": "
	if e.Path != "" {
		s += "field " + strconv.Quote(errtext.ShortPath(e.Path)) + ": "
	}
	if e.Code != 0 {
		return s + e.Code.String()
	}
	return s + e.Msg
}

// Is reports whether target is an *Error or a *wire.Error with the same
// code (and, for a misfit, the same message).
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case *Error:
		return t.Code == e.Code && (e.Code != 0 || t.Msg == e.Msg)
	case *wire.Error:
		return e.Code != 0 && t.Code == e.Code
	}
	return false
}

// PathError reports a path that does not fit the Type: an unknown field,
// a step into a scalar, a key of the wrong kind, or an edit the path
// cannot take.
type PathError struct {
	Path string
	Msg  string
}

func (e *PathError) Error() string {
	return "thrift/dynamic: path " + strconv.Quote(e.Path) + ": " + e.Msg
}

// PathSyntaxError reports a path that does not parse.
type PathSyntaxError struct {
	Path   string
	Offset int
	Msg    string
}

func (e *PathSyntaxError) Error() string {
	return "thrift/dynamic: path " + strconv.Quote(e.Path) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// wrapWire turns a wire error into an Error on the path p[:n].
func wrapWire(err error, p Path, n int) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &Error{Offset: we.Offset, Path: p[:n].String(), Code: we.Code}
	}
	return err
}

// misfit reports bytes that do not fit the Type at off.
func misfit(off int, path, msg string) error {
	return &Error{Offset: off, Path: path, Msg: msg}
}

func pathError(p Path, n int, msg string) error {
	return &PathError{Path: p[:n].String(), Msg: msg}
}

// noField describes a field step that names no field of t, with the
// closest names.
func noField(t *Type, s Step) string {
	if s.Name == "" {
		return "no field with id " + strconv.Itoa(int(s.ID)) + " in " + t.Name()
	}
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
	}
	return "no field " + strconv.Quote(s.Name) + " in " + t.Name() + errtext.DidYouMean(errtext.Closest(s.Name, names, 3))
}
