package cli

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// readJSONMessage reads an input that is one JSON object of at most limit
// bytes, converted by convert; its errors are the input's.
func readJSONMessage(r io.Reader, limit int, convert func([]byte) ([]byte, error)) ([]byte, error) {
	m := newMessageReader(r)
	m.limit, m.what, m.subject, m.convert = limit, "message", "input", convert
	js, err := m.next()
	if err == io.EOF {
		return nil, errors.New("the input is empty; want a JSON object")
	}
	if err != nil {
		return nil, err
	}
	if _, err := m.next(); err != io.EOF {
		return nil, errors.New("the input has more after its first JSON object; convert reads one message")
	}
	return js, nil
}

// protoScan follows the top-level fields of protobuf wire bytes as they
// pass by, to stop at the first one that cannot be right: field number 0,
// a wire type that does not exist, a varint too long, a length past the
// limit. What is inside the fields is checked once all is read.
type protoScan struct {
	limit int
	off   int64 // the stream offset of the next byte
	skip  int64 // what is left of the current field's value
	hdr   [maxFieldHeader]byte
	hn    int // bytes of a field header begun at the end of the last piece
}

// maxFieldHeader is the longest tag and varint or length together.
const maxFieldHeader = 2 * binary.MaxVarintLen64

// feed looks at the next piece of the input.
func (s *protoScan) feed(p []byte) error {
	for len(p) > 0 {
		switch {
		case s.skip > 0:
			k := int(min(s.skip, int64(len(p))))
			s.skip -= int64(k)
			p, s.off = p[k:], s.off+int64(k)
		case s.hn > 0 || len(p) < maxFieldHeader:
			// A header that may end in a later piece: collected byte by byte.
			s.hdr[s.hn] = p[0]
			s.hn++
			p, s.off = p[1:], s.off+1
			n, skip, err := s.field(s.hdr[:s.hn], s.off-int64(s.hn))
			if err != nil {
				return err
			}
			if n >= 0 {
				s.hn, s.skip = 0, skip
			}
		default:
			n, skip, err := s.field(p, s.off)
			if err != nil {
				return err
			}
			p, s.off, s.skip = p[n:], s.off+int64(n), skip
		}
	}
	return nil
}

// field reads the header of the field at the start of h, which starts at
// stream offset at: its length and the length of the value after it, or
// -1 when h ends before the header does.
func (s *protoScan) field(h []byte, at int64) (n int, skip int64, err error) {
	num, typ, tn := protowire.ConsumeTag(h)
	if tn < 0 {
		return s.tagError(h, at, tn)
	}
	n, skip, err = s.value(h[tn:], typ)
	if err != nil {
		return 0, 0, fmt.Errorf("byte %d: field %d %w", at, num, err)
	}
	if n < 0 {
		return -1, 0, nil
	}
	return tn + n, skip, nil
}

func (s *protoScan) tagError(h []byte, at int64, tn int) (int, int64, error) {
	v, vn := protowire.ConsumeVarint(h)
	switch {
	case vn < 0 && protowire.ParseError(vn) == io.ErrUnexpectedEOF:
		return -1, 0, nil // the tag has not all arrived
	case vn < 0:
		return 0, 0, fmt.Errorf("byte %d: a tag longer than 10 bytes", at)
	case v>>3 == 0:
		return 0, 0, fmt.Errorf("byte %d: field number 0", at)
	}
	return 0, 0, fmt.Errorf("byte %d: %w", at, protowire.ParseError(tn))
}

// value reads what comes after a tag of type typ at the start of h: the
// length of a varint or of a length prefix, and the bytes that follow.
func (s *protoScan) value(h []byte, typ protowire.Type) (int, int64, error) {
	switch typ {
	case protowire.VarintType:
		n, err := varintSize(h)
		return n, 0, err
	case protowire.Fixed32Type:
		return 0, 4, nil
	case protowire.Fixed64Type:
		return 0, 8, nil
	case protowire.StartGroupType, protowire.EndGroupType:
		return 0, 0, nil // a group's fields are followed as they come
	case protowire.BytesType:
		length, n := protowire.ConsumeVarint(h)
		if n < 0 {
			n, err := varintSize(h)
			return n, 0, err
		}
		if length > uint64(s.limit) {
			return 0, 0, fmt.Errorf("is %d bytes long, past the %s limit (--max-msg-size)", length, formatSize(s.limit))
		}
		return n, int64(length), nil
	}
	return 0, 0, fmt.Errorf("has wire type %d, which does not exist", typ)
}

// varintSize is the length of the varint at the start of h: -1 when it
// has not all arrived, an error when it is too long.
func varintSize(h []byte) (int, error) {
	_, n := protowire.ConsumeVarint(h)
	switch {
	case n >= 0:
		return n, nil
	case protowire.ParseError(n) == io.ErrUnexpectedEOF:
		return -1, nil
	}
	return 0, errors.New("has a varint longer than 10 bytes")
}
