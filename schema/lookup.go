package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/internal/errtext"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// FindMethod resolves "pkg.Service/Method" or "pkg.Service.Method" (a
// leading slash is allowed). When there is no such method, the error names
// the closest ones the source knows.
func FindMethod(ctx context.Context, src Source, name string) (protoreflect.MethodDescriptor, error) {
	full, err := methodFullName(name)
	if err != nil {
		return nil, err
	}
	d, err := src.FindSymbol(ctx, full)
	if err == nil {
		if md, ok := d.(protoreflect.MethodDescriptor); ok {
			return md, nil
		}
		return nil, fmt.Errorf("schema: %q is a %s, not a method", name, Kind(d))
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	all, lerr := Methods(ctx, src)
	if lerr != nil {
		return nil, err
	}
	hits := errtext.Closest(string(full), all, 3)
	for i, h := range hits {
		hits[i] = likeName(h, name)
	}
	return nil, &NotFoundError{What: "method", Name: name, Suggestions: hits}
}

// likeName writes the method full name pkg.Service.Method in the form of
// name as the user wrote it: with a slash before the method, and a leading
// slash, when name has them.
func likeName(full, name string) string {
	if !strings.Contains(name, "/") {
		return full
	}
	i := strings.LastIndexByte(full, '.')
	full = full[:i] + "/" + full[i+1:]
	if strings.HasPrefix(name, "/") {
		full = "/" + full
	}
	return full
}

func methodFullName(name string) (protoreflect.FullName, error) {
	name = strings.TrimPrefix(name, "/")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[:i] + "." + name[i+1:]
	}
	full := protoreflect.FullName(name)
	if !full.IsValid() || full.Parent() == "" {
		return "", fmt.Errorf("schema: %q is not a method name (want pkg.Service/Method)", name)
	}
	return full, nil
}

// Methods lists the full names (pkg.Service.Method) of every method of every
// service in src.
func Methods(ctx context.Context, src Source) ([]string, error) {
	services, err := src.Services(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range services {
		d, err := src.FindSymbol(ctx, s)
		if err != nil {
			continue // listed but not described: nothing to suggest from it
		}
		if sd, ok := d.(protoreflect.ServiceDescriptor); ok {
			for i := range sd.Methods().Len() {
				out = append(out, string(sd.Methods().Get(i).FullName()))
			}
		}
	}
	return out, nil
}

// NotFoundError reports an unknown method or symbol and the known names
// closest to it. It matches ErrNotFound with errors.Is.
type NotFoundError struct {
	What        string // "method" or "symbol"
	Name        string
	Suggestions []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("schema: no %s %q", e.What, e.Name) + errtext.DidYouMean(e.Suggestions)
}

func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// SuggestSymbol turns a not-found error for name into one that names the
// closest symbols src knows; other errors come back unchanged.
func SuggestSymbol(ctx context.Context, src Source, name string, err error) error {
	if !errors.Is(err, ErrNotFound) {
		return err
	}
	var candidates []string
	if services, lerr := src.Services(ctx); lerr == nil {
		for _, s := range services {
			candidates = append(candidates, string(s))
		}
	}
	if methods, lerr := Methods(ctx, src); lerr == nil {
		candidates = append(candidates, methods...)
	}
	if files, lerr := AllFiles(ctx, src); lerr == nil {
		candidates = append(candidates, typeNames(files)...)
	}
	return &NotFoundError{What: "symbol", Name: name, Suggestions: errtext.Closest(name, candidates, 3)}
}

// typeNames lists the messages and enums declared in files.
func typeNames(files *protoregistry.Files) []string {
	var out []string
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		out = appendTypeNames(out, fd.Messages(), fd.Enums())
		return true
	})
	return out
}

func appendTypeNames(out []string, msgs protoreflect.MessageDescriptors, enums protoreflect.EnumDescriptors) []string {
	for i := range enums.Len() {
		out = append(out, string(enums.Get(i).FullName()))
	}
	for i := range msgs.Len() {
		md := msgs.Get(i)
		out = append(out, string(md.FullName()))
		out = appendTypeNames(out, md.Messages(), md.Enums())
	}
	return out
}
