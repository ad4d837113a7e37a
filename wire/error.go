package wire

import "strconv"

// A Code says what is wrong with malformed wire data.
type Code uint8

// The codes of [Error].
const (
	CodeTruncatedVarint  Code = iota + 1 // a varint runs past the end
	CodeOverflowVarint                   // a varint is longer than 10 bytes or 64 bits
	CodeTruncated                        // a fixed value or a length runs past the end
	CodeWireType                         // a wire type that is not 0, 1, 2, 3, 4 or 5
	CodeFieldNumber                      // field number 0 or above 2^29-1
	CodeGroup                            // a group that does not close, or closes with another number
	CodeEndGroup                         // an end-group tag with no group open
	CodeDepth                            // nesting deeper than the limit
	CodeUTF8                             // a string that must be UTF-8 is not
	CodeWireTypeMismatch                 // a record's wire type does not fit the field (packed run of a non-scalar, ...)
)

var codeText = [...]string{
	CodeTruncatedVarint:  "truncated varint",
	CodeOverflowVarint:   "varint overflow",
	CodeTruncated:        "length past the end",
	CodeWireType:         "bad wire type",
	CodeFieldNumber:      "bad field number",
	CodeGroup:            "group does not close",
	CodeEndGroup:         "unexpected end group",
	CodeDepth:            "nesting too deep",
	CodeUTF8:             "invalid UTF-8",
	CodeWireTypeMismatch: "wire type does not match the field",
}

// String returns the code's description, as used in error messages.
func (c Code) String() string {
	if int(c) < len(codeText) && codeText[c] != "" {
		return codeText[c]
	}
	return "code " + strconv.Itoa(int(c))
}

// Error reports malformed wire data: what is wrong and at which offset of
// the scanned slice.
type Error struct {
	Offset int
	Code   Code
}

func (e *Error) Error() string {
	return "wire: offset " + strconv.Itoa(e.Offset) + ": " + e.Code.String()
}

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &wire.Error{Code: wire.CodeDepth}) works at any offset.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func errAt(off int, c Code) error { return &Error{Offset: off, Code: c} }
