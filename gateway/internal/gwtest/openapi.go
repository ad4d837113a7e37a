package gwtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/content"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// OpenAPI checks a gateway's OpenAPI document, and its responses against
// it, with libopenapi-validator: the document against the OpenAPI 3.1
// schema; a response's status, content type and body against the
// operation of its request; each line of a stream as one body of the
// application/x-ndjson response.
type OpenAPI struct {
	v     validator.Validator
	model *v3.Document
}

// NewOpenAPI reads an OpenAPI document (JSON or YAML).
func NewOpenAPI(doc []byte) (*OpenAPI, error) {
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	model, err := d.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	// Each line of a stream is read as the JSON it is.
	v, errs := validator.NewValidator(d, config.WithBodyDecoder(ndjson, content.JSONDecoder()))
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi: %w", errors.Join(errs...))
	}
	return &OpenAPI{v: v, model: &model.Model}, nil
}

const ndjson = "application/x-ndjson"

// Validate checks the document against the OpenAPI 3.1 schema.
func (o *OpenAPI) Validate() error {
	if ok, errs := o.v.ValidateDocument(); !ok {
		return joinErrors("document", errs)
	}
	return nil
}

// CheckResponse validates a response to a request of method at target
// (path and query). A request the document has no operation for must
// have been answered with an error, a google.rpc.Status.
func (o *OpenAPI) CheckResponse(method, target string, status int, header http.Header, body []byte) error {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		return err
	}
	item, _, path := paths.FindPath(req, o.model, nil)
	if item == nil {
		item, path = o.deepPath(req.URL.Path)
	}
	if item == nil || !hasOperation(item, method) {
		return o.checkUnrouted(method+" "+target, status, body)
	}
	if header.Get("Content-Type") != ndjson {
		return o.check(req, item, path, status, header, body)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(body), []byte("\n")) {
		if err := o.check(req, item, path, status, header, line); err != nil {
			return err
		}
	}
	return nil
}

func (o *OpenAPI) check(req *http.Request, item *v3.PathItem, path string, status int, header http.Header, body []byte) error {
	resp := &http.Response{StatusCode: status, Header: header.Clone(), Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	if ok, errs := o.v.GetResponseBodyValidator().ValidateResponseBodyWithPathItem(req, resp, item, path); !ok {
		return joinErrors(fmt.Sprintf("%s %s (operation %s): %d %s", req.Method, req.URL, path, status, body), errs)
	}
	return nil
}

// checkUnrouted checks the answer to a request no operation serves: an
// error status with a google.rpc.Status.
func (o *OpenAPI) checkUnrouted(what string, status int, body []byte) error {
	if status < 400 {
		return fmt.Errorf("%s: the document has no operation for it, but the gateway answered %d", what, status)
	}
	schema := o.model.Components.Schemas.GetOrZero("google.rpc.Status")
	if schema == nil {
		return fmt.Errorf("%s: the document has no google.rpc.Status", what)
	}
	sv := schema_validation.NewSchemaValidator()
	if ok, errs := sv.ValidateSchemaBytes(schema.Schema(), body); !ok {
		return joinErrors(what+" (google.rpc.Status)", errs)
	}
	return nil
}

// deepPath finds the path whose last parameter takes the rest of the
// request's path, "/" included: a "**" of a path template, which OpenAPI
// has no syntax for (the document says so in the parameter's
// description), and so which the validator's router cannot match.
func (o *OpenAPI) deepPath(reqPath string) (*v3.PathItem, string) {
	for pair := o.model.Paths.PathItems.First(); pair != nil; pair = pair.Next() {
		tmpl := pair.Key()
		i := strings.LastIndex(tmpl, "/{")
		if i < 0 || !strings.HasSuffix(tmpl, "}") || !deepParam(pair.Value(), tmpl[i+2:len(tmpl)-1]) {
			continue
		}
		re := "^" + paramRE.ReplaceAllString(regexp.QuoteMeta(tmpl[:i]), "[^/]+") + "/.+$"
		if regexp.MustCompile(re).MatchString(reqPath) {
			return pair.Value(), tmpl
		}
	}
	return nil, ""
}

var paramRE = regexp.MustCompile(`\\\{[^}]*\\\}`)

// deepParam reports whether a path parameter may span several segments.
func deepParam(item *v3.PathItem, name string) bool {
	for _, op := range item.GetOperations().FromOldest() {
		for _, p := range op.Parameters {
			if p.Name == name && p.In == "path" && strings.Contains(p.Description, "several segments") {
				return true
			}
		}
	}
	return false
}

func hasOperation(item *v3.PathItem, method string) bool {
	_, ok := item.GetOperations().Get(strings.ToLower(method))
	return ok
}

func joinErrors(what string, errs []*verrors.ValidationError) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", what)
	for _, e := range errs {
		fmt.Fprintf(&b, "\n  %s: %s", e.Message, e.Reason)
		for _, se := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n    %s at %s (%s)", se.Reason, se.FieldPath, se.KeywordLocation)
		}
	}
	return errors.New(b.String())
}
