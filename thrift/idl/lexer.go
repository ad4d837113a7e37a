package idl

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tDouble
	tString
	tSymbol
)

type token struct {
	kind tokKind
	text string // identifier, symbol, the literal as written, or the string's value
	i    int64
	f    float64
	pos  Pos
}

// describe says what a token is, for "found ..." in errors.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return "string " + strconv.Quote(t.text)
	case tInt, tDouble:
		return t.text
	}
	return strconv.Quote(t.text)
}

// lexer splits a file into tokens with the rules of the Apache compiler's
// thriftl.ll: comments //, # and /* */, identifiers with inner dots,
// decimal and hex integers with a sign, doubles, strings in either quote
// with \r \n \t \" \' \\ escapes.
type lexer struct {
	src  string
	file string
	off  int
	line int
	col  int
	docs docs
}

func newLexer(file string, src []byte) *lexer {
	s := string(src)
	s = strings.TrimPrefix(s, "\ufeff")
	return &lexer{src: s, file: file, line: 1, col: 1}
}

func (l *lexer) pos() Pos { return Pos{l.file, l.line, l.col} }

func (l *lexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

// advance moves past n bytes, keeping line and column (in runes: UTF-8
// continuation bytes do not count).
func (l *lexer) advance(n int) {
	for end := l.off + n; l.off < end; l.off++ {
		switch c := l.src[l.off]; {
		case c == '\n':
			l.line++
			l.col = 1
		case c&0xC0 != 0x80:
			l.col++
		}
	}
}

// next returns the next token, or an error for text no token matches.
func (l *lexer) next() (token, error) {
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	pos := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: pos}, nil
	}
	c := l.src[l.off]
	switch {
	case isIdentStart(c):
		return l.ident(pos), nil
	case c == '"' || c == '\'':
		return l.str(pos)
	case isDigit(c) || c == '+' || c == '-' || c == '.':
		return l.number(pos)
	case strings.IndexByte(":;,{}()=<>[]*&", c) >= 0:
		l.advance(1)
		return token{kind: tSymbol, text: string(c), pos: pos}, nil
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	return token{}, errorf(pos, "unexpected character %q", r)
}

