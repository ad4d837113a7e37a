package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rpckit/rpckit/transcode"
)

// Library errors carry their package's prefix ("invoke: ", "transcode: ")
// and wrap each other's; the user reads one sentence without them. A
// conversion error is said with what it is about first, then its place:
// request 2, line 3 col 14, field "item.id": invalid int64 "12x".

// inputError is an error in one message of the user's input or of a
// response: subject says which ("request 2", "input", "response 1").
type inputError struct {
	subject string
	err     error
}

func (e *inputError) Error() string { return e.subject + ": " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// rendered is a message already written for the user, printed as it is:
// a server's status message is not the place to look for prefixes.
type rendered string

func (r rendered) Error() string { return string(r) }

// libraryPrefix matches a library package's prefix at the start of a
// message or of a wrapped one.
var libraryPrefix = regexp.MustCompile(`(^|: )(?:thrift/)?(idl|wire|dynamic|transcode|schema|invoke|lean|leanhttp|load|loadtarget|report|interceptor|server|gateway|thriftgw|ui|client|promscrape): `)

// userMessage renders err as the user reads it.
func userMessage(err error) string {
	var r rendered
	if errors.As(err, &r) {
		return string(r)
	}
	if msg, ok := thriftInputMessage(err); ok {
		return msg
	}
	var ie *inputError
	var te *transcode.Error
	if errors.As(err, &ie) && errors.As(ie.err, &te) {
		outer := strings.TrimSuffix(err.Error(), ie.Error()) // "rendered template: "
		return outer + ie.subject + place(te) + ": " + te.Msg
	}
	return libraryPrefix.ReplaceAllString(strings.TrimSpace(err.Error()), "$1")
}

// place is where te happened: ", line 1 col 2" or ", offset 12", and the
// field path when there is one.
func place(te *transcode.Error) string {
	var b strings.Builder
	if te.Line > 0 {
		fmt.Fprintf(&b, ", line %d col %d", te.Line, te.Col)
	} else {
		fmt.Fprintf(&b, ", offset %d", te.Offset)
	}
	if te.Path != "" {
		fmt.Fprintf(&b, ", field %q", te.Path)
	}
	return b.String()
}
