package jsonx

import (
	"slices"

	"github.com/rpckit/rpckit/internal/utf8x"
)

// AppendString appends s to out as a JSON string, or reports false, with out
// as it was (its capacity past its length may have changed), if s is not
// UTF-8.
func AppendString(out, s []byte) ([]byte, bool) {
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
	return appendEscapedRest(buf[:l+1+i], s, i), true
}

// appendEscapedRest appends the rest of s from its first byte to escape at
// i, and the closing quote, to out.
func appendEscapedRest(out, s []byte, i int) []byte {
	start := i // s[start:i] is yet to be copied
	for ; i < len(s); i = utf8x.NextEscape(s, i+1) {
		out = appendEscape(append(out, s[start:i]...), s[i])
		start = i + 1
	}
	return append(append(out, s[start:]...), '"')
}

// appendEscape appends the escape of c, a quote, a backslash or a control
// character.
func appendEscape(out []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(out, '\\', c)
	case '\b', '\t', '\n', '\f', '\r':
		return append(out, '\\', "btn-fr"[c-'\b'])
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
}
