// Package wire scans and splices protobuf wire-format bytes without a
// descriptor.
//
// It offers a zero-allocation field iterator ([Iter]) that reports each
// record's number, wire type and byte spans, skipping of any field or group
// ([ParseField]), decoding of packed runs ([NextPacked]) and
// splicing ([Splice]): replacing, inserting or deleting a span and fixing
// the length prefixes of the fields that enclose it. Malformed input yields
// an [*Error] naming the offset and a [Code]; nothing panics and nothing reads
// past the slice.
//
// Package wire builds on google.golang.org/protobuf/encoding/protowire and
// imports nothing else outside the standard library: no grpc, no net, no
// os.Exit, no package state.
package wire
