package client

import (
	"encoding/binary"

	"github.com/rpckit/rpckit/thrift/wire"
)

// appendMessage appends a whole request message (header and args struct)
// in opts' protocol; a multiplexed service name prefixes the method name
// without building the joined string.
func appendMessage(dst []byte, opts *Options, method string, t wire.MessageType, seq int32, args []byte) []byte {
	n := len(method)
	if opts.Multiplexed != "" {
		n += len(opts.Multiplexed) + 1
	}
	switch {
	case opts.Protocol == wire.Compact:
		dst = append(dst, 0x82, byte(t)<<5|1)
		dst = binary.AppendUvarint(dst, uint64(uint32(seq)))
		dst = binary.AppendUvarint(dst, uint64(n))
		dst = appendName(dst, opts.Multiplexed, method)
	case opts.NonStrict:
		dst = binary.BigEndian.AppendUint32(dst, uint32(n))
		dst = append(appendName(dst, opts.Multiplexed, method), byte(t))
		dst = binary.BigEndian.AppendUint32(dst, uint32(seq))
	default:
		dst = binary.BigEndian.AppendUint32(dst, 0x80010000|uint32(t))
		dst = binary.BigEndian.AppendUint32(dst, uint32(n))
		dst = appendName(dst, opts.Multiplexed, method)
		dst = binary.BigEndian.AppendUint32(dst, uint32(seq))
	}
	return append(dst, args...)
}

func appendName(dst []byte, service, method string) []byte {
	if service != "" {
		dst = append(append(dst, service...), ':')
	}
	return append(dst, method...)
}

// nameMatches reports whether a reply's method name is the call's, with
// or without the multiplexed service prefix.
func nameMatches(name []byte, service, method string) bool {
	if string(name) == method {
		return true
	}
	return service != "" && len(name) == len(service)+1+len(method) &&
		string(name[:len(service)]) == service && name[len(service)] == ':' &&
		string(name[len(service)+1:]) == method
}
