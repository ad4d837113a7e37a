package dynamic

import (
	"strconv"

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

// Key is a map key of any key kind.
type Key = pathsyntax.Key

// StringKey returns a string map key.
func StringKey(s string) Key { return Key{Kind: pathsyntax.String, Str: s} }

// IntKey returns a signed integer map key.
func IntKey(i int64) Key { return Key{Kind: pathsyntax.Int, Int: i} }

// UintKey returns an unsigned integer map key.
func UintKey(u uint64) Key { return Key{Kind: pathsyntax.Uint, Uint: u} }

// BoolKey returns a bool map key.
func BoolKey(b bool) Key {
	k := Key{Kind: pathsyntax.Bool}
	if b {
		k.Uint = 1
	}
	return k
}

// String formats p in the syntax ParsePath reads.
func (p Path) String() string {
	steps := make([]pathsyntax.Step, len(p))
	for i, s := range p {
		steps[i] = pathsyntax.Step{Kind: pathsyntax.Kind(s.Kind), Name: s.Name, Num: int64(s.Num), Index: s.Index, Key: s.Key}
		if s.Num != 0 {
			steps[i].Name = ""
		}
	}
	return pathsyntax.Format(steps)
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
	return KeyStep(st.Key)
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
