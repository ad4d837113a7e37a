package transcode

import (
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/internal/pathsyntax"
)

// Error is a conversion failure and where it happened: a line and column
// for JSON input, a byte offset for both, and the path of the field in the
// syntax of thrift/dynamic (a.b[2].c, m["k"]).
//
//	thrift/transcode: line 3 col 14: field "items[2].id": invalid i64 "12x"
//	thrift/transcode: offset 1234: field "head": required field "id" missing
type Error struct {
	Line, Col int    // 1-based position in JSON input; zero for Thrift input
	Offset    int    // byte offset in the input
	Path      string // field path; may be empty
	Msg       string
	Err       error // the underlying cause, if any (a *wire.Error for Thrift input)
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("thrift/transcode: ")
	if e.Line > 0 {
		b.WriteString("line " + strconv.Itoa(e.Line) + " col " + strconv.Itoa(e.Col) + ": ")
	} else {
		b.WriteString("offset " + strconv.Itoa(e.Offset) + ": ")
	}
	if e.Path != "" {
		b.WriteString("field " + strconv.Quote(e.Path) + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// in prepends a path step to err's path: a field name, or an index or key
// step that starts with '['.
func in(err error, step string) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	e.Path = pathsyntax.Prepend(step, e.Path)
	return err
}

// inIndex prepends a list or set index to err's path.
func inIndex(err error, i int) error { return in(err, "["+strconv.Itoa(i)+"]") }

// inKey prepends a map key, given as its JSON text, to err's path.
func inKey(err error, key string) error {
	if key == "" || key[0] != '"' {
		key = strconv.Quote(key)
	}
	return in(err, "["+key+"]")
}
