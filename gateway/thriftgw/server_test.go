package thriftgw_test

import (
	"os"
	"testing"

	"github.com/rpckit/rpckit/internal/thrifttest"
)

// TestMain quiets the Apache server's logging.
func TestMain(m *testing.M) { os.Exit(thrifttest.Main(m)) }
