package wire

import "strconv"

// A Code says what is wrong with malformed Thrift data.
type Code uint8

// The codes of [Error].
const (
	CodeTruncated   Code = iota + 1 // a value runs past the end
	CodeVarint                      // a varint is too long or overflows its type
	CodeNegative                    // a negative length or element count
	CodeLength                      // a length or element count larger than the rest of the input
	CodeType                        // a wire type that is not one of Thrift's, or stop where a value is due
	CodeDepth                       // nesting deeper than the limit
	CodeVersion                     // a message header with an unknown protocol id or version
	CodeMessageType                 // a message type other than call, reply, exception or oneway
)

var codeText = [...]string{
	CodeTruncated:   "value past the end",
	CodeVarint:      "bad varint",
	CodeNegative:    "negative length",
	CodeLength:      "length past the end",
	CodeType:        "bad wire type",
	CodeDepth:       "nesting too deep",
	CodeVersion:     "bad message version",
	CodeMessageType: "bad message type",
}

// String returns the code's description, as used in error messages.
func (c Code) String() string {
	if int(c) < len(codeText) && codeText[c] != "" {
		return codeText[c]
	}
	return "code " + strconv.Itoa(int(c))
}

// Error reports malformed Thrift data: what is wrong and at which offset
// of the scanned slice.
type Error struct {
	Offset int
	Code   Code
}

func (e *Error) Error() string {
	return "thrift/wire: offset " + strconv.Itoa(e.Offset) + ": " + e.Code.String()
}

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &wire.Error{Code: wire.CodeDepth}) works at any offset.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func errAt(off int, c Code) error { return &Error{Offset: off, Code: c} }
