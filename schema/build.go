package schema

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// builder turns FileDescriptorProtos into linked files registered in reg,
// dependencies first. Files it lacks come from fetch, then from the bundled
// files.
type builder struct {
	reg   *protoregistry.Files
	raw   map[string]*descriptorpb.FileDescriptorProto
	fetch func(name string) error // adds the named file (and maybe more) to raw
}

func newBuilder(reg *protoregistry.Files) *builder {
	return &builder{reg: reg, raw: map[string]*descriptorpb.FileDescriptorProto{}}
}

func (b *builder) add(fdps ...*descriptorpb.FileDescriptorProto) {
	for _, fdp := range fdps {
		if _, ok := b.raw[fdp.GetName()]; !ok {
			b.raw[fdp.GetName()] = fdp
		}
	}
}

// build links the named file and everything it imports.
func (b *builder) build(name string) (protoreflect.FileDescriptor, error) {
	return b.buildPath(name, nil)
}

func (b *builder) buildPath(name string, chain []string) (protoreflect.FileDescriptor, error) {
	if fd, err := b.reg.FindFileByPath(name); err == nil {
		return fd, nil
	}
	for _, c := range chain {
		if c == name {
			return nil, fmt.Errorf("schema: import cycle through %q", name)
		}
	}
	fdp, err := b.source(name)
	if err != nil {
		return nil, err
	}
	if fdp == nil {
		return BundledFile(name)
	}
	for _, dep := range fdp.GetDependency() {
		if _, err := b.buildPath(dep, append(chain, name)); err != nil {
			return nil, fmt.Errorf("schema: %s: import %q: %w", name, dep, err)
		}
	}
	fd, err := protodesc.NewFile(fdp, b.resolver())
	if err != nil {
		return nil, fmt.Errorf("schema: %s: %w", name, err)
	}
	if err := b.reg.RegisterFile(fd); err != nil {
		return nil, fmt.Errorf("schema: %s: %w", name, err)
	}
	return fd, nil
}

// source finds the proto of a file not yet built; nil means use the
// bundled copy.
func (b *builder) source(name string) (*descriptorpb.FileDescriptorProto, error) {
	if fdp, ok := b.raw[name]; ok {
		return fdp, nil
	}
	if b.fetch != nil {
		err := b.fetch(name)
		if fdp, ok := b.raw[name]; ok {
			return fdp, nil
		}
		if _, berr := BundledFile(name); berr == nil {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := BundledFile(name); err == nil {
		return nil, nil
	}
	return nil, fmt.Errorf("file %q: %w", name, ErrNotFound)
}

// resolver finds imports in the registry being built, then among the
// bundled files.
func (b *builder) resolver() protodesc.Resolver {
	return chainResolver{b.reg}
}

type chainResolver struct{ reg *protoregistry.Files }

func (r chainResolver) FindFileByPath(path string) (protoreflect.FileDescriptor, error) {
	if fd, err := r.reg.FindFileByPath(path); err == nil {
		return fd, nil
	}
	return BundledFile(path)
}

func (r chainResolver) FindDescriptorByName(name protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := r.reg.FindDescriptorByName(name); err == nil {
		return d, nil
	}
	return protoregistry.GlobalFiles.FindDescriptorByName(name)
}
