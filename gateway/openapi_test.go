package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway/internal/gwtest"
	"github.com/rpckit/rpckit/schema"
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// openAPIRoutes are the routes of the document's fixtures: Docs
// (testdata/openapi/docs.proto) and the differential test's Everything,
// compiled from source so that comments come along.
func openAPIRoutes(t testing.TB) []*Route {
	t.Helper()
	return fixtureRoutes(t, "rpckit.gwtest.v1.Everything", "rpckit.openapitest.v1.Docs")
}

func fixtureRoutes(t testing.TB, names ...protoreflect.FullName) []*Route {
	t.Helper()
	files, err := schema.CompileFiles(context.Background(), schema.CompileOptions{
		Files:       []string{"docs.proto", "rpckit/gwtest/v1/gwtest.proto"},
		ImportPaths: []string{"testdata/openapi", "../proto"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var services []protoreflect.ServiceDescriptor
	for _, name := range names {
		d, err := files.FindDescriptorByName(name)
		if err != nil {
			t.Fatal(err)
		}
		services = append(services, d.(protoreflect.ServiceDescriptor))
	}
	routes, err := RoutesOf(services)
	if err != nil {
		t.Fatal(err)
	}
	return routes
}

func TestOpenAPIValid(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			build := OpenAPIJSON
			if format == "yaml" {
				build = OpenAPIYAML
			}
			doc, err := build(openAPIRoutes(t), OpenAPIOptions{})
			if err != nil {
				t.Fatal(err)
			}
			oa, err := gwtest.NewOpenAPI(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := oa.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// fixtureDoc builds the fixtures' document and reads it back as JSON.
func fixtureDoc(t *testing.T) map[string]any {
	t.Helper()
	js, err := OpenAPIJSON(openAPIRoutes(t), OpenAPIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at walks a JSON document by keys and indexes ("0").
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for i, k := range keys {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				t.Fatalf("no %q at %s", k, strings.Join(keys[:i], "/"))
			}
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n >= len(x) {
				t.Fatalf("no [%s] at %s", k, strings.Join(keys[:i], "/"))
			}
			v = x[n]
		default:
			t.Fatalf("%s is a %T, not an object or array", strings.Join(keys[:i], "/"), v)
		}
	}
	return v
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// paramNames lists an operation's parameters as in:name.
func paramNames(t *testing.T, op any) []string {
	var out []string
	params, _ := op.(map[string]any)["parameters"].([]any)
	for _, p := range params {
		m := p.(map[string]any)
		out = append(out, m["in"].(string)+":"+m["name"].(string))
	}
	return out
}

func TestOpenAPIPaths(t *testing.T) {
	doc := fixtureDoc(t)
	paths := at(t, doc, "paths")
	for _, tc := range []struct {
		path, method, id string
		params           []string
	}{
		// {name=projects/*/items/*}: a parameter per wildcard.
		{"/v1/projects/{project}/items/{item}", "get", "rpckit.gwtest.v1.Everything.GetItem", []string{"path:project", "path:item"}},
		{"/v1/projects/{project}/items/{item}", "delete", "rpckit.gwtest.v1.Everything.DeleteItem", []string{"path:project", "path:item"}},
		// A body field: the other fields from the query, not the body's.
		{"/v1/projects/{project}/items/{item}", "patch", "rpckit.gwtest.v1.Everything.UpdateItem",
			[]string{"path:project", "path:item", "query:update_mask", "query:allow_missing"}},
		// Additional bindings; body "*" reads no query.
		{"/v2/projects/{project}/items/{item}", "put", "rpckit.gwtest.v1.Everything.UpdateItem_2", []string{"path:project", "path:item"}},
		{"/v1/items", "get", "rpckit.gwtest.v1.Everything.ListItems_2", nil},
		// Nested fields from single segments, a custom verb, "**".
		{"/v1/regions/{key.region}/keys/{key.id}", "get", "rpckit.gwtest.v1.Everything.Lookup", []string{"path:key.region", "path:key.id", "query:hint"}},
		{"/v1/projects/{project}/items/{item}:archive", "post", "rpckit.gwtest.v1.Everything.ArchiveItem", []string{"path:project", "path:item"}},
		{"/v1/files/{path}", "get", "rpckit.gwtest.v1.Everything.GetFile", []string{"path:path"}},
		{"/v1/shelves/{shelve}/books/{book}", "get", "rpckit.openapitest.v1.Docs.Leaf",
			[]string{"path:shelve", "path:book", "query:leaf.name", "query:leaf.id", "query:leaf.values", "query:leaf.a", "query:leaf.b"}},
		// POST /pkg.Service/Method for every method, after its rule's routes.
		{"/rpckit.gwtest.v1.Everything/ListItems", "post", "rpckit.gwtest.v1.Everything.ListItems_3", nil},
		{"/rpckit.openapitest.v1.Docs/Chat", "post", "rpckit.openapitest.v1.Docs.Chat", nil},
	} {
		op := at(t, paths, tc.path, tc.method)
		if id := at(t, op, "operationId"); id != tc.id {
			t.Errorf("%s %s: operationId %v, want %s", tc.method, tc.path, id, tc.id)
		}
		if got := paramNames(t, op); tc.params != nil && !slices.Equal(got, tc.params) {
			t.Errorf("%s %s: parameters %v, want %v", tc.method, tc.path, got, tc.params)
		}
	}
	list := paramNames(t, at(t, paths, "/v1/items", "get"))
	want := []string{"query:parent", "query:page_size", "query:page_token", "query:filter.tags", "query:filter.kind",
		"query:filter.kinds", "query:filter.created_after", "query:filter.max_ttl", "query:filter.min_price",
		"query:filter.archived", "query:filter.name_prefix", "query:filter.min_views", "query:filter.size.width",
		"query:filter.size.height", "query:filter.size.unit", "query:filter.token", "query:filter.limit",
		"query:filter.ratio", "query:filter.ids", "query:read_mask"}
	if !slices.Equal(list, want) {
		t.Errorf("ListItems' query:\n got %v\nwant %v", list, want)
	}
	if got := paramNames(t, at(t, paths, "/v1/projects/{project}/items", "get")); slices.Contains(got, "query:parent") {
		t.Errorf("parent is bound by the path, yet a query parameter: %v", got)
	}
	// A repeated field is an exploded array; a path parameter of part of a
	// field says which; "**" says it may hold "/".
	tags := at(t, paths, "/v1/items", "get", "parameters", "3")
	if got := asJSON(t, tags); got != `{"explode":true,"in":"query","name":"filter.tags","schema":{"items":{"type":"string"},"type":"array"},"style":"form"}` {
		t.Errorf("filter.tags: %s", got)
	}
	if d := at(t, paths, "/v1/projects/{project}/items/{item}", "get", "parameters", "0", "description"); !strings.Contains(d.(string), "Part of the field name, which gets the path's segments projects/*/items/*") {
		t.Errorf("project's description: %v", d)
	}
	if d := at(t, paths, "/v1/shelves/{shelve}/books/{book}", "get", "parameters", "1", "description"); !strings.Contains(d.(string), "several segments") {
		t.Errorf("book's description: %v", d)
	}
}

func TestOpenAPISchemas(t *testing.T) {
	doc := fixtureDoc(t)
	schemas := at(t, doc, "components", "schemas")
	rich := at(t, schemas, "rpckit.fixture.v1.Rich", "properties")
	known := at(t, schemas, "rpckit.fixture.v1.Known", "properties")
	for _, tc := range []struct {
		props any
		field string
		want  string
	}{
		{rich, "fInt32", `{"format":"int32","type":"integer"}`},
		{rich, "fUint32", `{"format":"int64","maximum":4294967295,"minimum":0,"type":"integer"}`},
		{rich, "fInt64", `{"format":"int64","pattern":"^-?[0-9]+$","type":"string"}`},
		{rich, "fUint64", `{"format":"int64","pattern":"^[0-9]+$","type":"string"}`},
		{rich, "fFixed64", `{"format":"int64","pattern":"^[0-9]+$","type":"string"}`},
		{rich, "fBytes", `{"contentEncoding":"base64","format":"byte","type":"string"}`},
		{rich, "fDouble", `{"oneOf":[{"format":"double","type":"number"},{"enum":["NaN","Infinity","-Infinity"],"type":"string"}]}`},
		{rich, "fKind", `{"$ref":"#/components/schemas/rpckit.fixture.v1.Kind"}`},
		{rich, "child", `{"$ref":"#/components/schemas/rpckit.fixture.v1.Rich"}`}, // recursion
		{rich, "customDouble", `{"oneOf":[{"format":"double","type":"number"},{"enum":["NaN","Infinity","-Infinity"],"type":"string"}]}`},
		{rich, "rInt64", `{"items":{"format":"int64","pattern":"^-?[0-9]+$","type":"string"},"type":"array"}`},
		{rich, "mLeaf", `{"additionalProperties":{"$ref":"#/components/schemas/rpckit.fixture.v1.Leaf"},"type":"object"}`},
		{known, "timestamp", `{"format":"date-time","type":"string"}`},
		{known, "duration", `{"description":"A duration in seconds with an s suffix, as \"1.5s\".","pattern":"^-?[0-9]+(\\.[0-9]{1,9})?s$","type":"string"}`},
		{known, "fieldMask", `{"description":"Field paths in lowerCamelCase, comma-separated.","type":"string"}`},
		{known, "struct", `{"additionalProperties":true,"type":"object"}`},
		{known, "value", `{}`},
		{known, "listValue", `{"type":"array"}`},
		{known, "nullValue", `{"type":"null"}`},
		{known, "int32Value", `{"format":"int32","type":["integer","null"]}`},
		{known, "int64Value", `{"format":"int64","pattern":"^-?[0-9]+$","type":["string","null"]}`},
		{known, "boolValue", `{"type":["boolean","null"]}`},
		{known, "doubleValue", `{"oneOf":[{"format":"double","type":"number"},{"enum":["NaN","Infinity","-Infinity"],"type":"string"},{"type":"null"}]}`},
		{known, "empty", `{"additionalProperties":false,"type":"object"}`},
		{known, "any", `{"additionalProperties":true,"properties":{"@type":{"description":"The type URL of the message, as type.googleapis.com/pkg.Msg.","type":"string"}},"required":["@type"],"type":"object"}`},
	} {
		if got := asJSON(t, at(t, tc.props, tc.field)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.field, got, tc.want)
		}
	}
	if got := asJSON(t, at(t, schemas, "rpckit.fixture.v1.Kind", "enum")); got != `["KIND_UNSPECIFIED","KIND_ALPHA","KIND_BETA","KIND_GAMMA","KIND_NEGATIVE"]` {
		t.Errorf("Kind's names: %s", got)
	}
	if d := at(t, schemas, "rpckit.fixture.v1.Rich", "description").(string); !strings.Contains(d, "At most one of cInt32, cString, cLeaf, cKind, cBytes (oneof choice).") ||
		!strings.Contains(d, "At most one of dDouble, dRich (oneof other).") || !strings.HasPrefix(d, "Rich has every scalar kind") {
		t.Errorf("Rich's description: %q", d)
	}
	// Comments of fields, methods and services.
	if d := at(t, schemas, "rpckit.openapitest.v1.Wrapper", "properties", "leaf", "description"); d != "The leaf, if any." {
		t.Errorf("Wrapper.leaf's description: %v", d)
	}
	richOp := at(t, doc, "paths", "/v1/rich", "post")
	if s := at(t, richOp, "summary"); s != "Rich echoes a message with every kind of field." {
		t.Errorf("summary: %v", s)
	}
	if d := at(t, richOp, "description"); d != "Rich echoes a message with every kind of field.\nIt has a second line.\n\ngRPC method rpckit.openapitest.v1.Docs.Rich." {
		t.Errorf("description: %q", d)
	}
	if got := asJSON(t, at(t, doc, "tags")); got != `[{"description":"Everything exercises every mapping of google.api.http.","name":"rpckit.gwtest.v1.Everything"},{"description":"Docs is the service the document describes.","name":"rpckit.openapitest.v1.Docs"}]` {
		t.Errorf("tags: %s", got)
	}
}

func TestOpenAPIBodies(t *testing.T) {
	doc := fixtureDoc(t)
	paths := at(t, doc, "paths")
	status := `{"$ref":"#/components/schemas/google.rpc.Status"}`
	for _, tc := range []struct {
		name string
		keys []string
		want string
	}{
		{"body *", []string{"/v1/rich", "post", "requestBody", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/rpckit.fixture.v1.Rich"}`},
		{"body field", []string{"/v1/projects/{project}/items", "post", "requestBody", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/rpckit.gwtest.v1.Item"}`},
		{"client stream", []string{"/rpckit.openapitest.v1.Docs/Chat", "post", "requestBody", "content", "application/x-ndjson", "schema"}, `{"$ref":"#/components/schemas/rpckit.openapitest.v1.Wrapper"}`},
		{"unary", []string{"/v1/files/{path}", "get", "responses", "200", "content", "application/json", "schema"}, `{"$ref":"#/components/schemas/rpckit.gwtest.v1.File"}`},
		{"response_body", []string{"/v1/projects/{project}/items/{item}:archive", "post", "responses", "200", "content", "application/json", "schema"},
			`{"oneOf":[{"$ref":"#/components/schemas/rpckit.gwtest.v1.Item"},{"type":"null"}]}`},
		{"response_body, a message field", []string{"/v1/shelves/{shelve}/books/{book}", "get", "responses", "200", "content", "application/json", "schema"},
			`{"oneOf":[{"$ref":"#/components/schemas/rpckit.fixture.v1.Leaf"},{"type":"null"}]}`},
		{"errors", []string{"/v1/files/{path}", "get", "responses", "default", "content", "application/json", "schema"}, status},
		{"server stream", []string{"/v1/projects/{project}/items:watch", "get", "responses", "200", "content", "application/x-ndjson", "schema", "oneOf"},
			`[{"additionalProperties":false,"properties":{"result":{"$ref":"#/components/schemas/rpckit.gwtest.v1.Item"}},"required":["result"],"type":"object"},` +
				`{"additionalProperties":false,"properties":{"error":` + status + `},"required":["error"],"type":"object"}]`},
		{"a stream that fails at once", []string{"/v1/projects/{project}/items:watch", "get", "responses", "default", "content", "application/x-ndjson", "schema", "oneOf", "1", "properties", "error"}, status},
	} {
		if got := asJSON(t, at(t, paths, tc.keys...)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	for _, keys := range [][]string{{"/v1/files/{path}", "get"}, {"/v1/projects/{project}/items/{item}", "delete"}} {
		if _, ok := at(t, paths, keys...).(map[string]any)["requestBody"]; ok {
			t.Errorf("%s %s has a request body; the route reads none", keys[1], keys[0])
		}
	}
}

// TestOpenAPIStable: the same services, compiled again and listed in
// another order, give the same bytes; the YAML is the same document.
func TestOpenAPIStable(t *testing.T) {
	routes := openAPIRoutes(t)
	first, err := OpenAPIJSON(routes, OpenAPIOptions{Title: "T", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := OpenAPIJSON(fixtureRoutes(t, "rpckit.openapitest.v1.Docs", "rpckit.gwtest.v1.Everything"), OpenAPIOptions{Title: "T", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatal("two documents of the same routes differ")
	}
	y, err := OpenAPIYAML(routes, OpenAPIOptions{Title: "T", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	var fromYAML, fromJSON any
	if err := yaml.Unmarshal(y, &fromYAML); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(first, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if asJSON(t, fromYAML) != asJSON(t, fromJSON) {
		t.Fatalf("the YAML reads as another document:\n%s", y)
	}
}
