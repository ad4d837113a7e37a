package transcode

import "github.com/rpckit/rpckit/thrift/wire"

// DefaultMaxDepth is the nesting limit of both directions when the
// options leave it zero: structs and containers that may enclose one
// another, as deep as the wire package lets Thrift bytes nest.
const DefaultMaxDepth = wire.DefaultMaxDepth

// MarshalOptions configure Thrift-to-JSON conversion. The zero value reads
// the binary protocol and writes field names, i64 values and enums as
// numbers, and skips fields the IDL does not have.
type MarshalOptions struct {
	// Protocol is the protocol of the input bytes.
	Protocol wire.Protocol
	// UseIDs writes field ids ("1") rather than names as keys.
	UseIDs bool
	// I64Strings writes every i64 as a JSON string ("12"), as the fields
	// annotated api.js_conv always are.
	I64Strings bool
	// EnumNames writes enum values by name where the enum has one.
	EnumNames bool
	// RejectUnknown fails on a field id the IDL does not have, or one whose
	// wire type differs from the IDL's, instead of skipping it.
	RejectUnknown bool
	// MaxDepth limits nesting; zero means DefaultMaxDepth.
	MaxDepth int
}

// UnmarshalOptions configure JSON-to-Thrift conversion. The zero value
// writes the binary protocol and fails on JSON keys the struct lacks.
type UnmarshalOptions struct {
	// Protocol is the protocol of the output bytes.
	Protocol wire.Protocol
	// DiscardUnknown skips JSON keys that name no field of their struct.
	DiscardUnknown bool
	// MaxDepth limits nesting; zero means DefaultMaxDepth.
	MaxDepth int
}

func maxDepth(n int) int {
	if n <= 0 {
		return DefaultMaxDepth
	}
	return n
}
