package cli

// jsonScan finds where a JSON value ends in bytes that arrive a piece at a
// time, and the first byte that cannot be JSON at all, so that a reader
// stops there instead of reading on. It checks only what it needs for that
// (strings, nesting, the characters allowed outside strings); the whole
// value is checked once it is complete.
type jsonScan struct {
	pos     int // the next byte to look at
	start   int // where the value starts
	started bool
	bare    bool // the value is a number or literal at the top level
	depth   int
	inStr   bool
	esc     bool
}

// scan looks at b from where it stopped. It returns the end of the value
// (exclusive) once the value is complete, or the index of a byte that
// cannot be JSON; the other result is -1.
func (s *jsonScan) scan(b []byte) (end, bad int) {
	for ; s.pos < len(b); s.pos++ {
		c := b[s.pos]
		var done, ok bool
		switch {
		case s.inStr:
			done, ok = s.str(c)
		case !s.started:
			ok = s.begin(c)
		case s.bare:
			if !isBare(c) {
				return s.pos, -1
			}
			ok = true
		default:
			done, ok = s.inside(c)
		}
		if !ok {
			return -1, s.pos
		}
		if done {
			s.pos++
			return s.pos, -1
		}
	}
	return -1, -1
}

// begin looks at a byte before the value: space, or its first byte.
func (s *jsonScan) begin(c byte) bool {
	switch {
	case isSpace(c):
		return true
	case c == '{' || c == '[':
		s.depth = 1
	case c == '"':
		s.inStr = true
	case isBare(c):
		s.bare = true
	default:
		return false
	}
	s.started, s.start = true, s.pos
	return true
}

// inside looks at a byte inside an object or array, outside strings.
func (s *jsonScan) inside(c byte) (done, ok bool) {
	switch {
	case c == '"':
		s.inStr = true
	case c == '{' || c == '[':
		s.depth++
	case c == '}' || c == ']':
		s.depth--
		return s.depth == 0, true
	case isSpace(c) || c == ',' || c == ':' || isBare(c):
	default:
		return false, false
	}
	return false, true
}

// str looks at a byte inside a string.
func (s *jsonScan) str(c byte) (done, ok bool) {
	switch {
	case s.esc:
		s.esc = false
		return false, isEscape(c)
	case c == '\\':
		s.esc = true
	case c == '"':
		s.inStr = false
		return s.depth == 0, true
	case c < 0x20:
		return false, false
	}
	return false, true
}

// context says what the scan was at, for an error about byte c.
func (s *jsonScan) context() string {
	switch {
	case s.esc:
		return "in string escape code"
	case s.inStr:
		return "in string literal"
	}
	return "looking for beginning of value"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isBare reports whether c may be part of a number or of true, false and
// null.
func isBare(c byte) bool {
	switch c {
	case '-', '+', '.', 'e', 'E', 't', 'r', 'u', 'f', 'a', 'l', 's', 'n':
		return true
	}
	return '0' <= c && c <= '9'
}

func isEscape(c byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
		return true
	}
	return false
}
