package dynamic

import (
	"github.com/rpckit/rpckit/internal/pathsyntax"
)

// StepKind says what a Step selects.
type StepKind uint8

// The kinds of Step.
const (
	// StepField selects a struct field by name or by id.
	StepField StepKind = iota + 1
	// StepIndex selects a list or set element, or the map entry whose
	// integer key is the index.
	StepIndex
	// StepKey selects a map entry by key.
	StepKey
)

// Step is one step of a Path.
type Step struct {
	Kind  StepKind
	Name  string // StepField: the field's name, "" when selected by ID
	ID    int16  // StepField: the field's id
	Index int    // StepIndex
	Key   Key    // StepKey, and StepIndex as a map key
}

// Path names a value inside a struct: fields, list and set elements and
// map entries, outermost first. Build one with ParsePath or with
// FieldStep, IDStep, IndexStep and KeyStep.
type Path []Step

// FieldStep selects the field named name.
func FieldStep(name string) Step { return Step{Kind: StepField, Name: name} }

// IDStep selects the field with id id.
func IDStep(id int16) Step { return Step{Kind: StepField, ID: id} }

// IndexStep selects element i.
func IndexStep(i int) Step { return Step{Kind: StepIndex, Index: i, Key: IntKey(int64(i))} }

// KeyStep selects the map entry with key k.
func KeyStep(k Key) Step { return Step{Kind: StepKey, Key: k} }

// Key is a map key: a string (or binary), an integer (of any width, or an
// enum's number) or a bool.
type Key = pathsyntax.Key

// StringKey returns a string or binary map key.
func StringKey(s string) Key { return Key{Kind: pathsyntax.String, Str: s} }

// IntKey returns an integer map key.
func IntKey(i int64) Key { return Key{Kind: pathsyntax.Int, Int: i} }

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
		steps[i] = pathsyntax.Step{Kind: pathsyntax.Kind(s.Kind), Name: s.Name, Num: int64(s.ID), Index: s.Index, Key: s.Key}
	}
	return pathsyntax.Format(steps)
}

// ParsePath parses a path in the syntax of rpckit's protobuf dynamic
// package: `a.b[2].c`, `m["key"]`, `m[-7]`, `m[true]`, or `8.5` (fields by
// id, 0 to 32767). Strings are Go-quoted.
func ParsePath(s string) (Path, error) {
	var p Path
	for i := 0; i < len(s); {
		st, n, err := pathsyntax.Next(s, i, len(p) == 0, 0, 1<<15-1)
		if err != nil {
			se := err.(*pathsyntax.Error)
			return nil, &PathSyntaxError{Path: s, Offset: se.Offset, Msg: se.Msg}
		}
		p = append(p, stepOf(st))
		i = n
	}
	return p, nil
}

// MustParsePath is ParsePath for paths known to parse; it panics on a bad
// one, for paths written as constants.
func MustParsePath(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

func stepOf(st pathsyntax.Step) Step {
	switch st.Kind {
	case pathsyntax.Field:
		if st.Name != "" {
			return FieldStep(st.Name)
		}
		return IDStep(int16(st.Num))
	case pathsyntax.Index:
		return IndexStep(st.Index)
	}
	return KeyStep(st.Key)
}
