package thriftfixture

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Protocol returns the Apache library's protocol over buf for p.
func Protocol(p wire.Protocol, buf thrift.TTransport) thrift.TProtocol {
	conf := &thrift.TConfiguration{}
	if p == wire.Compact {
		return thrift.NewTCompactProtocolConf(buf, conf)
	}
	return thrift.NewTBinaryProtocolConf(buf, conf)
}

// Encode encodes s with the generated code and the Apache library, map
// entries sorted by their encoded keys.
func Encode(p wire.Protocol, s thrift.TStruct) ([]byte, error) {
	buf := thrift.NewTMemoryBufferLen(4096)
	prot := Protocol(p, buf)
	ctx := context.Background()
	if err := s.Write(ctx, prot); err != nil {
		return nil, err
	}
	if err := prot.Flush(ctx); err != nil {
		return nil, err
	}
	return Canonical(p, buf.Bytes())
}

// Decode decodes b into s with the generated code and reports whether it
// consumed all of b.
func Decode(p wire.Protocol, b []byte, s thrift.TStruct) error {
	buf := thrift.NewTMemoryBuffer()
	buf.Write(b)
	if err := s.Read(context.Background(), Protocol(p, buf)); err != nil {
		return err
	}
	if buf.Len() != 0 {
		return fmt.Errorf("thriftfixture: %d bytes left after the struct", buf.Len())
	}
	return nil
}

// Canonical returns the struct b with every map's entries sorted by their
// encoded keys, at any depth.
func Canonical(p wire.Protocol, b []byte) ([]byte, error) {
	c := canon{p: p, b: b}
	out, end, err := c.value(nil, 0, wire.Struct)
	if err == nil && end != len(b) {
		err = fmt.Errorf("thriftfixture: %d bytes after the struct", len(b)-end)
	}
	return out, err
}

type canon struct {
	p wire.Protocol
	b []byte
}

// value appends the canonical form of the value of type t at off.
func (c canon) value(dst []byte, off int, t wire.Type) ([]byte, int, error) {
	switch t {
	case wire.Struct:
		return c.structValue(dst, off)
	case wire.List, wire.Set:
		et, n, p, err := c.p.ConsumeListHeader(c.b, off)
		if err != nil {
			return nil, -1, err
		}
		dst = append(dst, c.b[off:p]...)
		for range n {
			if dst, p, err = c.value(dst, p, et); err != nil {
				return nil, -1, err
			}
		}
		return dst, p, nil
	case wire.Map:
		return c.mapValue(dst, off)
	}
	end, err := c.p.Skip(c.b, off, t)
	if err != nil {
		return nil, -1, err
	}
	return append(dst, c.b[off:end]...), end, nil
}

func (c canon) structValue(dst []byte, off int) ([]byte, int, error) {
	it := wire.NewIter(c.p, c.b, off)
	var err error
	for it.Next() {
		f := it.Field()
		dst = append(dst, c.b[f.Start:f.Value]...)
		if c.p == wire.Compact && f.Type == wire.Bool {
			continue
		}
		if dst, _, err = c.value(dst, f.Value, f.Type); err != nil {
			return nil, -1, err
		}
	}
	if it.Err() != nil {
		return nil, -1, it.Err()
	}
	return c.p.AppendStop(dst), it.Offset(), nil
}

func (c canon) mapValue(dst []byte, off int) ([]byte, int, error) {
	kt, vt, n, p, err := c.p.ConsumeMapHeader(c.b, off)
	if err != nil {
		return nil, -1, err
	}
	dst = append(dst, c.b[off:p]...)
	entries := make([][]byte, 0, n)
	for range n {
		var e []byte
		if e, p, err = c.value(nil, p, kt); err != nil {
			return nil, -1, err
		}
		if e, p, err = c.value(e, p, vt); err != nil {
			return nil, -1, err
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, bytes.Compare) // keys differ, so the order is the keys'
	for _, e := range entries {
		dst = append(dst, e...)
	}
	return dst, p, nil
}
