package transcode

import (
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// MarshalOptions configure wire-to-JSON conversion. The zero value gives
// protojson's default output (compact).
type MarshalOptions struct {
	// EmitUnpopulated writes fields that are absent, with their default
	// values (protojson.MarshalOptions.EmitUnpopulated).
	EmitUnpopulated bool
	// UseProtoNames writes proto field names instead of JSON names.
	UseProtoNames bool
	// UseEnumNumbers writes enum values as numbers.
	UseEnumNumbers bool
	// Indent, when not empty, indents nested values by this string, one
	// field per line.
	Indent string
	// Resolver finds the types of google.protobuf.Any values and of
	// extensions; nil means protoregistry.GlobalTypes.
	Resolver Resolver
}

// UnmarshalOptions configure JSON-to-wire conversion. The zero value is
// protojson's default: unknown fields are errors.
type UnmarshalOptions struct {
	// DiscardUnknown skips JSON fields the message does not have, and enum
	// names the enum does not have.
	DiscardUnknown bool
	// AllowPartial accepts messages with proto2 required fields unset
	// (protojson.UnmarshalOptions.AllowPartial).
	AllowPartial bool
	// Resolver finds the types of google.protobuf.Any values and of
	// extensions; nil means protoregistry.GlobalTypes.
	Resolver Resolver
	// MaxDepth limits the nesting of messages and values; zero means 10000.
	MaxDepth int
}

// Resolver finds message types by name or type URL, and extensions.
// protoregistry.Types and schema.TypeResolver are Resolvers.
type Resolver interface {
	FindMessageByName(protoreflect.FullName) (protoreflect.MessageType, error)
	FindMessageByURL(url string) (protoreflect.MessageType, error)
	FindExtensionByName(protoreflect.FullName) (protoreflect.ExtensionType, error)
	FindExtensionByNumber(protoreflect.FullName, protoreflect.FieldNumber) (protoreflect.ExtensionType, error)
}

var _ Resolver = (*protoregistry.Types)(nil)
