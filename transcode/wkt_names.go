package transcode

import "google.golang.org/protobuf/reflect/protoreflect"

// wellKnown names the well-known types whose JSON form is special. The
// encoder and the decoder share it.
type wellKnown uint8

const (
	wktNone wellKnown = iota
	wktAny
	wktTimestamp
	wktDuration
	wktFieldMask
	wktStruct
	wktValue
	wktListValue
	wktEmpty // plain message, {} either way; named for the decoder's checks
	wktBoolValue
	wktInt32Value
	wktInt64Value
	wktUInt32Value
	wktUInt64Value
	wktFloatValue
	wktDoubleValue
	wktStringValue
	wktBytesValue
)

// nullValueName is the enum whose values are JSON null.
const nullValueName protoreflect.FullName = "google.protobuf.NullValue"

// wellKnownOf returns the well-known type named name, or wktNone.
func wellKnownOf(name protoreflect.FullName) wellKnown {
	if name.Parent() != "google.protobuf" {
		return wktNone
	}
	switch name.Name() {
	case "Any":
		return wktAny
	case "Timestamp":
		return wktTimestamp
	case "Duration":
		return wktDuration
	case "FieldMask":
		return wktFieldMask
	case "Struct":
		return wktStruct
	case "Value":
		return wktValue
	case "ListValue":
		return wktListValue
	case "Empty":
		return wktEmpty
	}
	return wrapperOf(name.Name())
}

func wrapperOf(name protoreflect.Name) wellKnown {
	switch name {
	case "BoolValue":
		return wktBoolValue
	case "Int32Value":
		return wktInt32Value
	case "Int64Value":
		return wktInt64Value
	case "UInt32Value":
		return wktUInt32Value
	case "UInt64Value":
		return wktUInt64Value
	case "FloatValue":
		return wktFloatValue
	case "DoubleValue":
		return wktDoubleValue
	case "StringValue":
		return wktStringValue
	case "BytesValue":
		return wktBytesValue
	}
	return wktNone
}

// special reports whether k has a JSON form of its own (Empty has not).
func (k wellKnown) special() bool { return k != wktNone && k != wktEmpty }
