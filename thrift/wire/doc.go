// Package wire reads and writes Apache Thrift's binary and compact
// protocols over []byte, without an IDL: the Thrift twin of rpckit's
// protobuf wire package.
//
// A [Protocol] ([Binary] or [Compact]) is chosen once; its methods read
// values at an offset (ConsumeI32, ConsumeBinary, ConsumeListHeader, ...)
// and append them (AppendI32, AppendBinary, AppendListHeader, ...), read and
// write message headers (the binary protocol's strict and non-strict forms,
// the compact protocol's), skip any value of a wire [Type] ([Protocol.Skip],
// depth-limited), and iterate over a struct's fields ([Iter]), compact's
// delta-encoded field ids included. [Replace] and [ReplaceValue] splice new
// bytes in place of a field's value; [Protocol.DeleteField] removes a
// field, re-encoding the next compact field header's id delta.
//
// Every length and element count is checked against the bytes that remain
// before it is used, so a hostile length never leads a caller to allocate
// beyond the input's size. Malformed input yields an [*Error] naming the
// offset and a [Code]; nothing panics and nothing reads past the slice.
//
// Package wire imports only the standard library: no net, no os.Exit, no
// package state.
package wire
