package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// OpenAPIOptions configure the OpenAPI document of a route table.
type OpenAPIOptions struct {
	// Title is the document's info.title; empty means the services' names.
	Title string
	// Version is the document's info.version; empty means "0.0.0".
	Version string
}

// OpenAPIJSON writes the OpenAPI 3.1 document of routes as JSON: one
// operation per route (google.api.http rules and POST /pkg.Service/Method),
// path and query parameters as the gateway binds them, bodies and
// responses in canonical proto3 JSON, errors as google.rpc.Status, and
// the .proto comments as descriptions when the descriptors have them.
// Keys are sorted: the same routes give the same bytes.
func OpenAPIJSON(routes []*Route, opts OpenAPIOptions) ([]byte, error) {
	doc := buildOpenAPI(routes, opts)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("gateway: openapi: %w", err)
	}
	return b.Bytes(), nil
}

// OpenAPIYAML writes the document of OpenAPIJSON as YAML.
func OpenAPIYAML(routes []*Route, opts OpenAPIOptions) ([]byte, error) {
	js, err := OpenAPIJSON(routes, opts)
	if err != nil {
		return nil, err
	}
	return jsonToYAML(js)
}

// ServicesOf lists the services of src that a gateway serves: all but
// server reflection's.
func ServicesOf(ctx context.Context, src schema.Source) ([]protoreflect.ServiceDescriptor, error) {
	return servicesOf(ctx, src)
}

// openAPIVersion is the version of the specification the documents follow.
const openAPIVersion = "3.1.0"

type openAPIDoc struct {
	OpenAPI    string                          `json:"openapi"`
	Info       openAPIInfo                     `json:"info"`
	Tags       []openAPITag                    `json:"tags,omitempty"`
	Paths      map[string]map[string]operation `json:"paths"`
	Components openAPIComponents               `json:"components"`
}

type openAPIInfo struct {
	Title   string `json:"title"`
	Version string `json:"version"`
}

type openAPITag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type openAPIComponents struct {
	Schemas map[string]jsonSchema `json:"schemas"`
}

type operation struct {
	OperationID string              `json:"operationId"`
	Tags        []string            `json:"tags"`
	Summary     string              `json:"summary,omitempty"`
	Description string              `json:"description,omitempty"`
	Parameters  []parameter         `json:"parameters,omitempty"`
	RequestBody *requestBody        `json:"requestBody,omitempty"`
	Responses   map[string]response `json:"responses"`
}

type requestBody struct {
	Description string               `json:"description,omitempty"`
	Content     map[string]mediaType `json:"content"`
}

type response struct {
	Description string               `json:"description"`
	Content     map[string]mediaType `json:"content,omitempty"`
}

type mediaType struct {
	Schema jsonSchema `json:"schema"`
}

func buildOpenAPI(routes []*Route, opts OpenAPIOptions) *openAPIDoc {
	s := newSchemas()
	doc := &openAPIDoc{
		OpenAPI: openAPIVersion,
		Info:    openAPIInfo(opts),
		Paths:   map[string]map[string]operation{},
	}
	services := map[protoreflect.FullName]protoreflect.ServiceDescriptor{}
	for _, r := range orderedRoutes(routes) {
		path, op := s.operation(r.route, r.id)
		if doc.Paths[path] == nil {
			doc.Paths[path] = map[string]operation{}
		}
		doc.Paths[path][strings.ToLower(r.route.HTTPMethod)] = op
		sd := r.route.Method.Parent().(protoreflect.ServiceDescriptor)
		services[sd.FullName()] = sd
	}
	doc.Tags = tags(services)
	if doc.Info.Title == "" {
		doc.Info.Title = serviceNames(doc.Tags)
	}
	if doc.Info.Version == "" {
		doc.Info.Version = "0.0.0"
	}
	doc.Components.Schemas = s.components
	return doc
}

// namedRoute is a route and the operationId it gets.
type namedRoute struct {
	route *Route
	id    string
}

// orderedRoutes names the routes: a method's first route (its
// google.api.http rule, else POST /pkg.Service/Method) gets the method's
// full name as operationId, the others that name with _2, _3 ... in the
// order of the rule, its additional bindings, and the POST route.
func orderedRoutes(routes []*Route) []namedRoute {
	byMethod := map[protoreflect.FullName][]*Route{}
	var order []protoreflect.FullName
	for _, r := range routes {
		name := r.Method.FullName()
		if byMethod[name] == nil {
			order = append(order, name)
		}
		byMethod[name] = append(byMethod[name], r)
	}
	var out []namedRoute
	for _, name := range order {
		rs := byMethod[name]
		rank := ruleOrder(rs[0].Method)
		sort.SliceStable(rs, func(i, j int) bool { return rank(rs[i]) < rank(rs[j]) })
		for i, r := range rs {
			id := string(name)
			if i > 0 {
				id = fmt.Sprintf("%s_%d", name, i+1)
			}
			out = append(out, namedRoute{r, id})
		}
	}
	return out
}

