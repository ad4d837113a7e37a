// Package dynamic reads and edits Thrift structs in place, on their binary
// or compact protocol bytes, guided by an IDL that arrives at run time: the
// Thrift twin of rpckit's protobuf dynamic package, with the same shapes.
//
// A Type is compiled once from the thrift/idl model into flat tables
// (fields by id and by name, kinds, element, key and value Types,
// requiredness; annotations through the idl declarations) and cached in a
// Cache whose lifetime the caller controls. A Value is a Type over a byte
// slice, never copied. A Path, in the syntax of the protobuf side, names
// a field (by name or id), a list or set element or a map entry (by a key
// of any integer kind, bool or string); Value.Get follows it without
// decoding what it does not need and without allocating; RangeFields,
// RangeElems and RangeEntries walk a struct, a list or set, a map. Set,
// Delete, Keep
// (trim to a subset Type, such as Medium to MediumPart) and Mask (drop
// paths) splice the bytes with one output allocation; the Doc DOM loads a
// whole struct into a pooled node tree that points into the original
// bytes, for many edits at once, and allocates nothing when reused.
// Validate checks that bytes are a well-formed struct of a Type.
//
// Malformed input yields an *Error that names the offset, the path and a
// wire.Code; nothing panics and nothing reads past the slice.
//
// Package dynamic imports the standard library and rpckit's thrift/idl,
// thrift/wire and internal leaf packages: no net, no os, no package state.
package dynamic
