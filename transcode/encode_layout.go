package transcode

// The layout of the output: compact by default, or protojson's multi-line
// form with Indent: every member and element on a line of its own, "key":
// value with one space, empty objects and arrays as {} and [].
//
// Whether a field's member is the first of its object is read off the
// output: only an object just opened ends in '{', so nothing else needs
// tracking and a rolled-back member leaves no trace. Array elements and
// map members are counted by the code that prints them, which knows the
// first without a look. With Indent, close reads the output too: an
// object or array that ends right after its '{' or '[' is empty and
// closes on the same line.

func (e *encoder) open(c byte) {
	e.set(append(e.out, c))
	e.level++
}

func (e *encoder) close(c byte) {
	e.level--
	if e.indent != "" {
		if last := e.out[len(e.out)-1]; last != '{' && last != '[' {
			e.newline()
		}
	}
	e.set(append(e.out, c))
}

// set makes out, which appends grew from e.out, the output (see setOut).
func (e *encoder) set(out []byte) { setOut(&e.out, out) }

// key writes the separator and the key of f's member. A compact key of
// up to 16 bytes is copied as its padded form in two words, where the
// output has room for them: the first member of an object writes it over
// the '{' and puts the '{' back in place of its comma.
func (e *encoder) key(f *fieldPlan) {
	if e.indent != "" {
		e.keyIndent(f.keys[e.names])
		return
	}
	e.set(e.appendKey(e.out, f))
}

// appendKey is key in compact form, on out.
func (e *encoder) appendKey(out []byte, f *fieldPlan) []byte {
	return appendKeyWords(out, f.keys[e.names], &f.keys16[e.names])
}

// appendKeyWords appends k, a key `,"name":`, copying k16, its padded
// form, in two words when k fits in it and out has room.
func appendKeyWords(out, k []byte, k16 *[16]byte) []byte {
	l := len(out)
	first := out[l-1] == '{'
	if len(k) <= len(k16) && cap(out)-l >= len(k16) {
		if first {
			l--
		}
		*(*[16]byte)(out[l : l+16]) = *k16
		if first {
			out[l] = '{'
		}
		return out[:l+len(k)]
	}
	if first {
		k = k[1:]
	}
	return append(out, k...)
}

// rawKey is key for a literal `,"name":`.
func (e *encoder) rawKey(k string) {
	if e.indent == "" {
		if e.out[len(e.out)-1] == '{' {
			k = k[1:]
		}
		e.set(append(e.out, k...))
		return
	}
	e.keyIndent([]byte(k))
}

func (e *encoder) keyIndent(k []byte) {
	if e.out[len(e.out)-1] != '{' {
		e.set(append(e.out, ','))
	}
	e.newline()
	e.set(append(e.out, k[1:]...))
	e.set(append(e.out, ' '))
}

// appendMember appends the separator before a member whose key the
// caller writes, the first of its object when first, and appendKeyEnd the
// colon after the key.
func (e *encoder) appendMember(out []byte, first bool) []byte {
	if !first {
		out = append(out, ',')
	}
	if e.indent != "" {
		out = e.appendNewline(out)
	}
	return out
}

func (e *encoder) appendKeyEnd(out []byte) []byte {
	if e.indent != "" {
		return append(out, ':', ' ')
	}
	return append(out, ':')
}

// elem writes the separator before an array element, the first when
// first: the callers count the elements they print.
func (e *encoder) elem(first bool) { e.set(e.appendElem(e.out, first)) }

// appendElem is elem on out.
func (e *encoder) appendElem(out []byte, first bool) []byte {
	if !first {
		out = append(out, ',')
	}
	if e.indent != "" {
		out = e.appendNewline(out)
	}
	return out
}

func (e *encoder) newline() { e.set(e.appendNewline(e.out)) }

func (e *encoder) appendNewline(out []byte) []byte {
	out = append(out, '\n')
	for range e.level {
		out = append(out, e.indent...)
	}
	return out
}
