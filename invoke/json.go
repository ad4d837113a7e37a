package invoke

import "google.golang.org/protobuf/reflect/protoreflect"

// JSONCodec converts messages between canonical proto3 JSON and the
// protobuf wire format. It is the one seam through which every rpckit tool
// turns JSON into requests and responses into JSON.
type JSONCodec interface {
	// Encode appends to dst the wire form of the JSON object in src, a
	// message of type md.
	Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error)
	// Decode appends to dst the JSON form of the wire message in src.
	Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error)
}
