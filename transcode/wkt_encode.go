package transcode

import (
	"fmt"
	"time"

	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
)

// Ranges of the JSON forms of Timestamp and Duration.
const (
	minTimestampSeconds  = -62135596800 // 0001-01-01T00:00:00Z
	maxTimestampSeconds  = 253402300799 // 9999-12-31T23:59:59Z
	maxDurationSeconds   = 315576000000 // 10000 years
	maxNanos             = 999999999
	timestampLayoutNoSub = "2006-01-02T15:04:05"
)

// wellKnown prints a message of a well-known type with a JSON form of its
// own; recs are its records, scanned like any message's.
func (e *encoder) wellKnown(p *plan, recs []rec, ones []int32) error {
	switch p.wkt {
	case wktTimestamp:
		return e.timestamp(p, recs)
	case wktDuration:
		return e.duration(p, recs)
	case wktFieldMask:
		return e.fieldMask(p, recs)
	case wktStruct:
		return e.mapValue(&p.fields[0], recs)
	case wktListValue:
		f := &p.fields[0]
		e.open('[')
		if _, err := e.elements(f, recs, 0); err != nil {
			return err
		}
		e.close(']')
		return nil
	case wktValue:
		return e.value(p, recs, ones)
	case wktAny:
		return e.any(p, recs)
	}
	return e.wrapper(p, recs)
}

// last returns the last record of field number num, or nil.
func last(p *plan, recs []rec, num protowire.Number) *rec {
	if g := group(p, recs, num); len(g) > 0 {
		return &g[len(g)-1]
	}
	return nil
}

// group returns the records of field number num, a run of the sorted recs.
func group(p *plan, recs []rec, num protowire.Number) []rec {
	idx := p.lookup(num)
	i := 0
	for i < len(recs) && recs[i].idx != idx {
		i++
	}
	j := i
	for j < len(recs) && recs[j].idx == idx {
		j++
	}
	return recs[i:j]
}

// intField returns the value of the last record of a varint field, or 0.
func (e *encoder) intField(p *plan, recs []rec, num protowire.Number) (uint64, int32) {
	if r := last(p, recs, num); r != nil {
		return e.bitsOf(r), r.start
	}
	return 0, 0
}

// wkErr reports a well-known type's value that has no JSON form.
func (e *encoder) wkErr(off int32, format string, args ...any) error {
	return &Error{Offset: int(off), Msg: fmt.Sprintf(format, args...)}
}

// timestamp prints RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits.
func (e *encoder) timestamp(p *plan, recs []rec) error {
	s, off := e.intField(p, recs, 1)
	n, noff := e.intField(p, recs, 2)
	secs, nanos := int64(s), int64(int32(n))
	if secs < minTimestampSeconds || secs > maxTimestampSeconds {
		return e.wkErr(off, "google.protobuf.Timestamp: seconds out of range %v", secs)
	}
	if nanos < 0 || nanos > maxNanos {
		return e.wkErr(noff, "google.protobuf.Timestamp: nanos out of range %v", nanos)
	}
	out := append(e.out, '"')
	out = time.Unix(secs, 0).UTC().AppendFormat(out, timestampLayoutNoSub)
	out = appendNanos(out, nanos)
	e.set(append(out, 'Z', '"'))
	return nil
}

// duration prints seconds with 0, 3, 6 or 9 fractional digits and "s".
func (e *encoder) duration(p *plan, recs []rec) error {
	s, off := e.intField(p, recs, 1)
	n, noff := e.intField(p, recs, 2)
	secs, nanos := int64(s), int64(int32(n))
	if secs < -maxDurationSeconds || secs > maxDurationSeconds {
		return e.wkErr(off, "google.protobuf.Duration: seconds out of range %v", secs)
	}
	if nanos < -maxNanos || nanos > maxNanos {
		return e.wkErr(noff, "google.protobuf.Duration: nanos out of range %v", nanos)
	}
	if (secs > 0 && nanos < 0) || (secs < 0 && nanos > 0) {
		return e.wkErr(off, "google.protobuf.Duration: signs of seconds and nanos do not match")
	}
	out := append(e.out, '"')
	if secs < 0 || nanos < 0 {
		out = append(out, '-')
		secs, nanos = -secs, -nanos
	}
	out = jsonx.AppendInt(out, secs)
	out = appendNanos(out, nanos)
	e.set(append(out, 's', '"'))
	return nil
}

// appendNanos appends a fraction of a second, 0 < n <= 999999999, with 3, 6
// or 9 digits, the fewest that are exact; nothing for 0.
func appendNanos(out []byte, n int64) []byte {
	if n == 0 {
		return out
	}
	digits := 9
	switch {
	case n%1e6 == 0:
		n, digits = n/1e6, 3
	case n%1e3 == 0:
		n, digits = n/1e3, 6
	}
	out = append(out, '.')
	var buf [9]byte
	for i := digits - 1; i >= 0; i-- {
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(out, buf[:digits]...)
}

// wrapper prints the value of a wrapper type, its zero value when absent.
func (e *encoder) wrapper(p *plan, recs []rec) error {
	f := &p.fields[p.lookup(1)]
	if len(recs) > 0 {
		r, err := e.lastOf(f, recs) // only the value field is known
		if err != nil {
			return err
		}
		return e.scalar(f, r)
	}
	e.zero(f)
	return nil
}

// fieldMask prints the paths in lowerCamel joined by commas, after
// protojson's checks: each path a valid proto name, whose lowerCamel form
// converts back to it.
func (e *encoder) fieldMask(p *plan, recs []rec) error {
	out := append(e.out, '"')
	for i := range recs {
		s := e.b[recs[i].start:recs[i].end]
		if !validFullName(s) {
			return e.wkErr(recs[i].start, "google.protobuf.FieldMask.paths contains invalid path: %q", s)
		}
		if !camelReversible(s) {
			return e.wkErr(recs[i].start, "google.protobuf.FieldMask.paths contains irreversible value %q", s)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = appendCamel(out, s)
	}
	e.set(append(out, '"'))
	return nil
}

// validFullName reports whether s is dot-separated identifiers, as
// protoreflect.FullName.IsValid.
func validFullName(s []byte) bool {
	ident := 0 // length of the current identifier
	for _, c := range s {
		switch {
		case c == '.':
			if ident == 0 {
				return false
			}
			ident = 0
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			ident++
		case '0' <= c && c <= '9':
			if ident == 0 {
				return false
			}
			ident++
		default:
			return false
		}
	}
	return ident > 0
}

// camelReversible reports whether snake(camel(s)) == s: s has no upper
// case letter and every underscore is followed by a lower case letter.
func camelReversible(s []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			return false
		}
		if c == '_' && (i+1 == len(s) || s[i+1] < 'a' || s[i+1] > 'z') {
			return false
		}
	}
	return true
}

// appendCamel appends s in lowerCamel: underscores dropped, the letter
// after each capitalised.
func appendCamel(out, s []byte) []byte {
	under := false
	for _, c := range s {
		if c == '_' {
			under = true
			continue
		}
		if under && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		out = append(out, c)
		under = false
	}
	return out
}
