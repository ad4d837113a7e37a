package transcode

import (
	"slices"

	"github.com/rpckit/rpckit/internal/utf8x"
)

// JSON strings are written as protojson writes them: '"', '\\' and the
// control characters escaped, with \b \f \n \r \t where they exist and
// \u00XX (lower case hex) otherwise; nothing else. One pass of
// utf8x.CopyJSON (vector code on amd64) copies the bytes to the output as
// it checks that they are UTF-8 and finds the first byte to escape; most
// strings have none and are done. Past an escape, utf8x.NextEscape finds the
// next one eight bytes at a time, and the runs between them are copied
// whole.

// str writes s as a JSON string, or reports false, having written nothing,
// if s is not UTF-8.
func (e *encoder) str(s []byte) bool {
	out, ok := appendStr(e.out, s)
	if ok {
		e.set(out)
	}
	return ok
}

// appendStr appends s to out as a JSON string, or reports false, with out
// as it was (its capacity past its length may have changed), if s is not
// UTF-8.
func appendStr(out, s []byte) ([]byte, bool) {
	l := len(out)
	buf := slices.Grow(out, len(s)+2)[:l+1+len(s)]
	ok, i := utf8x.CopyJSON(buf[l+1:], s)
	if !ok {
		return out, false
	}
	buf[l] = '"'
	if i == len(s) {
		return append(buf, '"'), true
	}
	out = buf[:l+1+i] // s[:i] is copied; s[start:i] is yet to be
	start := i
	for ; i < len(s); i = utf8x.NextEscape(s, i+1) {
		out = appendEscape(append(out, s[start:i]...), s[i])
		start = i + 1
	}
	return append(append(out, s[start:]...), '"'), true
}

func appendEscape(out []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(out, '\\', c)
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
}
