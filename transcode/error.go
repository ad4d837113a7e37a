package transcode

import (
	"fmt"
	"strings"
)

// Error is a conversion failure, with where it happened: a line and column
// for JSON input, a byte offset for wire input, and the path of the field.
//
//	transcode: line 3 col 14: field "items[2].unitPrice.units": invalid int64 "12x"
//	transcode: offset 1234: field "items[2].price": truncated varint
type Error struct {
	Line, Col int    // 1-based position in JSON input; zero for wire input
	Offset    int    // byte offset in the input
	Path      string // field path, JSON-style: a.b[2].c, m["k"]; may be empty
	Msg       string
	Err       error // the underlying cause, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("transcode: ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d col %d: ", e.Line, e.Col)
	} else {
		fmt.Fprintf(&b, "offset %d: ", e.Offset)
	}
	if e.Path != "" {
		fmt.Fprintf(&b, "field %q: ", e.Path)
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// UnknownFieldError is the cause of an Error for a JSON key that names no
// field of its message: the Error's Path is the message's, Name the key.
type UnknownFieldError struct {
	Name string
}

func (e *UnknownFieldError) Error() string { return fmt.Sprintf("unknown field %q", e.Name) }
