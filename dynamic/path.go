package dynamic

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/rpckit/rpckit/internal/pathsyntax"
)

// StepKind says what a Step selects.
type StepKind uint8

// The kinds of Step.
const (
	// StepField selects a field by name (proto or JSON) or by number.
	StepField StepKind = iota + 1
	// StepIndex selects a list element, or the map entry whose integer
	// key is the index.
	StepIndex
	// StepKey selects a map entry by key.
	StepKey
)

// Step is one step of a Path.
type Step struct {
	Kind  StepKind
	Name  string           // StepField: the field's name, when Num is 0
	Num   protowire.Number // StepField: the field's number
	Index int              // StepIndex
	Key   Key              // StepKey, and StepIndex as a map key
}

// Path names a value inside a message: fields, list elements and map
// entries, outermost first. Build one with ParsePath or with FieldStep,
// NumberStep, IndexStep and KeyStep.
type Path []Step

// FieldStep selects the field with the given proto or JSON name.
func FieldStep(name string) Step { return Step{Kind: StepField, Name: name} }

// NumberStep selects the field numbered n.
func NumberStep(n protowire.Number) Step { return Step{Kind: StepField, Num: n} }

// IndexStep selects list element i.
func IndexStep(i int) Step { return Step{Kind: StepIndex, Index: i, Key: IntKey(int64(i))} }

// KeyStep selects the map entry with key k.
func KeyStep(k Key) Step { return Step{Kind: StepKey, Key: k} }

// keyKind says which member of a Key is set.
type keyKind uint8

const (
	keyString keyKind = iota + 1
	keyInt
	keyUint
	keyBool
)

// Key is a map key of any key kind.
type Key struct {
	kind keyKind
	s    string
	i    int64
	u    uint64
}

// StringKey returns a string map key.
func StringKey(s string) Key { return Key{kind: keyString, s: s} }

// IntKey returns a signed integer map key.
func IntKey(i int64) Key { return Key{kind: keyInt, i: i} }

// UintKey returns an unsigned integer map key.
func UintKey(u uint64) Key { return Key{kind: keyUint, u: u} }

// BoolKey returns a bool map key.
func BoolKey(b bool) Key {
	k := Key{kind: keyBool}
	if b {
		k.u = 1
	}
	return k
}

// String formats k as in a path: quoted strings, bare numbers and bools.
func (k Key) String() string {
	switch k.kind {
	case keyString:
		return strconv.Quote(k.s)
	case keyInt:
		return strconv.FormatInt(k.i, 10)
	case keyUint:
		return strconv.FormatUint(k.u, 10)
	case keyBool:
		return strconv.FormatBool(k.u == 1)
	}
	return "?"
}

// String formats p in the syntax ParsePath reads.
func (p Path) String() string {
	var sb strings.Builder
	for i, s := range p {
		switch s.Kind {
		case StepField:
			if i > 0 {
				sb.WriteByte('.')
			}
			if s.Num != 0 {
				sb.WriteString(strconv.Itoa(int(s.Num)))
			} else {
				sb.WriteString(s.Name)
			}
		case StepIndex:
			sb.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case StepKey:
			sb.WriteString("[" + s.Key.String() + "]")
		}
	}
	return sb.String()
}

// ParsePath parses a path such as `a.b[2].c`, `m["key"]`, `m[42]`,
// `m[true]` or `3.1` (fields by number). Strings are Go-quoted.
func ParsePath(s string) (Path, error) {
	var p Path
	for i := 0; i < len(s); {
		st, n, err := pathsyntax.Next(s, i, len(p) == 0, 1, int64(protowire.MaxValidNumber))
		if err != nil {
			se := err.(*pathsyntax.Error)
			return nil, pathErr(s, se.Offset, se.Msg)
		}
		p = append(p, stepOf(st))
		i = n
	}
	return p, nil
}

// stepOf converts a parsed step.
func stepOf(st pathsyntax.Step) Step {
	switch st.Kind {
	case pathsyntax.Field:
		if st.Name != "" {
			return FieldStep(st.Name)
		}
		return NumberStep(protowire.Number(st.Num))
	case pathsyntax.Index:
		return IndexStep(st.Index)
	}
	switch st.KeyKind {
	case pathsyntax.String:
		return KeyStep(StringKey(st.Str))
	case pathsyntax.Int:
		return KeyStep(IntKey(st.Int))
	case pathsyntax.Uint:
		return KeyStep(UintKey(st.Uint))
	}
	return KeyStep(BoolKey(st.Uint == 1))
}

// PathSyntaxError reports a path that does not parse.
type PathSyntaxError struct {
	Path   string
	Offset int
	Msg    string
}

func (e *PathSyntaxError) Error() string {
	return "dynamic: path " + strconv.Quote(e.Path) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

func pathErr(s string, i int, msg string) error {
	return &PathSyntaxError{Path: s, Offset: i, Msg: msg}
}

func itoa(i int) string { return strconv.Itoa(i) }
