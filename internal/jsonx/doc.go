// Package jsonx holds the JSON text primitives that rpckit's protobuf and
// Thrift transcoders share: integers and floats printed as protojson
// prints them (AppendInt, AppendUint, AppendFloat: shortest round-trip
// digits, NaN and the infinities as strings) and parsed back (ParseInt,
// ParseFloat, ScanNumber), base64 of the JSON kind (AppendBase64 writes the
// standard alphabet with padding; DecodeBase64 reads either alphabet,
// padded or not, through encoding/base64's encodings), and strings quoted
// with their escapes (AppendString, checking UTF-8 with internal/utf8x) and
// unescaped (AppendUnescaped, Hex4). Both decoders lex with ScanString,
// which scans a string in place and says what is wrong with it (a Fault,
// which each decoder words as its errors do), SkipSpace and Literal.
// Nothing here allocates beyond the slices it appends to.
//
// Package jsonx is a leaf: the standard library and internal/utf8x only.
package jsonx
