package transcode

import (
	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
)

// list parses a JSON array of the repeated field f. Packed fields are
// written as one packed record (none when empty), the rest as one record
// per element.
func (d *decoder) list(f *dynamic.Field) error {
	if d.skipWS() != '[' {
		return d.errUnexpected(d.pos)
	}
	d.pos++
	mark, start := len(d.out), 0
	if f.Packed {
		d.tag(f.Num, protowire.BytesType)
		start = d.openLen()
	}
	if d.skipWS() != ']' {
		for i := 0; ; i++ {
			if err := d.element(f); err != nil {
				return d.inIndex(err, i)
			}
			c := d.skipWS()
			if c == ',' {
				d.pos++
				continue
			}
			if c != ']' {
				return d.errUnexpected(d.pos)
			}
			break
		}
	}
	d.pos++
	if f.Packed {
		if len(d.out) == start {
			d.out = d.out[:mark]
		} else {
			d.closeLen(start)
		}
	}
	return nil
}

// element parses one element of the repeated field f.
func (d *decoder) element(f *dynamic.Field) error {
	if f.Message != nil {
		return d.messageField(f)
	}
	if f.Packed {
		_, err := d.scalar(f)
		return err
	}
	mark := len(d.out)
	d.tag(f.Num, f.WireType)
	ok, err := d.scalar(f)
	if !ok {
		d.out = d.out[:mark]
	}
	return err
}
