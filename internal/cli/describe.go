package cli

import (
	"fmt"
	"strings"

	"github.com/rpckit/rpckit/schema"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func newDescribeCmd(stdio Stdio) *cobra.Command {
	var cf connFlags
	var sf schemaFlags
	var template bool
	var idf idlFlags
	cmd := &cobra.Command{
		Use:   "describe [TARGET] [SYMBOL]",
		Short: "Print the .proto source of a service, method, message or enum",
		Long: `Print the .proto source, options included, of a service, method, message,
oneof, enum or field; with no symbol, of every service. With --template, print
a JSON request for a message (or a method's request message) with every field
filled in.

With --idl, the schema is a Thrift IDL file: with no symbol, every service,
struct, union, exception, enum, typedef and constant of it and its includes;
with one (bench.Medium, Medium, BenchService.Echo), its IDL source. With
--template, a sample JSON value of a struct, union or exception, every field
filled in (a union's first), as convert --idl --from json reads it; of a
function (Service.method), the JSON of its arguments that call --idl -d takes.`,
		Example: `  rpckit describe --plaintext 127.0.0.1:50051 rpckit.ranking.v1.RankingService
  rpckit describe --plaintext 127.0.0.1:50051 --template rpckit.ranking.v1.RankingService/Rank
  rpckit describe --idl api.thrift api.Order
  rpckit describe --idl api.thrift --template api.Order
  rpckit describe --idl api.thrift --template OrderService.Place`,
		Args: argsBetween(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest := splitTarget(args)
			if len(rest) > 1 {
				return usagef("want at most one symbol, got %q", rest)
			}
			if idf.file != "" {
				return runDescribeIDL(stdio, &idf, &sf, target, rest, template)
			}
			s, err := open(cmd.Context(), target, &cf, &sf)
			if err != nil {
				return err
			}
			defer s.close()
			names, err := describeNames(cmd, s, rest)
			if err != nil {
				return err
			}
			for _, name := range names {
				if err := describeOne(cmd, stdio, s, name, template); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&template, "template", false, "print a sample JSON request instead of proto source")
	cf.register(cmd.Flags())
	sf.register(cmd.Flags())
	idf.register(cmd.Flags())
	return cmd
}

func describeNames(cmd *cobra.Command, s *session, rest []string) ([]string, error) {
	if len(rest) == 1 {
		return []string{symbolName(rest[0])}, nil
	}
	services, err := s.source.Services(cmd.Context())
	if err != nil {
		return nil, err
	}
	out := make([]string, len(services))
	for i, n := range services {
		out[i] = string(n)
	}
	return out, nil
}

// symbolName accepts pkg.Service/Method for methods as call does.
func symbolName(s string) string {
	s = strings.TrimPrefix(s, "/")
	return strings.Replace(s, "/", ".", 1)
}

func describeOne(cmd *cobra.Command, stdio Stdio, s *session, name string, template bool) error {
	d, err := findSymbol(cmd, s, name)
	if err != nil {
		return err
	}
	if template {
		md, err := templateMessage(d)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s\n", schema.Template(md))
		return nil
	}
	kind := schema.Kind(d)
	fmt.Fprintf(stdio.Out, "%s is %s %s:\n%s", d.FullName(), article(kind), kind, schema.Print(d))
	return nil
}

// article is "a" or "an" before a kind, as it is said ("a oneof").
func article(kind string) string {
	if kind == "oneof" || !strings.ContainsRune("aeiou", rune(kind[0])) {
		return "a"
	}
	return "an"
}

func templateMessage(d protoreflect.Descriptor) (protoreflect.MessageDescriptor, error) {
	switch d := d.(type) {
	case protoreflect.MessageDescriptor:
		return d, nil
	case protoreflect.MethodDescriptor:
		return d.Input(), nil
	}
	return nil, fmt.Errorf("--template needs a message or a method; %s is a %s", d.FullName(), schema.Kind(d))
}
