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

// boolKey returns the key b.
func boolKey(b bool) Key {
	if b {
		return Key{Kind: Bool, Uint: 1}
	}
	return Key{Kind: Bool}
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
	var b []byte
	for i, s := range steps {
		b = s.appendTo(b, i == 0)
	}
	return string(b)
}

// appendTo appends s to a path being printed; first says it is the
// path's first step.
func (s Step) appendTo(b []byte, first bool) []byte {
	switch s.Kind {
	case Field:
		if !first {
			b = append(b, '.')
		}
		if s.Name == "" {
			return strconv.AppendInt(b, s.Num, 10)
		}
		return append(b, s.Name...)
	case Index:
		return append(strconv.AppendInt(append(b, '['), int64(s.Index), 10), ']')
	}
	return append(append(append(b, '['), s.Key.String()...), ']')
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
	if i == j {
		return Step{}, 0, &Error{i, "want a field name or number"}
	}
	st, ok := field(s[i:j], minNum, maxNum)
	if !ok {
		return Step{}, 0, &Error{i, "bad field number"}
	}
	return st, j, nil
}

// field is the step that selects field n, a name or a number in
// [minNum, maxNum]; a number outside the range is not ok.
func field(n string, minNum, maxNum int64) (Step, bool) {
	u, err := strconv.ParseUint(n, 10, 32)
	if err != nil {
		return Step{Kind: Field, Name: n}, true
	}
	return Step{Kind: Field, Num: int64(u)}, int64(u) >= minNum && int64(u) <= maxNum
}

func bracket(s string, i int) (Step, int, error) {
	end, err := bracketEnd(s, i)
	if err != nil {
		return Step{}, 0, err
	}
	in := s[i+1 : end]
	if strings.HasPrefix(in, `"`) {
		return stringKey(in, i, end)
	}
	if step, ok := scalarKey(in); ok {
		return step, end + 1, nil
	}
	return Step{}, 0, &Error{i, "bad index or key"}
}

// stringKey reads the quoted key in of the bracket from i to end.
func stringKey(in string, i, end int) (Step, int, error) {
	str, err := strconv.Unquote(in)
	if err != nil {
		return Step{}, 0, &Error{i, "bad string key"}
	}
	return Step{Kind: Entry, Key: Key{Kind: String, Str: str}}, end + 1, nil
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
	if in == "true" || in == "false" {
		return Step{Kind: Entry, Key: boolKey(in == "true")}, true
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

// Prepend puts step in front of the printed path rest: a field name is
// joined with a dot, an index or key step (starting with '[') as it is.
func Prepend(step, rest string) string {
	switch {
	case rest == "":
		return step
	case rest[0] == '[':
		return step + rest
	}
	return step + "." + rest
}
