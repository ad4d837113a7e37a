package transcode

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Errors are made where the input goes wrong, with its offset; on the way
// out each message, list and map adds its step to d.segs, and finish turns
// the offset into a line and column and the steps into the path. Nothing
// of this runs unless there is an error.

func (d *decoder) errAt(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) errWrap(off int, err error, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...), Err: err}
}

// errEOF reports input that ends too soon.
func (d *decoder) errEOF(off int, msg string) error {
	if d.short {
		return shortInput{}
	}
	return &Error{Offset: off, Msg: msg, Err: io.ErrUnexpectedEOF}
}

// shortInput is the end of the input when a Decoder may read more: it
// costs no allocation, and no path is built for it.
type shortInput struct{}

func (shortInput) Error() string { return "transcode: unexpected end of input" }

// errUnexpected reports the token at off as out of place.
func (d *decoder) errUnexpected(off int) error {
	if off >= len(d.in) {
		return d.errEOF(off, "unexpected end of input")
	}
	return d.errAt(off, "unexpected token %s", d.tokenText(off))
}

// errSyntax reports text at off that is no JSON token.
func (d *decoder) errSyntax(off int) error {
	if off >= len(d.in) {
		return d.errEOF(off, "unexpected end of input")
	}
	return d.errAt(off, "invalid value %s", d.tokenText(off))
}

// errInvalid reports a value at off that is not one of kind k.
func (d *decoder) errInvalid(off int, k protoreflect.Kind) error {
	for off < len(d.in) && (d.in[off] == ' ' || d.in[off] == '\t' || d.in[off] == '\r' || d.in[off] == '\n') {
		off++
	}
	return d.errAt(off, "invalid %v %s", k, d.tokenText(off))
}

// tokenText returns the token at off for an error message: a string with
// its quotes, a run of literal characters, or one character.
func (d *decoder) tokenText(off int) string {
	in := d.in[off:]
	if len(in) == 0 {
		return "end of input"
	}
	const max = 64
	if in[0] == '"' {
		i := 1
		for i < len(in) && in[i] != '"' && i < max {
			if in[i] == '\\' {
				i++
			}
			i++
		}
		if i < len(in) && in[i] == '"' {
			return string(in[:i+1])
		}
		return string(in[:min(i, len(in))]) + "…"
	}
	i := 0
	for i < len(in) && i < 32 && jsonx.IsNotDelim(in[i]) {
		i++
	}
	if i > 0 {
		return string(in[:i])
	}
	r, n := utf8.DecodeRune(in)
	if r == utf8.RuneError && n <= 1 || r < ' ' || r == 0x7f {
		return fmt.Sprintf("%q", in[:n])
	}
	return string(in[:n])
}

// errUnknown reports the key at keyOff as no field of t, with the name
// of t's field closest to it, JSON or proto name, when one is close.
func (d *decoder) errUnknown(t *dynamic.Type, keyOff int) error {
	msg := "unknown field " + d.tokenText(keyOff)
	if t == nil {
		return d.errAt(keyOff, "%s", msg)
	}
	pos := d.pos
	d.pos = keyOff
	ks, err := d.scanString()
	d.pos = pos
	if err != nil {
		return d.errAt(keyOff, "%s in %s", msg, t.FullName())
	}
	var names []string
	for _, f := range t.Fields {
		names = append(names, f.JSONName)
		if f.Name != f.JSONName {
			names = append(names, f.Name)
		}
	}
	key := string(d.stringValue(ks))
	hint := errtext.DidYouMean(errtext.Closest(key, names, 1))
	return d.errWrap(keyOff, &UnknownFieldError{Name: key}, "%s in %s%s", msg, t.FullName(), hint)
}

// inField adds the field f to the path of err.
func (d *decoder) inField(err error, f *dynamic.Field) error {
	if err == (shortInput{}) {
		return err
	}
	name := f.JSONName
	if f.Desc.IsExtension() {
		name = "[" + string(f.Desc.FullName()) + "]"
	}
	d.segs = append(d.segs, "."+name)
	return err
}

// inIndex adds the list index i to the path of err.
func (d *decoder) inIndex(err error, i int) error {
	if err == (shortInput{}) {
		return err
	}
	d.segs = append(d.segs, "["+strconv.Itoa(i)+"]")
	return err
}

// inKey adds the map key k to the path of err.
func (d *decoder) inKey(err error, kf *dynamic.Field, k mapKey) error {
	if err == (shortInput{}) {
		return err
	}
	var s string
	switch {
	case k.isStr:
		s = strconv.Quote(string(d.stringValue(k.s)))
	case kf.Kind == protoreflect.BoolKind:
		s = strconv.FormatBool(k.v != 0)
	case kf.Kind == protoreflect.Int32Kind || kf.Kind == protoreflect.Sint32Kind || kf.Kind == protoreflect.Sfixed32Kind ||
		kf.Kind == protoreflect.Int64Kind || kf.Kind == protoreflect.Sint64Kind || kf.Kind == protoreflect.Sfixed64Kind:
		s = strconv.FormatInt(int64(k.v), 10)
	default:
		s = strconv.FormatUint(k.v, 10)
	}
	d.segs = append(d.segs, "["+s+"]")
	return err
}

// finish completes err with its position and its path; base places the
// input in a stream.
func (d *decoder) finish(err error, base streamPos) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	line, col := jsonx.LineCol(d.in, e.Offset)
	if line == 1 {
		col += base.col
	}
	e.Line, e.Col = line+base.line, col
	e.Offset += base.off
	var b strings.Builder
	for i := len(d.segs) - 1; i >= 0; i-- {
		b.WriteString(d.segs[i])
	}
	e.Path = errtext.ShortPath(strings.TrimPrefix(b.String(), "."))
	d.segs = d.segs[:0]
	return e
}
