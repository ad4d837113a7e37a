package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// defaultMaxMsgSize is --max-msg-size's default: the largest request
// message read from input, and the largest message sent or received.
const defaultMaxMsgSize = 64 << 20

// byteSize is a flag value in bytes, written as a number with an optional
// unit: 1048576, 1024KiB, 1MiB, 1GiB.
type byteSize int

var sizeUnits = []struct {
	suffix string
	scale  int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}, {"", 1}}

func (b *byteSize) Set(s string) error {
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if err != nil || n <= 0 || n > math.MaxInt32/u.scale {
			break
		}
		*b = byteSize(n * u.scale)
		return nil
	}
	return fmt.Errorf("want a size below 2 GiB, like 1048576, 512KiB or 64MiB")
}

func (b *byteSize) Type() string { return "size" }

func (b *byteSize) String() string { return formatSize(int(*b)) }

// formatSize writes n in the largest unit that divides it.
func formatSize(n int) string {
	for _, u := range sizeUnits[:3] {
		if n >= int(u.scale) && int64(n)%u.scale == 0 {
			return fmt.Sprintf("%d %s", int64(n)/u.scale, u.suffix)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxMsgSize is cmd's --max-msg-size, or the default if it has none.
func maxMsgSize(cmd *cobra.Command) int {
	if f := cmd.Flags().Lookup("max-msg-size"); f != nil {
		if b, ok := f.Value.(*byteSize); ok {
			return int(*b)
		}
	}
	return defaultMaxMsgSize
}
