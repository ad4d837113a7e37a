package transcode

import (
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The JSON forms of the well-known types, parsed as protojson parses them
// and written as the fields of the message.

// Range of google.protobuf.Timestamp and Duration in JSON.
const (
	tsMinSeconds  = -62135596800 // 0001-01-01T00:00:00Z
	tsMaxSeconds  = 253402300799 // 9999-12-31T23:59:59Z
	durMaxSeconds = 315576000000 // 10000 years
)

// wellKnown parses the JSON form of the well-known type t.
func (d *decoder) wellKnown(t *dynamic.Type, wk wellKnown) error {
	switch wk {
	case wktAny:
		return d.anyValue(t)
	case wktTimestamp:
		return d.timestamp()
	case wktDuration:
		return d.duration()
	case wktFieldMask:
		return d.fieldMask()
	case wktStruct:
		return d.mapField(t.FieldByNumber(1))
	case wktListValue:
		return d.list(t.FieldByNumber(1))
	case wktValue:
		return d.value(t)
	case wktEmpty:
		return d.empty()
	}
	_, err := d.singular(t.FieldByNumber(1)) // a wrapper
	return err
}

// wkString scans the JSON string a well-known type is written as and
// returns its value, valid until the next string is scanned.
func (d *decoder) wkString() ([]byte, int, error) {
	start := d.pos
	if d.skipWS() != '"' {
		return nil, start, d.errUnexpected(d.pos)
	}
	start = d.pos
	s, err := d.scanString()
	if err != nil {
		return nil, start, err
	}
	return d.stringValue(s), start, nil
}

// timestamp parses an RFC 3339 time with time.Parse, as protojson does,
// within years 1 to 9999 and with at most nine fractional digits.
func (d *decoder) timestamp() error {
	b, start, err := d.wkString()
	if err != nil {
		return err
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return d.errAt(start, "invalid google.protobuf.Timestamp value %s", d.tokenText(start))
	}
	secs := tm.Unix()
	if secs < tsMinSeconds || secs > tsMaxSeconds {
		return d.errAt(start, "google.protobuf.Timestamp value out of range: %s", d.tokenText(start))
	}
	i := strings.LastIndexByte(s, '.')
	j := strings.LastIndexAny(s, "Z-+")
	if i >= 0 && j >= i && j-i > len(".999999999") {
		return d.errAt(start, "invalid google.protobuf.Timestamp value %s", d.tokenText(start))
	}
	d.appendSecondsNanos(secs, int32(tm.Nanosecond()))
	return nil
}

// appendSecondsNanos writes fields 1 and 2 of a Timestamp or Duration,
// leaving out zeros.
func (d *decoder) appendSecondsNanos(secs int64, nanos int32) {
	if secs != 0 {
		d.out = append(d.out, 1<<3|byte(protowire.VarintType))
		d.varint(uint64(secs))
	}
	if nanos != 0 {
		d.out = append(d.out, 2<<3|byte(protowire.VarintType))
		d.varint(uint64(int64(nanos)))
	}
}

// duration parses seconds with up to nine fractional digits and an "s".
func (d *decoder) duration() error {
	b, start, err := d.wkString()
	if err != nil {
		return err
	}
	secs, nanos, ok := parseDuration(b)
	if !ok {
		return d.errAt(start, "invalid google.protobuf.Duration value %s", d.tokenText(start))
	}
	if secs < -durMaxSeconds || secs > durMaxSeconds {
		return d.errAt(start, "google.protobuf.Duration value out of range: %s", d.tokenText(start))
	}
	d.appendSecondsNanos(secs, nanos)
	return nil
}

// parseDuration parses [+-]digits[.digits]s, the way protojson does:
// digits before or after the point (or both), at most nine after it.
func parseDuration(b []byte) (int64, int32, bool) {
	if len(b) < 2 || b[len(b)-1] != 's' {
		return 0, 0, false
	}
	b = b[:len(b)-1]
	neg := b[0] == '-'
	if b[0] == '-' || b[0] == '+' {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, 0, false
	}
	var intp []byte
	switch c := b[0]; {
	case c == '0':
		b = b[1:]
	case '1' <= c && c <= '9':
		n := 1
		for n < len(b) && '0' <= b[n] && b[n] <= '9' {
			n++
		}
		intp, b = b[:n], b[n:]
	case c != '.':
		return 0, 0, false
	}
	var nanos int64
	if len(b) > 0 {
		if b[0] != '.' {
			return 0, 0, false
		}
		b = b[1:]
		n := 0
		for ; n < len(b) && n < 9 && '0' <= b[n] && b[n] <= '9'; n++ {
			nanos = nanos*10 + int64(b[n]-'0')
		}
		if n < len(b) {
			return 0, 0, false
		}
		for ; n < 9; n++ {
			nanos *= 10
		}
	}
	var secs int64
	if len(intp) > 0 {
		v, ok := jsonx.ParseInt(intp, 64, false)
		if !ok {
			return 0, 0, false
		}
		secs = int64(v)
	}
	if neg {
		secs, nanos = -secs, -nanos
	}
	return secs, int32(nanos), true
}

// fieldMask parses comma-separated lowerCamel paths, each written as a
// snake_case path; protojson rejects paths with underscores and paths that
// are not dotted identifiers once converted.
func (d *decoder) fieldMask() error {
	b, start, err := d.wkString()
	if err != nil {
		return err
	}
	s := strings.TrimSpace(unsafe.String(unsafe.SliceData(b), len(b)))
	if s == "" {
		return nil
	}
	mark := len(d.out)
	for {
		p, rest, more := strings.Cut(s, ",")
		if strings.IndexByte(p, '_') >= 0 || !d.appendSnakePath(p) {
			d.out = d.out[:mark]
			return d.errAt(start, "google.protobuf.FieldMask.paths contains invalid path: %q", p)
		}
		if !more {
			break
		}
		s = rest
	}
	return nil
}

// appendSnakePath appends path p as field 1 in snake_case and reports
// whether it is a valid dotted name.
func (d *decoder) appendSnakePath(p string) bool {
	d.out = append(d.out, 1<<3|byte(protowire.BytesType))
	lenPos := len(d.out)
	d.varint(uint64(len(p)))
	w := len(d.out) - lenPos
	body := len(d.out)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			d.out = append(d.out, '_', c+'a'-'A')
			continue
		}
		d.out = append(d.out, c)
	}
	snake := d.out[body:]
	if !protoreflect.FullName(unsafe.String(unsafe.SliceData(snake), len(snake))).IsValid() {
		return false
	}
	d.fixLen(lenPos, w, len(snake))
	return true
}

