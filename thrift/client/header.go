package client

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/rpckit/rpckit/thrift/wire"
)

// THeader, as in Apache Thrift's doc/specs/HeaderFormatSpec.md: after the
// frame length, magic 0x0FFF, 16 bits of flags, the sequence id, the
// header's size in 4-byte words, then the header (protocol id, transform
// ids, info headers, zero padding) and the payload, one message.
const (
	headerMagic     = 0x0FFF
	headerFixed     = 10 // magic, flags, seqid, header size: after the length word
	infoKeyValue    = 1
	headerBinaryID  = 0
	headerCompactID = 2
	maxHeaderWords  = 0xffff
)

// ctxHeader is one info header carried by a context, in a list.
type ctxHeader struct {
	parent     *ctxHeader
	key, value string
}

type headerKey struct{}

// WithHeader returns a context whose calls on the Header transport carry
// the info header key=value (a request id, say) after Options.Headers.
// Other transports ignore it.
func WithHeader(ctx context.Context, key, value string) context.Context {
	parent, _ := ctx.Value(headerKey{}).(*ctxHeader)
	return context.WithValue(ctx, headerKey{}, &ctxHeader{parent, key, value})
}

func protocolID(p wire.Protocol) uint64 {
	if p == wire.Compact {
		return headerCompactID
	}
	return headerBinaryID
}

// appendTHeader appends the fixed part and the header of a THeader frame
// whose length word is at dst[:4]; the payload follows it.
func appendTHeader(dst []byte, opts *Options, seq int32, hs *ctxHeader) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, headerMagic)
	dst = binary.BigEndian.AppendUint16(dst, 0)
	dst = binary.BigEndian.AppendUint32(dst, uint32(seq))
	sizeAt := len(dst)
	dst = append(dst, 0, 0)
	start := len(dst)
	dst = binary.AppendUvarint(dst, protocolID(opts.Protocol))
	dst = append(dst, 0) // no transforms
	dst = appendInfo(dst, opts.Headers, hs)
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	words := (len(dst) - start) / 4
	if words > maxHeaderWords {
		return dst, errors.New("info headers larger than THeader's 256 KiB")
	}
	binary.BigEndian.PutUint16(dst[sizeAt:], uint16(words))
	return dst, nil
}

// appendInfo appends one key/value info block holding the static headers
// and the context's, if there are any.
func appendInfo(dst []byte, static map[string]string, hs *ctxHeader) []byte {
	n := len(static)
	for h := hs; h != nil; h = h.parent {
		n++
	}
	if n == 0 {
		return dst
	}
	dst = append(dst, infoKeyValue)
	dst = binary.AppendUvarint(dst, uint64(n))
	for k, v := range static {
		dst = appendKV(dst, k, v)
	}
	for h := hs; h != nil; h = h.parent {
		dst = appendKV(dst, h.key, h.value)
	}
	return dst
}

func appendKV(dst []byte, k, v string) []byte {
	dst = append(binary.AppendUvarint(dst, uint64(len(k))), k...)
	return append(binary.AppendUvarint(dst, uint64(len(v))), v...)
}

// parseTHeader checks a THeader frame (without its length word) and
// returns the offset of its payload.
func parseTHeader(b []byte, p wire.Protocol) (int, error) {
	if len(b) < headerFixed || binary.BigEndian.Uint16(b) != headerMagic {
		return 0, errors.New("reply is not a THeader frame")
	}
	end := headerFixed + 4*int(binary.BigEndian.Uint16(b[8:]))
	if end > len(b) {
		return 0, errors.New("THeader reply's header runs past its frame")
	}
	h := b[headerFixed:end]
	id, n := binary.Uvarint(h)
	if n <= 0 {
		return 0, errors.New("THeader reply: bad protocol id")
	}
	if id != protocolID(p) {
		return 0, fmt.Errorf("THeader reply in protocol %d, not the %s protocol's %d", id, p, protocolID(p))
	}
	transforms, k := binary.Uvarint(h[n:])
	if k <= 0 || transforms != 0 {
		return 0, errors.New("THeader reply uses transforms (zlib), which are not supported")
	}
	return end, nil
}
