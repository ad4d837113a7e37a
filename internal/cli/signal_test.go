//go:build unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// TestNotifyContextSignal: a SIGTERM cancels the context with a cause that
// is still a cancellation, wrapped or not, and Main's code for it is 143.
func TestNotifyContextSignal(t *testing.T) {
	ctx, stop := NotifyContext(context.Background())
	defer stop()
	if code := signalCode(ctx); code != 0 {
		t.Fatalf("before any signal: code %d", code)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	cause := context.Cause(ctx)
	if wrapped := fmt.Errorf("load: run stopped early: %w", cause); !errors.Is(wrapped, context.Canceled) {
		t.Errorf("cause %v is not context.Canceled", cause)
	}
	if code := signalCode(ctx); code != 143 {
		t.Errorf("code %d, want 143", code)
	}
}