// value parses any JSON value as a google.protobuf.Value.
func (d *decoder) value(t *dynamic.Type) error {
	start := d.pos
	switch c := d.skipWS(); {
	case c == 'n':
		if d.literal("null") {
			d.out = append(d.out, 1<<3|byte(protowire.VarintType), 0)
			return nil
		}
	case c == 't' || c == 'f':
		d.out = append(d.out, 4<<3|byte(protowire.VarintType))
		return d.boolValue()
	case c == '-' || '0' <= c && c <= '9':
		n, ok := jsonx.ScanNumber(d.in[d.pos:])
		if !ok {
			return d.errSyntax(d.pos)
		}
		v, ok := jsonx.ParseFloat(d.in[d.pos:d.pos+n], 64)
		if !ok {
			return d.errAt(start, "invalid google.protobuf.Value: %s", d.tokenText(d.pos))
		}
		d.pos += n
		d.out = append(d.out, 2<<3|byte(protowire.Fixed64Type))
		d.fixed64(math.Float64bits(v))
		return nil
	case c == '"':
		s, err := d.scanString()
		if err != nil {
			return err
		}
		d.out = append(d.out, 3<<3|byte(protowire.BytesType))
		d.appendString(s)
		return nil
	case c == '{' || c == '[':
		f := t.FieldByNumber(5) // struct_value
		if c == '[' {
			f = t.FieldByNumber(6) // list_value
		}
		d.tag(f.Num, protowire.BytesType)
		at := d.openLen()
		if err := d.wellKnown(f.Message, wktOf(f.Message)); err != nil {
			return err
		}
		d.closeLen(at)
		return nil
	}
	if err := d.skipValue(0); err != nil {
		return err
	}
	return d.errAt(start, "invalid google.protobuf.Value: %s", d.tokenText(start))
}

// empty parses google.protobuf.Empty: an object whose keys are all
// unknown.
func (d *decoder) empty() error {
	if d.skipWS() != '{' {
		return d.errUnexpected(d.pos)
	}
	d.pos++
	for c := d.skipWS(); c != '}'; {
		if c != '"' {
			return d.errUnexpected(d.pos)
		}
		keyOff := d.pos
		if _, err := d.scanString(); err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		if err := d.unknown(nil, keyOff); err != nil {
			return err
		}
		if c = d.skipWS(); c == ',' {
			d.pos++
			if c = d.skipWS(); c == '}' {
				return d.errUnexpected(d.pos)
			}
		} else if c != '}' {
			return d.errUnexpected(d.pos)
		}
	}
	d.pos++
	return nil
}
