package idl

import (
	"fmt"
	"strconv"
)

// Pos is a position in an IDL file: Line and Col count from 1, Col in
// characters (runes).
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Error is a problem in an IDL file, at Pos. Err is the underlying error
// when there is one (a file that cannot be read).
type Error struct {
	Pos Pos
	Msg string
	Err error
}

func (e *Error) Error() string { return "idl: " + e.Pos.String() + ": " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

func errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
