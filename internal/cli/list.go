package cli

import (
	"fmt"

	"github.com/rpckit/rpckit/schema"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func newListCmd(stdio Stdio) *cobra.Command {
	var cf connFlags
	var sf schemaFlags
	var idf idlFlags
	cmd := &cobra.Command{
		Use:   "list [TARGET] [SERVICE]",
		Short: "List the services of a server, or the methods of one service",
		Example: `  rpckit list --plaintext 127.0.0.1:50051
  rpckit list --plaintext 127.0.0.1:50051 rpckit.ranking.v1.RankingService
  rpckit list --proto api.proto
  rpckit list --idl api.thrift api.OrderService`,
		Args: argsBetween(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest := splitTarget(args)
			if len(rest) > 1 {
				return usagef("want at most one service name, got %q", rest)
			}
			if idf.file != "" {
				return runListIDL(stdio, &idf, &sf, target, rest)
			}
			s, err := open(cmd.Context(), target, &cf, &sf)
			if err != nil {
				return err
			}
			defer s.close()
			if len(rest) == 0 {
				return listServices(cmd, stdio, s)
			}
			return listMethods(cmd, stdio, s, rest[0])
		},
	}
	cf.register(cmd.Flags())
	sf.register(cmd.Flags())
	idf.register(cmd.Flags())
	return cmd
}

func listServices(cmd *cobra.Command, stdio Stdio, s *session) error {
	names, err := s.source.Services(cmd.Context())
	if err != nil {
		return err
	}
	for _, n := range names {
		fmt.Fprintln(stdio.Out, n)
	}
	return nil
}

func listMethods(cmd *cobra.Command, stdio Stdio, s *session, name string) error {
	d, err := findSymbol(cmd, s, name)
	if err != nil {
		return err
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return fmt.Errorf("%q is a %s, not a service", name, schema.Kind(d))
	}
	for i := range sd.Methods().Len() {
		fmt.Fprintln(stdio.Out, sd.Methods().Get(i).FullName())
	}
	return nil
}

// findSymbol looks a symbol up, naming close matches when it is unknown.
func findSymbol(cmd *cobra.Command, s *session, name string) (protoreflect.Descriptor, error) {
	d, err := s.source.FindSymbol(cmd.Context(), protoreflect.FullName(name))
	if err == nil {
		return d, nil
	}
	return nil, schema.SuggestSymbol(cmd.Context(), s.source, name, err)
}
