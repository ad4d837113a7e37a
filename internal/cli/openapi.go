package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/schema"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

type openAPIFlags struct {
	conn     connFlags
	schema   schemaFlags
	services []string
	output   string
	format   string
	opts     gateway.OpenAPIOptions
}

func newOpenAPICmd(stdio Stdio) *cobra.Command {
	var f openAPIFlags
	cmd := &cobra.Command{
		Use:   "openapi [TARGET]",
		Short: "Write the OpenAPI 3.1 document of the REST API rpckit gateway serves",
		Long: `Write the OpenAPI 3.1 document of the REST API that rpckit gateway serves
for a gRPC service: the same document as the gateway's GET /openapi.json.
Descriptors come from the target's reflection, or from --proto / --protoset
(with comments from .proto files as descriptions).

Every route is an operation: those of google.api.http rules and
POST /pkg.Service/Method; bodies and responses in canonical proto3 JSON,
errors as google.rpc.Status.`,
		Example: `  rpckit openapi --plaintext 127.0.0.1:50051
  rpckit openapi --proto api.proto -I proto -o openapi.yaml
  rpckit openapi --protoset api.pb --service pkg.Users --format yaml`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOpenAPI(cmd, stdio, &f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&f.services, "service", nil, "document only this `service` (repeatable; default: all)")
	fs.StringVarP(&f.output, "output", "o", "", "write the document to `file` instead of stdout")
	fs.StringVar(&f.format, "format", "", "`json` or yaml (default: yaml for a -o file ending in .yaml or .yml, else json)")
	fs.StringVar(&f.opts.Title, "title", "", "the document's `title` (default: the services' names)")
	fs.StringVar(&f.opts.Version, "api-version", "", "the document's API `version` (default: 0.0.0)")
	f.conn.register(fs)
	f.schema.register(fs)
	return cmd
}

func runOpenAPI(cmd *cobra.Command, stdio Stdio, f *openAPIFlags, args []string) error {
	target, rest := splitTarget(args)
	if err := checkOpenAPIArgs(f, target, rest); err != nil {
		return err
	}
	format, err := f.outputFormat()
	if err != nil {
		return err
	}
	s, err := open(cmd.Context(), target, &f.conn, &f.schema)
	if err != nil {
		return err
	}
	defer s.close()
	services, err := selectServices(cmd.Context(), s.source, f.services)
	if err != nil {
		return err
	}
	routes, err := gateway.RoutesOf(services)
	if err != nil {
		return err
	}
	doc, err := openAPIDocument(routes, format, f.opts)
	if err != nil {
		return err
	}
	return writeOutput(stdio.Out, f.output, func(w io.Writer) error {
		_, err := w.Write(doc)
		return err
	})
}

// checkOpenAPIArgs checks that the arguments name at most a target, and
// one when the schema is not local.
func checkOpenAPIArgs(f *openAPIFlags, target string, rest []string) error {
	if len(rest) > 0 {
		return usagef("unexpected argument %q: give services with --service", rest[0])
	}
	if target == "" && !f.schema.local() {
		return usagef("want a TARGET to ask by reflection, or --proto / --protoset")
	}
	return nil
}

// openAPIDocument is the OpenAPI document of routes in format, json or
// yaml.
func openAPIDocument(routes []*gateway.Route, format string, opts gateway.OpenAPIOptions) ([]byte, error) {
	if format == "yaml" {
		return gateway.OpenAPIYAML(routes, opts)
	}
	return gateway.OpenAPIJSON(routes, opts)
}

// outputFormat is --format, or the -o file's extension's.
func (f *openAPIFlags) outputFormat() (string, error) {
	switch f.format {
	case "json", "yaml":
		return f.format, nil
	case "":
		return formatOfPath(f.output), nil
	}
	return "", usagef("--format %q: want json or yaml", f.format)
}

// formatOfPath is the format an output file's extension asks for: yaml
// for .yaml or .yml, else json.
func formatOfPath(output string) string {
	if ext := strings.ToLower(filepath.Ext(output)); ext == ".yaml" || ext == ".yml" {
		return "yaml"
	}
	return "json"
}

// selectServices are the services the gateway would serve from src, or
// the ones named (each must be one of them).
func selectServices(ctx context.Context, src schema.Source, names []string) ([]protoreflect.ServiceDescriptor, error) {
	all, err := gateway.ServicesOf(ctx, src)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return all, nil
	}
	var out []protoreflect.ServiceDescriptor
	for _, name := range names {
		i := slices.IndexFunc(all, func(sd protoreflect.ServiceDescriptor) bool { return string(sd.FullName()) == name })
		if i < 0 {
			return nil, unknownService(ctx, src, name, all)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// unknownService explains a --service the schema does not have.
func unknownService(ctx context.Context, src schema.Source, name string, all []protoreflect.ServiceDescriptor) error {
	var known []string
	for _, sd := range all {
		known = append(known, string(sd.FullName()))
	}
	if d, err := src.FindSymbol(ctx, protoreflect.FullName(name)); err == nil {
		return fmt.Errorf("--service %q is a %s, not a service (services: %s)", name, schema.Kind(d), strings.Join(known, ", "))
	}
	return fmt.Errorf("--service %q: no such service (services: %s)", name, strings.Join(known, ", "))
}
