package jsonx

import (
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/utf8x"
)

// A String is a JSON string scanned in place: its contents are
// in[Start:End], quotes excluded.
type String struct {
	Start, End int
	Esc        bool // it holds escapes, so its contents are not its value
}

// Value returns the value of s in in: its contents when it has no escapes,
// else their unescaped copy in *scratch (valid until scratch is used next).
func (s String) Value(in []byte, scratch *[]byte) []byte {
	if !s.Esc {
		return in[s.Start:s.End]
	}
	*scratch = AppendUnescaped((*scratch)[:0], in[s.Start:s.End])
	return *scratch
}

// A Fault is what ends the scan of a string short: its kind, where it is,
// and whether a byte of the string before it is not ASCII (for a caller
// that reports bad UTF-8 first, as the text has it: see InvalidUTF8).
type Fault struct {
	Kind FaultKind
	At   int
	High bool
}

// FaultKind says what is wrong with a string.
type FaultKind uint8

// The kinds of Fault, each with where At is.
const (
	NoFault       FaultKind = iota
	Unterminated            // the input ends in the string (At: len(in)) or in its escape at At
	BadChar                 // a control character at At
	BadEscape               // a backslash at At before no escape letter
	BadHex                  // a \u at At without four hex digits, which the input may end within
	LoneSurrogate           // a \u escape at At of a surrogate, not a first half before a second
	BadUTF8                 // contents, whole, that are not UTF-8: At is the first bad byte
)

// ScanString scans the JSON string whose opening quote is in[*pos] and,
// unless it finds a fault, moves *pos past its closing quote.
// utf8x.StringEnd finds each quote, backslash or control character and
// tells whether it passed a byte that is not ASCII; if it did, the UTF-8 of
// the whole string is checked in one call at the closing quote. Escapes are
// ASCII and a multi-byte sequence holds none, so the whole is valid exactly
// when the text between escapes is.
func ScanString(in []byte, pos *int) (String, Fault) {
	s := String{Start: *pos + 1}
	high := false // a byte passed is not ASCII
	for i := s.Start; ; {
		n, h := utf8x.StringEnd(in[i:])
		i += n
		high = high || h
		if i == len(in) {
			return s, Fault{Unterminated, i, high}
		}
		switch c := in[i]; {
		case c == '"':
			if high && !utf8x.Valid(in[s.Start:i]) {
				return s, badUTF8(in, s.Start, i)
			}
			s.End, *pos = i, i+1
			return s, Fault{}
		case c == '\\':
			n, k := EscapeLen(in, i)
			if k != NoFault {
				return s, Fault{k, i, high}
			}
			s.Esc = true
			i += n
		default:
			return s, Fault{BadChar, i, high}
		}
	}
}

// badUTF8 is the fault of string contents in[start:end] that are not UTF-8.
func badUTF8(in []byte, start, end int) Fault {
	return Fault{Kind: BadUTF8, At: start + InvalidUTF8(in[start:end])}
}

// EscapeLen returns the length of the escape at in[i], a backslash, or
// what is wrong with it.
func EscapeLen(in []byte, i int) (int, FaultKind) {
	if i+1 >= len(in) {
		return 0, Unterminated
	}
	switch in[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, NoFault
	case 'u':
		return unicodeEscapeLen(in, i)
	}
	return 0, BadEscape
}

// unicodeEscapeLen returns the length of the \u escape at in[i], 12 for a
// surrogate pair, or what is wrong with it.
func unicodeEscapeLen(in []byte, i int) (int, FaultKind) {
	r, ok := Hex4(in, i+2)
	switch {
	case !ok:
		return 0, BadHex
	case r < 0xd800 || r > 0xdfff:
		return 6, NoFault
	case r < 0xdc00 && i+12 <= len(in) && in[i+6] == '\\' && in[i+7] == 'u':
		if r2, ok := Hex4(in, i+8); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return 12, NoFault
		}
	}
	return 0, LoneSurrogate
}

// InvalidUTF8 returns the offset of the first byte of the first sequence
// in b that is not UTF-8, or len(b) if there is none.
func InvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		n := utf8x.RuneLen(b[i:])
		if n == 0 {
			return i
		}
		i += n
	}
	return len(b)
}

// SkipSpace moves *pos past JSON whitespace (space, tab, CR, LF) in in and
// returns the byte there, or 0 at the end of in.
func SkipSpace(in []byte, pos *int) byte {
	i := *pos
	for ; i < len(in); i++ {
		if c := in[i]; c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
			*pos = i
			return c
		}
	}
	*pos = i
	return 0
}

// Literal consumes the literal s (true, false, null) at in[*pos] if it is
// there, ending at a delimiter.
func Literal(in []byte, pos *int, s string) bool {
	end := *pos + len(s)
	if end > len(in) || string(in[*pos:end]) != s || end < len(in) && IsNotDelim(in[end]) {
		return false
	}
	*pos = end
	return true
}
