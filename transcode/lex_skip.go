package transcode

import "github.com/rpckit/rpckit/internal/jsonx"

// skipValue checks and skips one JSON value: unknown fields under
// DiscardUnknown, and the keys of an Any read ahead. open is the number
// of arrays and objects around it already being skipped; like protojson,
// skipping counts against the nesting limit.
func (d *decoder) skipValue(open int) error {
	switch c := d.skipWS(); c {
	case '"':
		_, err := d.scanString()
		return err
	case '{', '[':
		if open+1 > d.depth {
			return d.errAt(d.pos, "exceeded maximum nesting depth")
		}
		d.pos++
		if c == '{' {
			return d.skipObject(open + 1)
		}
		return d.skipArray(open + 1)
	case 't':
		if d.literal("true") {
			return nil
		}
	case 'f':
		if d.literal("false") {
			return nil
		}
	case 'n':
		if d.literal("null") {
			return nil
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, ok := jsonx.ScanNumber(d.in[d.pos:]); ok {
			d.pos += n
			return nil
		}
	case '}', ']', ',', ':', 0:
		return d.errUnexpected(d.pos)
	}
	return d.errSyntax(d.pos)
}

// skipObject skips the members of an object and its closing brace.
func (d *decoder) skipObject(open int) error {
	c := d.skipWS()
	if c == '}' {
		d.pos++
		return nil
	}
	for {
		if c != '"' {
			return d.errUnexpected(d.pos)
		}
		if _, err := d.scanString(); err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		if err := d.skipValue(open); err != nil {
			return err
		}
		switch c = d.skipWS(); c {
		case ',':
			d.pos++
			c = d.skipWS()
		case '}':
			d.pos++
			return nil
		default:
			return d.errUnexpected(d.pos)
		}
	}
}

// skipArray skips the elements of an array and its closing bracket.
func (d *decoder) skipArray(open int) error {
	if d.skipWS() == ']' {
		d.pos++
		return nil
	}
	for {
		if err := d.skipValue(open); err != nil {
			return err
		}
		switch d.skipWS() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return nil
		default:
			return d.errUnexpected(d.pos)
		}
	}
}
