package transcode

import (
	"errors"
	"strconv"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Error paths are built on the way out: an error names the field of its
// own message, and each enclosing message that passes it on puts its own
// step in front (within, withinKey). Nothing is tracked on success.

// within puts the step "f" or "f[index]" (index >= 0) in front of the path
// of err, an error from inside the value of field f.
func (e *encoder) within(err error, f *fieldPlan, index int) error {
	te, ok := err.(*Error)
	if !ok {
		return err
	}
	step := e.stepName(f)
	if index >= 0 {
		step += "[" + strconv.Itoa(index) + "]"
	}
	te.Path = joinPath(step, te.Path)
	return te
}

// withinKey puts the step f[key] in front of the path of err, an error from
// inside the value of map entry en of field f.
func (e *encoder) withinKey(err error, f *fieldPlan, en *entry) error {
	te, ok := err.(*Error)
	if !ok {
		return err
	}
	te.Path = joinPath(e.stepName(f)+"["+e.keyText(f.key, en)+"]", te.Path)
	return te
}

func joinPath(step, rest string) string {
	if rest == "" {
		return step
	}
	return step + "." + rest
}

// stepName is f's name as the path shows it, or "" for nil.
func (e *encoder) stepName(f *fieldPlan) string {
	switch {
	case f == nil:
		return ""
	case e.protoNames:
		return f.desc.TextName()
	}
	return f.jsonName
}

// keyText renders a map key as the path shows it: strings quoted.
func (e *encoder) keyText(kf *fieldPlan, en *entry) string {
	switch kf.kind {
	case protoreflect.StringKind:
		return strconv.Quote(string(e.b[en.ks:en.ke]))
	case protoreflect.BoolKind:
		return strconv.FormatBool(en.key != 0)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.FormatUint(en.key, 10)
	}
	return strconv.FormatInt(int64(en.key^signBit), 10)
}

// fieldErr reports a problem with field f's value at offset off.
func (e *encoder) fieldErr(off int, f *fieldPlan, msg string) error {
	return &Error{Offset: off, Path: e.stepName(f), Msg: msg}
}

// wireErr turns an error of package wire or dynamic into an *Error on the
// current path; base is added to the offsets of dynamic's errors, which are
// relative to the bytes they were given.
func (e *encoder) wireErr(err error, f *fieldPlan) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &Error{Offset: we.Offset, Path: e.stepName(f), Msg: we.Code.String(), Err: err}
	}
	return &Error{Path: e.stepName(f), Msg: err.Error(), Err: err}
}

func (e *encoder) dynamicErr(err error, base int32, f *fieldPlan) error {
	var de *dynamic.Error
	if errors.As(err, &de) {
		p := e.stepName(f)
		if de.Path != "" {
			p += "." + de.Path
		}
		return &Error{Offset: int(base) + de.Offset, Path: p, Msg: de.Code.String(), Err: err}
	}
	return e.wireErr(err, f)
}

func (e *encoder) codeErr(off int, c wire.Code, f *fieldPlan) error {
	return &Error{Offset: off, Path: e.stepName(f), Msg: c.String(), Err: &wire.Error{Offset: off, Code: c}}
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
