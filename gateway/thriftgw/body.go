package thriftgw

import (
	"errors"
	"strconv"
)

// member is one top-level member of a JSON object: its key and the span
// from the key's opening quote to the value's end.
type member struct {
	key        string
	start, end int
}

var errSyntax = errors.New("invalid JSON")

// members scans the top-level members of the JSON object b and returns
// them with the offset of the closing brace. It checks only what it needs
// to find them; thrift/transcode reads the values and reports their
// errors with positions.
func members(b []byte) ([]member, int, error) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, 0, errSyntax
	}
	var ms []member
	for i = skipWS(b, i+1); i < len(b); i = skipWS(b, i) {
		switch {
		case b[i] == '}' && len(ms) == 0:
			return ms, i, nil
		case len(ms) > 0 && b[i] == ',':
			i = skipWS(b, i+1)
		case len(ms) > 0 && b[i] == '}':
			return ms, i, nil
		case len(ms) > 0:
			return nil, 0, errSyntax
		}
		m, next, err := scanMember(b, i)
		if err != nil {
			return nil, 0, err
		}
		ms, i = append(ms, m), next
	}
	return nil, 0, errSyntax
}

func scanMember(b []byte, i int) (member, int, error) {
	end, err := skipString(b, i)
	if err != nil {
		return member{}, 0, err
	}
	key, err := strconv.Unquote(string(b[i:end]))
	if err != nil {
		key = string(b[i+1 : end-1])
	}
	j := skipWS(b, end)
	if j >= len(b) || b[j] != ':' {
		return member{}, 0, errSyntax
	}
	vend, err := skipValue(b, skipWS(b, j+1))
	if err != nil {
		return member{}, 0, err
	}
	return member{key: key, start: i, end: vend}, vend, nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func skipString(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, errSyntax
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errSyntax
}

// skipValue returns the end of the JSON value at b[i:].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	if b[i] == '"' {
		return skipString(b, i)
	}
	if b[i] != '{' && b[i] != '[' {
		j := i
		for j < len(b) && !isDelim(b[j]) {
			j++
		}
		if j == i {
			return 0, errSyntax
		}
		return j, nil
	}
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, err := skipString(b, i)
			if err != nil {
				return 0, err
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, errSyntax
}

func isDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// blank turns b[m.start:m.end] and the comma that joins it to the
// object's other members into spaces (newlines kept), so the offsets,
// lines and columns of the rest stay those of the text the client sent.
func blank(b []byte, m member) {
	start, end := withComma(b, m)
	for i := start; i < end; i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}

// withComma is m's span with the comma after it, or else the one before.
func withComma(b []byte, m member) (start, end int) {
	if j := skipWS(b, m.end); j < len(b) && b[j] == ',' {
		return m.start, j + 1
	}
	if k := lastNonWS(b, m.start); k >= 0 && b[k] == ',' {
		return k, m.end
	}
	return m.start, m.end
}

func lastNonWS(b []byte, i int) int {
	for i--; i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'); i-- {
	}
	return i
}
