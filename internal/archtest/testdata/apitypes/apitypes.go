// Package apitypes exports a third-party type three ways, and uses it
// where it stays inside.
package apitypes

import (
	"context"

	"github.com/spf13/pflag"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Flags returns a third-party type.
func Flags() *pflag.FlagSet { return nil }

// Options holds a third-party type in an exported field.
type Options struct {
	Set    []*pflag.FlagSet
	hidden *pflag.FlagSet
	Desc   protoreflect.MessageDescriptor
}

// Bind takes a third-party type in an exported method.
func (o Options) Bind(v pflag.Value) {}

func (o Options) bind(v pflag.Value) { o.hidden = nil }

// Run uses only allowed types.
func Run(ctx context.Context, md protoreflect.MessageDescriptor) error { return nil }
