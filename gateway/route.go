package gateway

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// A Route maps an HTTP method and path template to a gRPC method.
type Route struct {
	HTTPMethod   string // GET, POST, ... or a custom verb
	Template     *Template
	Method       protoreflect.MethodDescriptor
	Body         string // "": no body; "*": the whole request; else a field
	ResponseBody string // "": the whole response; else a field of it
}

func (r *Route) String() string {
	return fmt.Sprintf("%s %s -> %s", r.HTTPMethod, r.Template, r.Method.FullName())
}

// RoutesOf lists the routes of every method of the services: those of its
// google.api.http rule and additional bindings, then POST /pkg.Service/Method
// with the JSON request as body.
func RoutesOf(services []protoreflect.ServiceDescriptor) ([]*Route, error) {
	var routes []*Route
	for _, sd := range services {
		for i := range sd.Methods().Len() {
			md := sd.Methods().Get(i)
			rs, err := methodRoutes(md)
			if err != nil {
				return nil, err
			}
			routes = append(routes, rs...)
		}
	}
	return routes, nil
}

func methodRoutes(md protoreflect.MethodDescriptor) ([]*Route, error) {
	def, _ := ParseTemplate("/" + string(md.Parent().FullName()) + "/" + string(md.Name()))
	routes := []*Route{{HTTPMethod: http.MethodPost, Template: def, Method: md, Body: "*"}}
	rule := httpRule(md)
	if rule == nil {
		return routes, nil
	}
	for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
		route, err := ruleRoute(md, r)
		if err != nil {
			return nil, fmt.Errorf("gateway: %s: %w", md.FullName(), err)
		}
		routes = append(routes, route)
	}
	return routes, nil
}

// httpRule reads a method's google.api.http option, whichever way its
// descriptor was built (generated, compiled, or from reflection): the
// options are parsed again against the linked-in HttpRule type, since a
// compiler may hold the extension as a dynamic message.
func httpRule(md protoreflect.MethodDescriptor) *annotations.HttpRule {
	opts := md.Options()
	if opts == nil {
		return nil
	}
	b, err := proto.Marshal(opts)
	if err != nil || len(b) == 0 {
		return nil
	}
	parsed := &descriptorpb.MethodOptions{}
	uopts := proto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}
	if uopts.Unmarshal(b, parsed) != nil {
		return nil
	}
	rule, _ := proto.GetExtension(parsed, annotations.E_Http).(*annotations.HttpRule)
	return rule
}

func ruleRoute(md protoreflect.MethodDescriptor, r *annotations.HttpRule) (*Route, error) {
	method, path := rulePattern(r)
	if path == "" {
		return nil, fmt.Errorf("google.api.http rule without a path")
	}
	tmpl, err := ParseTemplate(path)
	if err != nil {
		return nil, err
	}
	route := &Route{HTTPMethod: method, Template: tmpl, Method: md, Body: r.GetBody(), ResponseBody: r.GetResponseBody()}
	return route, checkFields(route)
}

func rulePattern(r *annotations.HttpRule) (method, path string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	case *annotations.HttpRule_Custom:
		return p.Custom.GetKind(), p.Custom.GetPath()
	}
	return "", ""
}

// checkFields verifies that the fields a route names exist.
func checkFields(r *Route) error {
	for _, s := range r.Template.Segments {
		if s.Kind == VarStart {
			if _, err := fieldPath(r.Method.Input(), s.Field); err != nil {
				return fmt.Errorf("path %s: %w", r.Template, err)
			}
		}
	}
	if r.Body != "" && r.Body != "*" {
		if _, err := fieldPath(r.Method.Input(), r.Body); err != nil {
			return fmt.Errorf("body: %w", err)
		}
	}
	if r.ResponseBody != "" {
		if _, err := fieldPath(r.Method.Output(), r.ResponseBody); err != nil {
			return fmt.Errorf("response_body: %w", err)
		}
	}
	return nil
}

// fieldPath resolves a dotted path of proto field names in md.
func fieldPath(md protoreflect.MessageDescriptor, path string) ([]protoreflect.FieldDescriptor, error) {
	var out []protoreflect.FieldDescriptor
	for i, name := range strings.Split(path, ".") {
		if md == nil {
			return nil, fmt.Errorf("field %q: %q is not a message", path, strings.Join(strings.Split(path, ".")[:i], "."))
		}
		fd := md.Fields().ByName(protoreflect.Name(name))
		if fd == nil {
			fd = md.Fields().ByJSONName(name)
		}
		if fd == nil {
			return nil, fmt.Errorf("field %q: %s has no field %q", path, md.FullName(), name)
		}
		out = append(out, fd)
		md = fd.Message()
	}
	return out, nil
}

// shape is a route's template with variable names left out: two routes of
// one HTTP method with the same shape conflict.
func (r *Route) shape() string {
	var b strings.Builder
	b.WriteString(r.HTTPMethod)
	b.WriteByte(' ')
	for _, s := range r.Template.Segments {
		switch s.Kind {
		case Literal:
			b.WriteString("/" + s.Literal)
		case Wildcard:
			b.WriteString("/*")
		case Deep:
			b.WriteString("/**")
		}
	}
	if r.Template.Verb != "" {
		b.WriteString(":" + r.Template.Verb)
	}
	return b.String()
}

// specificity orders routes so that the most literal template is tried
// first: more literal segments, then fewer "**".
func specificity(r *Route) (literals, deep int) {
	for _, s := range r.Template.Segments {
		switch s.Kind {
		case Literal:
			literals++
		case Deep:
			deep++
		}
	}
	return literals, deep
}

// conflicts reports routes with the same HTTP method and template shape.
func conflicts(routes []*Route) error {
	seen := map[string]*Route{}
	var msgs []string
	for _, r := range routes {
		k := r.shape()
		if prev, ok := seen[k]; ok {
			msgs = append(msgs, fmt.Sprintf("%s conflicts with %s", r, prev))
			continue
		}
		seen[k] = r
	}
	if len(msgs) > 0 {
		sort.Strings(msgs)
		return fmt.Errorf("gateway: route conflicts:\n  %s", strings.Join(msgs, "\n  "))
	}
	return nil
}
