package schema

import (
	"context"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// FromFiles returns a Source over a fixed set of files, such as those
// compiled from .proto sources or read from a protoset.
func FromFiles(files *protoregistry.Files) Source {
	return filesSource{files}
}

type filesSource struct{ files *protoregistry.Files }

func (s filesSource) Services(context.Context) ([]protoreflect.FullName, error) {
	var names []protoreflect.FullName
	s.files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for i := range fd.Services().Len() {
			names = append(names, fd.Services().Get(i).FullName())
		}
		return true
	})
	slices.Sort(names)
	return slices.Compact(names), nil
}

func (s filesSource) FindSymbol(_ context.Context, name protoreflect.FullName) (protoreflect.Descriptor, error) {
	return findInFiles(s.files, name)
}

func (s filesSource) Files(context.Context) (*protoregistry.Files, error) {
	return s.files, nil
}

// findInFiles looks name up in files; it also resolves methods (which
// protoregistry does not index) as Service.Method.
func findInFiles(files *protoregistry.Files, name protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := files.FindDescriptorByName(name); err == nil {
		return d, nil
	}
	parent, err := files.FindDescriptorByName(name.Parent())
	if err == nil {
		if sd, ok := parent.(protoreflect.ServiceDescriptor); ok {
			if md := sd.Methods().ByName(name.Name()); md != nil {
				return md, nil
			}
		}
	}
	return nil, notFound(name)
}
