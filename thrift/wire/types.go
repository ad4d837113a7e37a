package wire

import "strconv"

// Protocol is a Thrift wire protocol. The zero value is [Binary].
type Protocol uint8

// The protocols.
const (
	Binary  Protocol = iota // TBinaryProtocol: fixed-width big-endian values
	Compact                 // TCompactProtocol: zigzag varints, delta field ids
)

func (p Protocol) String() string {
	switch p {
	case Binary:
		return "binary"
	case Compact:
		return "compact"
	}
	return "protocol(" + strconv.Itoa(int(p)) + ")"
}

// ProtocolNamed is the protocol String names; "" is Binary, the default.
func ProtocolNamed(name string) (Protocol, bool) {
	switch name {
	case "", "binary":
		return Binary, true
	case "compact":
		return Compact, true
	}
	return 0, false
}

// Type is a Thrift wire type (TType), the same in both protocols; the
// compact protocol's own type codes are translated at its edge.
type Type uint8

// The wire types. String is also binary.
const (
	Stop   Type = 0
	Bool   Type = 2
	Byte   Type = 3 // i8
	Double Type = 4
	I16    Type = 6
	I32    Type = 8
	I64    Type = 10
	String Type = 11 // string and binary
	Struct Type = 12 // struct, union, exception
	Map    Type = 13
	Set    Type = 14
	List   Type = 15
	UUID   Type = 16
)

var typeNames = [...]string{
	Stop: "stop", Bool: "bool", Byte: "byte", Double: "double", I16: "i16", I32: "i32", I64: "i64",
	String: "string", Struct: "struct", Map: "map", Set: "set", List: "list", UUID: "uuid",
}

func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// Valid reports whether t is a value type (any type above but Stop).
func (t Type) Valid() bool { return t != Stop && int(t) < len(typeNames) && typeNames[t] != "" }

// MessageType is the kind of a message.
type MessageType uint8

// The message types.
const (
	Call      MessageType = 1
	Reply     MessageType = 2
	Exception MessageType = 3
	Oneway    MessageType = 4
)

func (m MessageType) valid() bool { return m >= Call && m <= Oneway }

// binarySize is the encoded size of the fixed-size types in the binary
// protocol, 0 for the others.
var binarySize = [...]uint8{Bool: 1, Byte: 1, Double: 8, I16: 2, I32: 4, I64: 8, UUID: 16}

// minSize is the smallest encoding of a value of type t, which bounds the
// element count a length can claim: the rest of the input over minSize.
func (p Protocol) minSize(t Type) int {
	switch t {
	case Double:
		return 8
	case UUID:
		return 16
	}
	if p == Compact {
		return 1
	}
	switch t {
	case I16:
		return 2
	case I32, String:
		return 4
	case I64:
		return 8
	case List, Set:
		return 5
	case Map:
		return 6
	}
	return 1
}
