package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// ErrNotFound is wrapped by every error that reports a symbol no Source knows.
var ErrNotFound = errors.New("not found")

// A Source yields descriptors. Implementations are safe for concurrent use.
type Source interface {
	// Services lists the fully-qualified names of the services the source
	// knows, sorted.
	Services(ctx context.Context) ([]protoreflect.FullName, error)
	// FindSymbol resolves the fully-qualified name of a service, method,
	// message, enum, enum value, field or extension. An unknown name gives an
	// error wrapping ErrNotFound.
	FindSymbol(ctx context.Context, name protoreflect.FullName) (protoreflect.Descriptor, error)
	// Files returns a registry holding every file the source has loaded so
	// far, with their dependencies. A lazy source (reflection) may not have
	// loaded them all; AllFiles does that.
	Files(ctx context.Context) (*protoregistry.Files, error)
}

// AllFiles loads the files of every service src lists and returns the
// registry of everything loaded.
func AllFiles(ctx context.Context, src Source) (*protoregistry.Files, error) {
	services, err := src.Services(ctx)
	if err != nil {
		return nil, err
	}
	for _, name := range services {
		if _, err := src.FindSymbol(ctx, name); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return src.Files(ctx)
}

// Merge returns a Source that asks each source in order: services are the
// union, and a symbol comes from the first source that knows it.
func Merge(sources ...Source) Source {
	if len(sources) == 1 {
		return sources[0]
	}
	return merged(sources)
}

type merged []Source

func (m merged) Services(ctx context.Context) ([]protoreflect.FullName, error) {
	var all []protoreflect.FullName
	for _, s := range m {
		names, err := s.Services(ctx)
		if err != nil {
			return nil, err
		}
		all = append(all, names...)
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}

func (m merged) FindSymbol(ctx context.Context, name protoreflect.FullName) (protoreflect.Descriptor, error) {
	for _, s := range m {
		d, err := s.FindSymbol(ctx, name)
		if err == nil {
			return d, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return nil, notFound(name)
}

func (m merged) Files(ctx context.Context) (*protoregistry.Files, error) {
	out := new(protoregistry.Files)
	for _, s := range m {
		files, err := s.Files(ctx)
		if err != nil {
			return nil, err
		}
		files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
			if _, err := out.FindFileByPath(fd.Path()); err != nil {
				// A file already present from an earlier source wins.
				_ = out.RegisterFile(fd)
			}
			return true
		})
	}
	return out, nil
}

func notFound(name protoreflect.FullName) error {
	return fmt.Errorf("schema: symbol %q: %w", name, ErrNotFound)
}
