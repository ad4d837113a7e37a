package schema

import (
	"fmt"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// ReadProtosets loads FileDescriptorSets (protoc --descriptor_set_out, or
// buf build --as-file-descriptor-set) and returns a Source over their files.
// Imports missing from the sets resolve to the bundled files.
func ReadProtosets(paths ...string) (Source, error) {
	reg := new(protoregistry.Files)
	for _, path := range paths {
		if err := readProtoset(reg, path); err != nil {
			return nil, err
		}
	}
	return FromFiles(reg), nil
}

func readProtoset(reg *protoregistry.Files, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("schema: protoset: %w", err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		return fmt.Errorf("schema: protoset %s: not a FileDescriptorSet: %w", path, err)
	}
	b := newBuilder(reg)
	b.add(set.File...)
	for _, fdp := range set.File {
		if _, err := b.build(fdp.GetName()); err != nil {
			return fmt.Errorf("schema: protoset %s: %w", path, err)
		}
	}
	return nil
}

// Protoset returns a FileDescriptorSet of the files and everything they
// import, each file after its imports.
func Protoset(files ...protoreflect.FileDescriptor) *descriptorpb.FileDescriptorSet {
	set := new(descriptorpb.FileDescriptorSet)
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := range fd.Imports().Len() {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range files {
		add(fd)
	}
	return set
}
