// Package dynamic reads and edits protobuf messages in place, on their wire
// bytes, guided by a schema that arrives at run time.
//
// A [Type] is compiled once from a protoreflect.MessageDescriptor into flat
// tables (fields by number, proto name and JSON name, kinds, cardinality,
// packedness, oneofs, map key and value fields, sub-Types) and cached in a
// [Cache]. A [Value] is a Type over a byte slice, never copied. A [Path]
// names a field, a list element or a map entry; [Value.Get] follows it
// without decoding what it does not need and without allocating in the
// common case. [Set], [Delete], [Mask] and [Keep] rewrite the bytes with one
// output allocation, fixing length prefixes on the way; the [Doc] DOM loads
// a whole message into a pooled node tree that points into the original
// bytes, for many edits at once. [Validate] checks that bytes are
// well-formed for a Type.
//
// The semantics are protobuf's, exactly as protobuf-go decodes: the last
// occurrence of a scalar wins, repeated fields may be packed or not, a
// sub-message split across several records is their merge, a later member
// of a oneof clears the earlier ones, and unknown fields are kept.
// Extensions, which a descriptor alone does not know, are unknown fields.
//
// Malformed input yields an [*Error] that names the offset, the field path
// and a [wire.Code]; nothing panics and nothing reads past the slice.
//
// Package dynamic imports the standard library, google.golang.org/protobuf
// and rpckit's wire, internal/utf8x and internal/errtext packages: no grpc, no net, no os.Exit, no package state
// but the concurrency-safe default Type cache.
package dynamic
