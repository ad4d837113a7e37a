package schema

import (
	"errors"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// TypeResolver finds message and extension types, for google.protobuf.Any
// and extensions: first in the given files, then among the bundled types.
type TypeResolver struct {
	local *dynamicpb.Types
}

// Types returns a TypeResolver over files.
func Types(files *protoregistry.Files) *TypeResolver {
	return &TypeResolver{local: dynamicpb.NewTypes(files)}
}

func (r *TypeResolver) FindMessageByName(name protoreflect.FullName) (protoreflect.MessageType, error) {
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(name); err == nil {
		return mt, nil
	}
	return r.local.FindMessageByName(name)
}

func (r *TypeResolver) FindMessageByURL(url string) (protoreflect.MessageType, error) {
	if mt, err := protoregistry.GlobalTypes.FindMessageByURL(url); err == nil {
		return mt, nil
	}
	return r.local.FindMessageByURL(url)
}

func (r *TypeResolver) FindExtensionByName(field protoreflect.FullName) (protoreflect.ExtensionType, error) {
	xt, err := r.local.FindExtensionByName(field)
	if errors.Is(err, protoregistry.NotFound) {
		return protoregistry.GlobalTypes.FindExtensionByName(field)
	}
	return xt, err
}

func (r *TypeResolver) FindExtensionByNumber(message protoreflect.FullName, field protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	xt, err := r.local.FindExtensionByNumber(message, field)
	if errors.Is(err, protoregistry.NotFound) {
		return protoregistry.GlobalTypes.FindExtensionByNumber(message, field)
	}
	return xt, err
}