func (l *lexer) skipSpace() error {
	for l.off < len(l.src) {
		switch c := l.src[l.off]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.advance(1)
		case c == '#' || c == '/' && l.peekByte(1) == '/':
			l.skipLine()
		case c == '/' && l.peekByte(1) == '*':
			if err := l.skipBlock(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) skipLine() {
	n := strings.IndexByte(l.src[l.off:], '\n')
	if n < 0 {
		n = len(l.src) - l.off
	}
	l.advance(n)
}

func (l *lexer) skipBlock() error {
	pos := l.pos()
	n := strings.Index(l.src[l.off+2:], "*/")
	if n < 0 {
		return errorf(pos, "comment not terminated: expected \"*/\", found end of file")
	}
	body := l.src[l.off+2 : l.off+2+n]
	l.advance(n + 4)
	if strings.HasPrefix(body, "*") && strings.Trim(body, "*") != "" {
		l.docs.lexed(body[1:])
	}
	return nil
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// ident scans [a-zA-Z_](\.[a-zA-Z_0-9]|[a-zA-Z_0-9])*.
func (l *lexer) ident(pos Pos) token {
	n := 1
	for {
		c := l.peekByte(n)
		if isIdentChar(c) {
			n++
		} else if c == '.' && isIdentChar(l.peekByte(n+1)) {
			n += 2
		} else {
			break
		}
	}
	text := l.src[l.off : l.off+n]
	l.advance(n)
	switch text {
	case "true":
		return token{kind: tInt, text: text, i: 1, pos: pos}
	case "false":
		return token{kind: tInt, text: text, i: 0, pos: pos}
	}
	return token{kind: tIdent, text: text, pos: pos}
}

// str scans a string literal in either quote; it may not span lines.
func (l *lexer) str(pos Pos) (token, error) {
	quote := l.src[l.off]
	l.advance(1)
	var b strings.Builder
	for {
		if l.off >= len(l.src) {
			return token{}, errorf(pos, "string not terminated: expected %c, found end of file", quote)
		}
		c := l.src[l.off]
		switch {
		case c == quote:
			l.advance(1)
			return token{kind: tString, text: b.String(), pos: pos}, nil
		case c == '\n':
			return token{}, errorf(l.pos(), "string not terminated: expected %c, found end of line", quote)
		case c == '\\':
			if err := l.escape(&b); err != nil {
				return token{}, err
			}
		default:
			b.WriteByte(c)
			l.advance(1)
		}
	}
}

var escapes = map[byte]byte{'r': '\r', 'n': '\n', 't': '\t', '"': '"', '\'': '\'', '\\': '\\'}

func (l *lexer) escape(b *strings.Builder) error {
	pos := l.pos()
	e, ok := escapes[l.peekByte(1)]
	if !ok {
		found := "end of file"
		if l.off+1 < len(l.src) {
			r, _ := utf8.DecodeRuneInString(l.src[l.off+1:])
			found = strconv.QuoteRune(r)
		}
		return errorf(pos, "bad escape in string: expected one of \\r \\n \\t \\\" \\' \\\\, found \\ and %s", found)
	}
	b.WriteByte(e)
	l.advance(2)
	return nil
}

// number scans [+-]?0x[0-9a-fA-F]+, [+-]?[0-9]+ or
// [+-]?[0-9]*(\.[0-9]+)?([eE][+-]?[0-9]+)?, the longest that matches.
func (l *lexer) number(pos Pos) (token, error) {
	n := 0
	if c := l.peekByte(0); c == '+' || c == '-' {
		n++
	}
	if l.peekByte(n) == '0' && l.peekByte(n+1) == 'x' && isHex(l.peekByte(n+2)) {
		return l.hex(pos, n)
	}
	digits := l.digits(n)
	end, isDouble := n+digits, false
	if l.peekByte(end) == '.' && isDigit(l.peekByte(end+1)) {
		end += 1 + l.digits(end+1)
		isDouble = true
	}
	if e := l.exponent(end); e > 0 && (digits > 0 || isDouble) {
		end += e
		isDouble = true
	}
	if digits == 0 && !isDouble {
		return token{}, errorf(pos, "unexpected character %q", l.src[l.off])
	}
	text := l.src[l.off : l.off+end]
	l.advance(end)
	if isDouble {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, errorf(pos, "double %s out of range", text)
		}
		return token{kind: tDouble, text: text, f: f, pos: pos}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{}, errorf(pos, "integer %s out of range of i64", text)
	}
	return token{kind: tInt, text: text, i: i, pos: pos}, nil
}

func (l *lexer) digits(from int) int {
	n := 0
	for isDigit(l.peekByte(from + n)) {
		n++
	}
	return n
}

// exponent returns the length of [eE][+-]?[0-9]+ at from, or 0.
func (l *lexer) exponent(from int) int {
	if c := l.peekByte(from); c != 'e' && c != 'E' {
		return 0
	}
	n := 1
	if c := l.peekByte(from + n); c == '+' || c == '-' {
		n++
	}
	d := l.digits(from + n)
	if d == 0 {
		return 0
	}
	return n + d
}

func (l *lexer) hex(pos Pos, sign int) (token, error) {
	n := sign + 2
	for isHex(l.peekByte(n)) {
		n++
	}
	text := l.src[l.off : l.off+n]
	l.advance(n)
	u, err := strconv.ParseInt(text[sign+2:], 16, 64)
	if err != nil {
		return token{}, errorf(pos, "integer %s out of range of i64", text)
	}
	if text[0] == '-' {
		u = -u
	}
	return token{kind: tInt, text: text, i: u, pos: pos}, nil
}
