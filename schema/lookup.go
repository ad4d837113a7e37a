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
	return nil, &NotFoundError{What: "method", Name: name, Suggestions: Closest(string(full), all, 3)}
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
	msg := fmt.Sprintf("schema: no %s %q", e.What, e.Name)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(e.Suggestions), " or ") + "?"
	}
	return msg
}

func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// Closest returns up to n of candidates nearest to name by edit distance
// (case-insensitive), nearest first. A candidate is kept when the distance
// could be a typo in name's last component, or when the last components are
// equal (a typo in the package or service).
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
		if d <= max(1, len(lastPart(lname))/3) || lastPart(lc) == lastPart(lname) {
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

// distance is the edit distance between a and b counting insertions,
// deletions, substitutions and swaps of adjacent bytes (optimal string
// alignment), so "Itme" is one edit from "Item".
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
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
	if files, lerr := AllFiles(ctx, src); lerr == nil {
		candidates = append(candidates, typeNames(files)...)
	}
	return &NotFoundError{What: "symbol", Name: name, Suggestions: Closest(name, candidates, 3)}
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
