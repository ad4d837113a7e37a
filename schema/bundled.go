package schema

import (
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The bundled google/api and google/rpc files register themselves here.
	_ "google.golang.org/genproto/googleapis/api/annotations"
	_ "google.golang.org/genproto/googleapis/api/httpbody"
	_ "google.golang.org/genproto/googleapis/rpc/code"
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	_ "google.golang.org/genproto/googleapis/rpc/status"
)

// bundledPrefixes are the import paths served from the files compiled into
// the binary when no import path has them.
var bundledPrefixes = []string{"google/api/", "google/rpc/", "google/protobuf/"}

// withBundled resolves imports of the bundled files after r fails to.
func withBundled(r protocompile.Resolver) protocompile.Resolver {
	return protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
		res, err := r.FindFileByPath(path)
		if err == nil {
			return res, nil
		}
		if fd, ferr := BundledFile(path); ferr == nil {
			return protocompile.SearchResult{Desc: fd}, nil
		}
		return res, err
	})
}

// BundledFile returns one of the files compiled into the binary: the
// well-known types, google/api (annotations, http, httpbody) and google/rpc
// (status, code, error_details).
func BundledFile(path string) (protoreflect.FileDescriptor, error) {
	for _, p := range bundledPrefixes {
		if strings.HasPrefix(path, p) {
			return protoregistry.GlobalFiles.FindFileByPath(path)
		}
	}
	return nil, protoregistry.NotFound
}
