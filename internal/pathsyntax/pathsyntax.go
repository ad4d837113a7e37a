// Package pathsyntax reads the path syntax that rpckit's protobuf and Thrift
// dynamic packages share: field names or numbers joined by dots, list
// indexes and map keys in brackets (`a.b[2].c`, `m["key"]`, `m[-7]`,
// `m[true]`, `3.17`). Strings are Go-quoted. Each package turns the Steps
// into its own Path type and checks field numbers against its own range;
// both use Key as their map key and Format to print a path.
//
// It is a leaf: the standard library only.
package pathsyntax

import (
	"strconv"
	"strings"
)

// Kind says what a Step selects.
type Kind uint8

// The kinds of Step.
const (
	Field Kind = iota + 1 // a field by Name, or by Num when Name is ""
	Index                 // a list element Index (also a map's integer key)
	Entry                 // a map entry by Key
)

// KeyKind says which member of a Key is set.
type KeyKind uint8

// The kinds of key.
const (
	String KeyKind = iota + 1
	Int
	Uint
	Bool
)

// Key is a map key of any scalar kind; both dynamic packages use it as
// their Key.
type Key struct {
	Kind KeyKind
	Str  string // String
	Int  int64  // Int
	Uint uint64 // Uint; Bool: 1 for true
}

// String formats k as in a path: quoted strings, bare numbers and bools.
func (k Key) String() string {
	switch k.Kind {
	case String:
		return strconv.Quote(k.Str)
	case Int:
		return strconv.FormatInt(k.Int, 10)
	case Uint:
		return strconv.FormatUint(k.Uint, 10)
	case Bool:
		return strconv.FormatBool(k.Uint == 1)
	}
	return "?"
}

// Step is one step of a path.
type Step struct {
	Kind  Kind
	Name  string // Field: the field's name, "" when selected by number
	Num   int64  // Field: the field's number
	Index int    // Index
	Key   Key    // Entry, and Index as an Int key
}

// Format formats steps in the syntax Next reads.
func Format(steps []Step) string {
	var sb strings.Builder
	for i, s := range steps {
		switch s.Kind {
		case Field:
			if i > 0 {
				sb.WriteByte('.')
			}
			if s.Name == "" {
				sb.WriteString(strconv.FormatInt(s.Num, 10))
			} else {
				sb.WriteString(s.Name)
			}
		case Index:
			sb.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case Entry:
			sb.WriteString("[" + s.Key.String() + "]")
		}
	}
	return sb.String()
}

// Error is a path that does not parse: what is wrong, at which offset.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return "offset " + strconv.Itoa(e.Offset) + ": " + e.Msg }

// Next reads the step of s at offset i (first when it is the path's first
// step) and returns it and the offset past it. Field numbers outside
// [minNum, maxNum] are errors; numbers too large for 32 bits read as names.
func Next(s string, i int, first bool, minNum, maxNum int64) (Step, int, error) {
	switch {
	case s[i] == '[':
		return bracket(s, i)
	case s[i] == '.' && !first:
		return name(s, i+1, minNum, maxNum)
	case first:
		return name(s, i, minNum, maxNum)
	}
	return Step{}, 0, &Error{i, "want '.' or '['"}
}

func name(s string, i int, minNum, maxNum int64) (Step, int, error) {
	j := i
	for j < len(s) && isIdent(s[j]) {
		j++
	}
	n := s[i:j]
	if n == "" {
		return Step{}, 0, &Error{i, "want a field name or number"}
	}
	if u, err := strconv.ParseUint(n, 10, 32); err == nil {
		if int64(u) < minNum || int64(u) > maxNum {
			return Step{}, 0, &Error{i, "bad field number"}
		}
		return Step{Kind: Field, Num: int64(u)}, j, nil
	}
	return Step{Kind: Field, Name: n}, j, nil
}

func bracket(s string, i int) (Step, int, error) {
	end, err := bracketEnd(s, i)
	if err != nil {
		return Step{}, 0, err
	}
	in := s[i+1 : end]
	if strings.HasPrefix(in, `"`) {
		str, err := strconv.Unquote(in)
		if err != nil {
			return Step{}, 0, &Error{i, "bad string key"}
		}
		return Step{Kind: Entry, Key: Key{Kind: String, Str: str}}, end + 1, nil
	}
	step, ok := scalarKey(in)
	if !ok {
		return Step{}, 0, &Error{i, "bad index or key"}
	}
	return step, end + 1, nil
}

// bracketEnd returns the index of the ']' closing the '[' at i, skipping
// over a quoted string.
func bracketEnd(s string, i int) (int, error) {
	quoted := false
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case quoted && c == '\\':
			j++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ']':
			return j, nil
		}
	}
	return 0, &Error{i, "unclosed '['"}
}

func scalarKey(in string) (Step, bool) {
	switch in {
	case "true", "false":
		s := Step{Kind: Entry, Key: Key{Kind: Bool}}
		if in == "true" {
			s.Key.Uint = 1
		}
		return s, true
	}
	if i, err := strconv.ParseInt(in, 10, 64); err == nil {
		if i >= 0 && int64(int(i)) == i {
			return Step{Kind: Index, Index: int(i), Key: Key{Kind: Int, Int: i}}, true
		}
		return Step{Kind: Entry, Key: Key{Kind: Int, Int: i}}, true
	}
	if u, err := strconv.ParseUint(in, 10, 64); err == nil {
		return Step{Kind: Entry, Key: Key{Kind: Uint, Uint: u}}, true
	}
	return Step{}, false
}

func isIdent(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
