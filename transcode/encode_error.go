package transcode

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Error paths are built on the way out: an error names the field of its
// own message, and each enclosing message that passes it on adds its own
// step (within, withinKey) to a failure, which Marshal turns into an *Error
// with the whole path. Nothing is tracked on success.

// failure is an *Error on its way out, with the steps of its path from the
// innermost out.
type failure struct {
	err   *Error
	steps []string
}

func (f *failure) Error() string { return f.result().Error() }

// result returns the *Error with its full path.
func (f *failure) result() *Error {
	var b strings.Builder
	for i := len(f.steps) - 1; i >= 0; i-- {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(f.steps[i])
	}
	if f.err.Path != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(f.err.Path)
	}
	f.err.Path, f.steps = errtext.ShortPath(b.String()), nil
	return f.err
}

// finish returns err as the caller gets it: an *Error with its full path.
func finish(err error) error {
	if f, ok := err.(*failure); ok {
		return f.result()
	}
	return err
}

// addStep adds step to the path of err.
func addStep(err error, step string) error {
	switch t := err.(type) {
	case *failure:
		t.steps = append(t.steps, step)
		return t
	case *Error:
		return &failure{err: t, steps: []string{step}}
	}
	return err
}

// within adds the step "f" or "f[index]" (index >= 0) to the path of err,
// an error from inside the value of field f.
func (e *encoder) within(err error, f *fieldPlan, index int) error {
	step := e.stepName(f)
	if index >= 0 {
		step += "[" + strconv.Itoa(index) + "]"
	}
	return addStep(err, step)
}

// withinKey adds the step f[key] to the path of err, an error from inside
// the value of map entry en of field f.
func (e *encoder) withinKey(err error, f *fieldPlan, en *entry) error {
	return addStep(err, e.stepName(f)+"["+e.keyText(f.key, en)+"]")
}

// stepName is f's name as the path shows it, or "" for nil.
func (e *encoder) stepName(f *fieldPlan) string {
	switch {
	case f == nil:
		return ""
	case e.names == protoNames:
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
