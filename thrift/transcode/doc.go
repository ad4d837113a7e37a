// Package transcode converts between Thrift structs, in the binary or
// compact protocol, and JSON in a single pass, over the compiled Types of
// thrift/dynamic: the Thrift twin of rpckit's protobuf transcode package,
// with the same shapes (MarshalOptions, UnmarshalOptions, Marshal,
// Unmarshal, MarshalAppend, UnmarshalAppend, a Decoder, a typed *Error
// with a path).
//
// Marshal reads the Thrift bytes once and writes JSON as it goes;
// Unmarshal reads the JSON text once and writes Thrift bytes as it goes,
// rewriting a container's header with its count when the container ends.
// Neither builds a map, a DOM or a generated struct on the way. The result
// is appended to a caller's buffer, or to one allocation sized from what
// the Type's earlier results needed. A Decoder converts a stream of JSON
// objects one at a time; MarshalValue converts a value found inside a
// struct (a list, a map, a nested struct).
//
// The mapping, beside Apache Thrift's TSimpleJSONProtocol (lib/go, as
// v0.25.0 writes it) and CloudWeGo dynamicgo's conv/t2j and conv/j2t (by
// their conv.Options):
//
//	                     this package                 TSimpleJSONProtocol          dynamicgo
//	keys                 IDL field names; ids with    field names                  field names
//	                     UseIDs; either on input
//	i64                  number; string with          number                       number; string with
//	                     I64Strings or api.js_conv;                                api.js_conv (EnableValueMapping);
//	                     both accepted on input                                    String2Int64 reads strings
//	binary               base64 std, padded; std or   base64 std, padded           base64 (NoBase64Binary: raw)
//	                     URL, padded or not, on input
//	enum                 number; name with EnumNames; number                       number
//	                     both accepted on input
//	double NaN, ±Inf     "NaN", "Infinity",           "NaN", "Infinity",           -
//	                     "-Infinity" (as proto3 JSON) "-Infinity"
//	list, set            array                        [elemType, size, elems...]   array
//	map, scalar keys     object, keys as strings      [kType, vType, size,         object, keys as strings
//	                                                  k, v, ...]
//	map, struct or       [{"key":K,"value":V}, ...]   as above                     -
//	container keys
//	union                object with one member;      object                       object
//	                     zero or two: error
//	required fields      checked both ways; the       not checked                  WriteRequireField writes
//	                     error names the field path                                zero values for missing ones
//	unknown JSON keys    error; skipped with          (write-only: does not        skipped; error with
//	                     DiscardUnknown               read structs back)           DisallowUnknownField
//	unknown Thrift ids   skipped; error with          -                            skipped
//	                     RejectUnknown
//	defaults             not filled in either way     -                            WriteDefaultField fills them
//	JSON null            the field is absent          -                            -
//
// Strings must be UTF-8 (Thrift bytes holding anything else fail to
// convert), and a field may appear once in either input (Apache's
// generated code keeps the last of a field read twice; JSON with a key
// twice has no agreed meaning). A field whose wire type differs from the IDL's is skipped as
// the Apache generated code skips it (or fails with RejectUnknown). Nesting
// is limited (MaxDepth, 64 by default) in both directions, and every
// length in the Thrift input is checked against what remains of it.
//
// Package transcode imports the standard library, rpckit's thrift/idl,
// thrift/wire and thrift/dynamic and the internal leaves (internal/jsonx,
// internal/utf8x): no net, no os, no package state but the plans it
// attaches to the Types it is given.
package transcode
