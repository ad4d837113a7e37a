package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// readJSONMessage reads an input that is one JSON object of at most limit
// bytes.
func readJSONMessage(r io.Reader, limit int) (json.RawMessage, error) {
	m := newMessageReader(r)
	m.limit, m.what = limit, "message"
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
// arrive, to stop at the first one that cannot be right: field number 0,
// a wire type that does not exist, a varint too long, a length past the
// limit. What is inside the fields is checked once all is read.
type protoScan struct {
	limit int
	pos   int // where the next field starts
}

// check looks at the fields that have arrived since the last call.
func (s *protoScan) check(b []byte) error {
	for s.pos < len(b) {
		num, typ, n := protowire.ConsumeTag(b[s.pos:])
		if n < 0 {
			return s.tagError(b, n)
		}
		size, err := s.valueSize(b[s.pos+n:], typ)
		if err != nil {
			return fmt.Errorf("byte %d: field %d %w", s.pos, num, err)
		}
		if size < 0 {
			return nil // the rest has not arrived
		}
		s.pos += n + size
	}
	return nil
}

func (s *protoScan) tagError(b []byte, n int) error {
	v, vn := protowire.ConsumeVarint(b[s.pos:])
	switch {
	case vn < 0 && protowire.ParseError(vn) == io.ErrUnexpectedEOF:
		return nil // the tag has not all arrived
	case vn < 0:
		return fmt.Errorf("byte %d: a tag longer than 10 bytes", s.pos)
	case v>>3 == 0:
		return fmt.Errorf("byte %d: field number 0", s.pos)
	}
	return fmt.Errorf("byte %d: %w", s.pos, protowire.ParseError(n))
}

// valueSize is the size of a field's value at the start of b, or -1 when
// more must arrive to tell.
func (s *protoScan) valueSize(b []byte, typ protowire.Type) (int, error) {
	switch typ {
	case protowire.VarintType:
		return consumed(protowire.ConsumeVarint(b))
	case protowire.Fixed32Type:
		return 4, nil
	case protowire.Fixed64Type:
		return 8, nil
	case protowire.StartGroupType, protowire.EndGroupType:
		return 0, nil // a group's fields are scanned as they come
	case protowire.BytesType:
		return s.bytesSize(b)
	}
	return 0, fmt.Errorf("has wire type %d, which does not exist", typ)
}

func (s *protoScan) bytesSize(b []byte) (int, error) {
	length, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return consumed(length, n)
	}
	if length > uint64(s.limit) {
		return 0, fmt.Errorf("is %d bytes long, past the %s limit (--max-msg-size)", length, formatSize(s.limit))
	}
	return n + int(length), nil
}

// consumed turns protowire's result for a varint into its size: -1 when
// it has not all arrived, an error when it is too long.
func consumed(_ uint64, n int) (int, error) {
	switch {
	case n >= 0:
		return n, nil
	case protowire.ParseError(n) == io.ErrUnexpectedEOF:
		return -1, nil
	}
	return 0, errors.New("has a varint longer than 10 bytes")
}
