package transcode

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// pathStep is one step of the path to the message being printed: a field,
// with a list index or a map key. The path is only rendered on error.
type pathStep struct {
	f      *fieldPlan
	index  int32 // list index, or -1
	hasKey bool
	key    uint64 // numeric key bits
	ks, ke int32  // string key span
}

func (e *encoder) push(f *fieldPlan, index int) {
	e.path = append(e.path, pathStep{f: f, index: int32(index)})
}

func (e *encoder) pushKey(f *fieldPlan, en *entry) {
	e.path = append(e.path, pathStep{f: f, index: -1, hasKey: true, key: en.key, ks: en.ks, ke: en.ke})
}

func (e *encoder) pop() { e.path = e.path[:len(e.path)-1] }

// pathString renders the path, followed by f when f is not nil.
func (e *encoder) pathString(f *fieldPlan) string {
	var b strings.Builder
	for i := range e.path {
		s := &e.path[i]
		e.writeStep(&b, s.f)
		switch {
		case s.hasKey:
			b.WriteByte('[')
			b.WriteString(e.keyText(s))
			b.WriteByte(']')
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(int(s.index)))
			b.WriteByte(']')
		}
	}
	if f != nil {
		e.writeStep(&b, f)
	}
	return b.String()
}

func (e *encoder) writeStep(b *strings.Builder, f *fieldPlan) {
	if b.Len() > 0 {
		b.WriteByte('.')
	}
	if e.protoNames {
		b.WriteString(f.desc.TextName())
	} else {
		b.WriteString(f.jsonName)
	}
}

// keyText renders the map key of s as the path shows it: strings quoted.
func (e *encoder) keyText(s *pathStep) string {
	k := s.f.key
	switch k.kind {
	case protoreflect.StringKind:
		return strconv.Quote(string(e.b[s.ks:s.ke]))
	case protoreflect.BoolKind:
		return strconv.FormatBool(s.key != 0)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.FormatUint(s.key, 10)
	}
	return strconv.FormatInt(int64(s.key^signBit), 10)
}

// fieldErr reports a problem with field f's value at offset off.
func (e *encoder) fieldErr(off int, f *fieldPlan, msg string) error {
	return &Error{Offset: off, Path: e.pathString(f), Msg: msg}
}

// wireErr turns an error of package wire or dynamic into an *Error on the
// current path; base is added to the offsets of dynamic's errors, which are
// relative to the bytes they were given.
func (e *encoder) wireErr(err error, f *fieldPlan) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &Error{Offset: we.Offset, Path: e.pathString(f), Msg: we.Code.String(), Err: err}
	}
	return &Error{Path: e.pathString(f), Msg: err.Error(), Err: err}
}

func (e *encoder) dynamicErr(err error, base int32, f *fieldPlan) error {
	var de *dynamic.Error
	if errors.As(err, &de) {
		p := e.pathString(f)
		if de.Path != "" {
			p += "." + de.Path
		}
		return &Error{Offset: int(base) + de.Offset, Path: p, Msg: de.Code.String(), Err: err}
	}
	return e.wireErr(err, f)
}

func (e *encoder) codeErr(off int, c wire.Code, f *fieldPlan) error {
	return &Error{Offset: off, Path: e.pathString(f), Msg: c.String(), Err: &wire.Error{Offset: off, Code: c}}
}

// depthErr reports nesting past protobuf-go's recursion limit.
func (e *encoder) depthErr(off int32) error {
	return e.codeErr(int(off), wire.CodeDepth, nil)
}

// validate checks the bytes of a message that is parsed but not printed
// (a oneof member that a later one replaced, a map entry that a later one
// with the same key replaced), as proto.Unmarshal would have parsed it.
func (e *encoder) validate(f *fieldPlan, recs []rec) error {
	if f.sub == nil {
		if f.utf8 {
			return e.checkUTF8(f, recs)
		}
		return nil
	}
	for i := range recs {
		r := &recs[i]
		if r.wt() != uint32(protowire.BytesType) && r.wt() != uint32(protowire.StartGroupType) {
			continue
		}
		if err := e.validateSpan(f, r.start, r.end); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) validateSpan(f *fieldPlan, start, end int32) error {
	o := dynamic.ValidateOptions{MaxDepth: max(e.depth, 1)}
	if err := o.Validate(f.sub.t, e.b[start:end]); err != nil {
		return e.dynamicErr(err, start, f)
	}
	return nil
}
