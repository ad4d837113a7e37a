package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

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
	return nil, fmt.Errorf("schema: no method %q%s: %w", name, suggestion(string(full), all), ErrNotFound)
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

// suggestion is the "did you mean" tail of a not-found error.
func suggestion(name string, candidates []string) string {
	best := Closest(name, candidates, 3)
	if len(best) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(quoteAll(best), " or ") + "?"
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// Closest returns up to n of candidates nearest to name by edit distance
// (case-insensitive), nearest first; candidates too far to be a typo, and
// not sharing name's last component, are left out.
func Closest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	lname := strings.ToLower(name)
	var hits []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(lname, lc)
		if d <= max(2, len(name)/3) || lastPart(lc) == lastPart(lname) {
			hits = append(hits, scored{c, d})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, n)
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].s)
	}
	return out
}

func lastPart(s string) string {
	return s[strings.LastIndexAny(s, "./")+1:]
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

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
	if files, lerr := src.Files(ctx); lerr == nil {
		candidates = append(candidates, typeNames(files)...)
	}
	return fmt.Errorf("schema: no symbol %q%s: %w", name, suggestion(name, candidates), ErrNotFound)
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
