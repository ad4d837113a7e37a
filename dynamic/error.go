package dynamic

import (
	"errors"
	"strconv"

	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/wire"
)

// Error reports malformed wire data: the offset in the bytes given to the
// operation, the path of the field being read and what is wrong.
type Error struct {
	Offset int
	Path   string
	Code   wire.Code
}

func (e *Error) Error() string {
	s := "dynamic: offset " + strconv.Itoa(e.Offset) + ": "
	if e.Path != "" {
		s += "field " + strconv.Quote(e.Path) + ": "
	}
	return s + e.Code.String()
}

// Is reports whether target is an *Error or a *wire.Error with the same
// code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case *Error:
		return t.Code == e.Code
	case *wire.Error:
		return t.Code == e.Code
	}
	return false
}

// PathError reports a path that does not fit the Type: an unknown field, a
// step into a scalar, a list or map without an index or key, a key of the
// wrong kind, or an edit the path cannot take.
type PathError struct {
	Path string
	Msg  string
}

func (e *PathError) Error() string {
	return "dynamic: path " + strconv.Quote(e.Path) + ": " + e.Msg
}

// wrapWire turns a wire error into an Error at base+offset on path.
func wrapWire(err error, base int, p Path, n int) error {
	if err == nil {
		return nil
	}
	return wrapWireSlow(err, base, p, n)
}

func wrapWireSlow(err error, base int, p Path, n int) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &Error{Offset: base + we.Offset, Path: pathPrefix(p, n), Code: we.Code}
	}
	return err
}

// pathPrefix formats the first n steps of p, a long path cut to its ends.
func pathPrefix(p Path, n int) string {
	if n > len(p) {
		n = len(p)
	}
	return errtext.ShortPath(p[:n].String())
}

// noField says that name is no field of t, with t's closest field name,
// JSON or proto, when one is close.
func noField(t *Type, name string) string {
	names := make([]string, 0, 2*len(t.Fields))
	for _, f := range t.Fields {
		names = append(names, f.JSONName)
		if f.Name != f.JSONName {
			names = append(names, f.Name)
		}
	}
	hint := errtext.DidYouMean(errtext.Closest(name, names, 1))
	return "no field " + strconv.Quote(name) + " in " + string(t.FullName()) + hint
}

func pathError(p Path, n int, msg string) error {
	return &PathError{Path: pathPrefix(p, n), Msg: msg}
}
