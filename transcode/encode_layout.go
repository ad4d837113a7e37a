package transcode

// The layout of the output: compact by default, or protojson's multi-line
// form with Indent: every member and element on a line of its own, "key":
// value with one space, empty objects and arrays as {} and [].
//
// Whether a member is the first of its object is read off the output: only
// an object just opened ends in '{' (an array in '['), so nothing else
// needs tracking and a rolled-back member leaves no trace.

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

// key writes the separator and the key of f's member.
func (e *encoder) key(f *fieldPlan) {
	k := f.jsonKey
	if e.protoNames {
		k = f.protoKey
	}
	if e.indent == "" {
		if e.out[len(e.out)-1] == '{' {
			k = k[1:]
		}
		e.set(append(e.out, k...))
		return
	}
	e.keyIndent(k)
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

// member writes the separator before a member whose key the caller
// writes, and keyEnd the colon after it.
func (e *encoder) member() {
	if e.out[len(e.out)-1] != '{' {
		e.set(append(e.out, ','))
	}
	if e.indent != "" {
		e.newline()
	}
}

func (e *encoder) keyEnd() {
	if e.indent != "" {
		e.set(append(e.out, ':', ' '))
		return
	}
	e.set(append(e.out, ':'))
}

// elem writes the separator before an array element.
func (e *encoder) elem() {
	if e.out[len(e.out)-1] != '[' {
		e.set(append(e.out, ','))
	}
	if e.indent != "" {
		e.newline()
	}
}

func (e *encoder) newline() {
	e.set(append(e.out, '\n'))
	for range e.level {
		e.set(append(e.out, e.indent...))
	}
}
