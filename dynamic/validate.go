package dynamic

import (
	"encoding/binary"

	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/internal/utf8x"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// DefaultMaxDepth is the message nesting limit of Validate and the DOM,
// protobuf-go's default recursion limit.
const DefaultMaxDepth = wire.DefaultMaxDepth

// ValidateOptions configures Validate. The zero value is the default.
type ValidateOptions struct {
	// MaxDepth limits the nesting of messages and groups;
	// 0 means DefaultMaxDepth.
	MaxDepth int
}

// Validate reports whether b is a well-formed message of Type t, as
// protobuf-go would accept it: every record well-formed at every depth,
// valid UTF-8 in strings that require it, nesting within the limit.
func Validate(t *Type, b []byte) error { return ValidateOptions{}.Validate(t, b) }

// Validate checks v's bytes; see the Validate function.
func (v Value) Validate() error { return ValidateOptions{}.Validate(v.t, v.b) }

// Validate reports whether b is a well-formed message of Type t.
func (o ValidateOptions) Validate(t *Type, b []byte) error {
	depth := o.MaxDepth
	if depth <= 0 {
		depth = DefaultMaxDepth
	}
	if validFast(t, b, depth) {
		return nil
	}
	return validate(t, b, 0, depth)
}

// validFast reports whether b is a well-formed message of t, walking the
// records of every depth in one loop with a stack of its own instead of a
// call per sub-message. It handles records with one-byte tags by table and
// hands any other, and varints of ten bytes, to validateSlow. It answers
// false for anything wrong, and for messages nested deeper than its stack,
// and leaves the error and its field path to validate. Its cases for leaf
// records are skipChecked's written out again on purpose: calling
// skipChecked, which is too large to inline, made the walk about a quarter
// slower.
//
// Strings are checked in runs, several at a time. The byte before a string
// is ASCII, the last of its length; so is the byte after it, the first of
// the next tag, unless that tag takes two bytes, a record for validateSlow,
// before which the run is checked. So no multi-byte sequence reaches
// across the edge of a string, and a run of bytes that holds several
// strings is valid UTF-8 only if each of them is. The bytes between the
// strings of a run must be valid too, or a valid message would fail: the
// run takes in only ASCII ones (one-byte tags, lengths and varints, fixed
// values without a high bit, the heads of sub-messages and map entries).
// Any other byte outside a string ends the run before it: b[run:runEnd]
// is the run, ending with a string, and b[runEnd:p] is ASCII.
func validFast(t *Type, b []byte, depth int) bool {
	type frame struct {
		t   *Type
		end int
	}
	var stack [32]frame
	sp, p, end := 0, 0, len(b)
	run, runEnd := -1, 0
	ok := true
	for {
		for p < end {
			c := b[p]
			if c >= 0x80 {
				if p, ok = handOff(t, b[:end], p, run, runEnd, depth-sp); !ok {
					return false
				}
				run = -1
				continue
			}
			op := &t.tags[c]
			switch op.op {
			case opUTF8:
				q, e := wire.LenSpan(b[:end], p+1)
				if e < 0 {
					return false
				}
				if q != p+2 { // a two-byte length
					if !runValid(b, run, runEnd) {
						return false
					}
					run = -1
				}
				if run < 0 {
					run = q
				}
				p, runEnd = e, e
				continue
			case opMessage:
				q, e := wire.LenSpan(b[:end], p+1)
				if e < 0 || sp == len(stack) || depth-sp <= 1 {
					return false
				}
				if q != p+2 {
					if !runValid(b, run, runEnd) {
						return false
					}
					run = -1
				}
				stack[sp] = frame{t, end}
				sp++
				t, p, end = op.f.Message, q, e
				continue
			case opVarint:
				if p+1 < end && b[p+1] < 0x80 {
					p += 2
					continue
				}
				if e := wire.VarintEnd(b[:end], p+1); e >= 0 {
					p = e
					break
				}
				if p, ok = handOff(t, b[:end], p, run, runEnd, depth-sp); !ok {
					return false
				}
				run = -1
				continue
			case opFixed64:
				if p += 9; p > end {
					return false
				}
				if binary.LittleEndian.Uint64(b[p-8:])&0x8080808080808080 == 0 {
					continue
				}
			case opFixed32:
				if p += 5; p > end {
					return false
				}
				if binary.LittleEndian.Uint32(b[p-4:])&0x80808080 == 0 {
					continue
				}
			case opBytes:
				if _, p = wire.LenSpan(b[:end], p+1); p < 0 {
					return false
				}
			case opPacked:
				q, e := wire.LenSpan(b[:end], p+1)
				if e < 0 || !packedOK(op.f, b[q:e]) {
					return false
				}
				p = e
			default:
				if p, ok = handOff(t, b[:end], p, run, runEnd, depth-sp); !ok {
					return false
				}
				run = -1
				continue
			}
			// The record just passed may hold bytes that are not ASCII:
			// the run ends before it.
			if !runValid(b, run, runEnd) {
				return false
			}
			run = -1
		}
		if sp == 0 {
			return runValid(b, run, runEnd)
		}
		sp--
		t, end = stack[sp].t, stack[sp].end
	}
}

// runValid reports whether validFast's run of strings b[run:runEnd] is
// valid UTF-8, or there is none (run < 0).
func runValid(b []byte, run, runEnd int) bool { return run < 0 || utf8x.Valid(b[run:runEnd]) }

// handOff checks the run of strings and has validateSlow check the record
// at p, for validFast; it returns the end of the record and whether both
// are valid.
func handOff(t *Type, b []byte, p, run, runEnd, depth int) (int, bool) {
	if !runValid(b, run, runEnd) {
		return 0, false
	}
	next, err := validateSlow(t, b, p, 0, depth)
	return next, err == nil
}

// validate checks b as a message of t; base is b's offset in the bytes
// the caller handed in. The loop handles one-byte tags by table and leaves
// the rest, and every error but those inside sub-messages, to validateSlow.
func validate(t *Type, b []byte, base, depth int) error {
	for p := 0; p < len(b); {
		c := b[p]
		if c < 0x80 {
			op := &t.tags[c]
			if op.op == opMessage {
				next, err := validateSub(t, b, p, base, depth)
				if err != nil {
					return err
				}
				if next >= 0 {
					p = next
					continue
				}
			} else if next := skipChecked(op, b, p); next >= 0 {
				p = next
				continue
			}
		}
		next, err := validateSlow(t, b, p, base, depth)
		if err != nil {
			return err
		}
		p = next
	}
	return nil
}

// skipChecked returns the end of the record at p, whose one-byte tag has
// op, after checking its payload; or -1 to hand the record to validateSlow.
// Length-delimited records come first: they are most of a message's bytes.
func skipChecked(op *tagOp, b []byte, p int) int {
	switch op.op {
	case opUTF8:
		q, end := wire.LenSpan(b, p+1)
		if end < 0 || !utf8x.Valid(b[q:end]) {
			return -1
		}
		return end
	case opBytes:
		_, end := wire.LenSpan(b, p+1)
		return end
	case opVarint:
		return wire.VarintEnd(b, p+1)
	case opFixed64:
		if len(b)-p >= 9 {
			return p + 9
		}
	case opFixed32:
		if len(b)-p >= 5 {
			return p + 5
		}
	case opPacked:
		q, end := wire.LenSpan(b, p+1)
		if end >= 0 && packedOK(op.f, b[q:end]) {
			return end
		}
	}
	return -1
}

// validateSub validates the message record at p, whose tag is one byte,
// and returns its end, or -1 to hand the record to validateSlow.
func validateSub(t *Type, b []byte, p, base, depth int) (int, error) {
	q, end := wire.LenSpan(b, p+1)
	if end < 0 || depth <= 1 {
		return -1, nil
	}
	f := t.tags[b[p]].f
	if err := validate(f.Message, b[q:end], base+q, depth-1); err != nil {
		r := wire.Field{Num: f.Num, Type: protowire.BytesType, Start: p, TagEnd: p + 1, Value: q, ValueEnd: end, End: end}
		return -1, inField(err, t, b, f, r)
	}
	return end, nil
}

// packedOK reports whether a packed run of f is well formed.
func packedOK(f *Field, b []byte) bool {
	if f.WireType == protowire.VarintType {
		return wire.PackedVarintsOK(b)
	}
	_, err := wire.CountPacked(b, 0, len(b), f.WireType)
	return err == nil
}

// validateSlow validates the record at b[p:] generically, naming the field
// path of any error.
func validateSlow(t *Type, b []byte, p, base, depth int) (int, error) {
	r, err := wire.ParseFieldDepth(b, p, depth)
	if err != nil {
		return -1, wrapWire(err, base, nil, 0)
	}
	f := t.FieldByNumber(r.Num)
	if f == nil || !f.accepts(r.Type) {
		return r.End, nil
	}
	if err := validateField(f, b, r, base, depth); err != nil {
		return -1, inField(err, t, b, f, r)
	}
	return r.End, nil
}

func validateField(f *Field, b []byte, r wire.Field, base, depth int) error {
	switch {
	case f.Message != nil:
		if depth <= 1 {
			return &Error{Offset: base + r.Start, Code: wire.CodeDepth}
		}
		return validate(f.Message, b[r.Value:r.ValueEnd], base+r.Value, depth-1)
	case f.UTF8:
		if !utf8x.Valid(b[r.Value:r.ValueEnd]) {
			return &Error{Offset: base + r.Value, Code: wire.CodeUTF8}
		}
	case f.Packable && r.Type == protowire.BytesType:
		if _, err := wire.CountPacked(b, r.Value, r.ValueEnd, f.WireType); err != nil {
			return wrapWire(err, base, nil, 0)
		}
	}
	return nil
}

// inField prefixes the path of an error found inside record r of field f
// of a message of t: the field's name, its list index or its map key. The
// path is cut to its ends at each step, so deep input costs no more.
func inField(err error, t *Type, b []byte, f *Field, r wire.Field) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	seg := f.Name + elementSuffix(t, b, f, r)
	switch {
	case e.Path == "":
		e.Path = seg
	case e.Path[0] == '[':
		e.Path = errtext.ShortPath(seg + e.Path)
	default:
		e.Path = errtext.ShortPath(seg + "." + e.Path)
	}
	return e
}

// elementSuffix returns "[i]" or "[key]" for a record of a list or map.
func elementSuffix(t *Type, b []byte, f *Field, r wire.Field) string {
	v := Value{t: t, b: b}
	switch {
	case f.Map:
		key, err := v.sub(f.Message, r.Value, r.ValueEnd).scalar(f.MapKey, nil, 0)
		if err != nil {
			return "[?]"
		}
		key.exists = true
		return "[" + keyOf(key).String() + "]"
	case f.List && f.isMessage():
		return "[" + itoa(v.countBefore(f, r.Start)) + "]"
	}
	return ""
}

// countBefore counts the records of f that start before off.
func (v Value) countBefore(f *Field, off int) int {
	it := v.iter()
	n := 0
	for it.Next() && it.Field().Start < off {
		if it.Field().Num == f.Num && f.accepts(it.Field().Type) {
			n++
		}
	}
	return n
}
