package gateway

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// jsonToYAML rewrites a JSON document as block-style YAML, keys in the
// order the JSON has them: JSON is YAML, so it is read as a node tree,
// and the tree written again without the JSON's flow style and quotes
// (the encoder quotes what would otherwise read as another type).
func jsonToYAML(js []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(js, &root); err != nil {
		return nil, fmt.Errorf("gateway: openapi: yaml: %w", err)
	}
	blockStyle(&root)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("gateway: openapi: yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("gateway: openapi: yaml: %w", err)
	}
	return b.Bytes(), nil
}

// blockStyle clears the styles of n and the nodes under it, so the
// encoder picks its own.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}