// ruleOrder ranks the routes of md, whatever order they are listed in:
// its google.api.http rule, the additional bindings, then
// POST /pkg.Service/Method.
func ruleOrder(md protoreflect.MethodDescriptor) func(*Route) int {
	canonical, _ := methodRoutes(md)
	return func(r *Route) int {
		for i, c := range canonical[1:] {
			if c.HTTPMethod == r.HTTPMethod && c.Template.String() == r.Template.String() {
				return i
			}
		}
		return len(canonical) // the default route, first in methodRoutes
	}
}

func tags(services map[protoreflect.FullName]protoreflect.ServiceDescriptor) []openAPITag {
	var out []openAPITag
	for name, sd := range services {
		out = append(out, openAPITag{Name: string(name), Description: comment(sd)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func serviceNames(tags []openAPITag) string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Name
	}
	if len(names) == 0 {
		return "rpckit gateway"
	}
	return strings.Join(names, ", ")
}

// operation is the OpenAPI operation of a route, and its path.
func (s *schemas) operation(r *Route, id string) (string, operation) {
	md := r.Method
	path, params := s.openAPIPath(r)
	doc := comment(md)
	summary, _, _ := strings.Cut(doc, "\n")
	op := operation{
		OperationID: id,
		Tags:        []string{string(md.Parent().FullName())},
		Summary:     strings.TrimSpace(summary),
		Description: joinText(doc, fmt.Sprintf("gRPC method %s.", md.FullName())),
		Parameters:  append(params, s.queryParams(r)...),
		RequestBody: s.requestBody(r),
		Responses:   s.responses(r),
	}
	return path, op
}

// ndjson is the media type of streams of JSON messages, one per line.
const ndjson = "application/x-ndjson"

// requestBody is what a route reads from the body: the request (body
// "*"), one of its fields, or nothing; newline-delimited requests for a
// client stream.
func (s *schemas) requestBody(r *Route) *requestBody {
	if r.Body == "" {
		return nil
	}
	schema := s.message(r.Method.Input())
	desc := fmt.Sprintf("The request, %s.", r.Method.Input().FullName())
	if r.Body != "*" {
		fds, _ := fieldPath(r.Method.Input(), r.Body)
		schema = s.field(fds[len(fds)-1])
		desc = fmt.Sprintf("The field %s of the request, %s.", r.Body, r.Method.Input().FullName())
	}
	mt := "application/json"
	if r.Method.IsStreamingClient() {
		mt = ndjson
		desc += " A stream: one JSON message per line."
	}
	return &requestBody{Description: desc, Content: map[string]mediaType{mt: {Schema: schema}}}
}

// responses are a route's answers: 200 with the response (or its
// response_body field, null when unset), or newline-delimited
// {"result": ...} and {"error": status} lines (or Server-Sent Events) for a
// server stream; any other status with a google.rpc.Status.
func (s *schemas) responses(r *Route) map[string]response {
	out := s.message(r.Method.Output())
	if r.ResponseBody != "" {
		fds, _ := fieldPath(r.Method.Output(), r.ResponseBody)
		out = jsonSchema{"oneOf": []any{s.field(fds[len(fds)-1]), jsonSchema{"type": "null"}}}
	}
	status := ref(statusSchemaName)
	failure := response{Description: "An error: a google.rpc.Status with the HTTP status of its code.",
		Content: map[string]mediaType{"application/json": {Schema: status}}}
	if !r.Method.IsStreamingServer() {
		ok := response{Description: "The response.", Content: map[string]mediaType{"application/json": {Schema: out}}}
		return map[string]response{"200": ok, "default": failure}
	}
	line := streamLine(out, status)
	ok := response{
		Description: "A stream of responses, one JSON object per line: {\"result\": message}, and {\"error\": status} last if the call fails; Server-Sent Events for clients that accept text/event-stream.",
		Content: map[string]mediaType{
			ndjson:              {Schema: line},
			"text/event-stream": {Schema: jsonSchema{"type": "string"}},
		},
	}
	// A stream that fails before its first message answers with the
	// code's HTTP status and an error line.
	failure.Content[ndjson] = mediaType{Schema: line}
	return map[string]response{"200": ok, "default": failure}
}

// streamLine is one line of a server stream: a result or an error.
func streamLine(result, status jsonSchema) jsonSchema {
	return jsonSchema{
		"description": "One line of the stream.",
		"oneOf": []any{
			jsonSchema{"type": "object", "properties": jsonSchema{"result": result}, "required": []string{"result"}, "additionalProperties": false},
			jsonSchema{"type": "object", "properties": jsonSchema{"error": status}, "required": []string{"error"}, "additionalProperties": false},
		},
	}
}
