package thriftgw_test

import (
	"log/slog"
	"os"
	"testing"
)

// TestMain quiets the Apache server's logging.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}
