package cli

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// printScenario writes the scenario file a command line means: the run's
// outputs at the top level, and one flow with the target and every other
// flag given. Run with --scenario, the file makes the same run.
func printScenario(cmd *cobra.Command, w io.Writer, args []string) error {
	if cmd.Flags().Changed("scenario") {
		return usagef("--print-scenario describes a command line; a scenario file is one already")
	}
	if !(len(args) == 1 && isURL(args[0]) || len(args) == 2 && !isURL(args[0])) {
		return usagef("want TARGET METHOD for gRPC or a URL for HTTP, got %q", args)
	}
	top := &yaml.Node{Kind: yaml.MappingNode}
	flow := &yaml.Node{Kind: yaml.MappingNode}
	addScalar(flow, "name", flowName(args))
	if len(args) == 2 {
		addScalar(flow, "target", args[0])
		addScalar(flow, "method", args[1])
	} else {
		addScalar(flow, "url", args[0])
	}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		switch {
		case fl.Name == "print-scenario" || fl.Name == "config":
		case runKeys[fl.Name]:
			addFlag(top, fl)
		default:
			addFlag(flow, fl)
		}
	})
	addKey(top, "flows")
	top.Content = append(top.Content, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{flow}})
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(top); err != nil {
		return err
	}
	return enc.Close()
}

func addKey(m *yaml.Node, key string) {
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key})
}

// addScalar adds key: value, a string quoted if it would read as another
// type.
func addScalar(m *yaml.Node, key, value string) {
	addKey(m, key)
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
}

// addFlag adds a flag's value as the file would set it: a list for a flag
// given several times.
func addFlag(m *yaml.Node, fl *pflag.Flag) {
	if sv, ok := fl.Value.(pflag.SliceValue); ok {
		addKey(m, fl.Name)
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, v := range sv.GetSlice() {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v})
		}
		m.Content = append(m.Content, seq)
		return
	}
	switch fl.Value.Type() {
	case "bool", "int", "int64", "float64", "uint":
		addKey(m, fl.Name)
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: fl.Value.String()})
	default:
		addScalar(m, fl.Name, fl.Value.String())
	}
}
