package cli

import (
	"fmt"
	"os"
	"sort"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// applyConfig reads a YAML or JSON file of flag settings, keyed by flag
// name, into fs: the file is another way to write the same flags, so it
// fills the same Options. Flags given on the command line win; ${VAR} in
// the file is replaced by the environment variable. The keys
// "target", "method" and "url" stand for the arguments; they are returned
// as args when the command line has none.
func applyConfig(fs *pflag.FlagSet, path string, args []string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	data = envRef.ReplaceAllFunc(data, func(ref []byte) []byte {
		return []byte(os.Getenv(string(envRef.FindSubmatch(ref)[1])))
	})
	var settings map[string]any
	if err := yaml.Unmarshal(data, &settings); err != nil {
		return nil, fmt.Errorf("--config %s: %w", path, err)
	}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		switch key {
		case "target", "method", "url":
			continue
		}
		if err := setFlag(fs, path, key, settings[key]); err != nil {
			return nil, err
		}
	}
	if len(args) == 0 {
		return configArgs(settings), nil
	}
	return args, nil
}

func configArgs(settings map[string]any) []string {
	if u, ok := settings["url"]; ok {
		return []string{fmt.Sprint(u)}
	}
	var args []string
	for _, k := range []string{"target", "method"} {
		if v, ok := settings[k]; ok {
			args = append(args, fmt.Sprint(v))
		}
	}
	return args
}

func setFlag(fs *pflag.FlagSet, path, key string, value any) error {
	f := fs.Lookup(key)
	if f == nil || key == "config" {
		return fmt.Errorf("--config %s: unknown setting %q (settings are flag names)", path, key)
	}
	if f.Changed {
		return nil
	}
	values, ok := value.([]any)
	if !ok {
		values = []any{value}
	}
	for _, v := range values {
		if err := fs.Set(key, scalar(v)); err != nil {
			return fmt.Errorf("--config %s: %s: %w", path, key, err)
		}
	}
	return nil
}

// scalar renders a YAML value as a flag would be written.
func scalar(v any) string {
	if m, ok := v.(map[string]any); ok {
		return fmt.Sprint(m) // rejected by the flag's parser with its own message
	}
	return fmt.Sprint(v)
}
