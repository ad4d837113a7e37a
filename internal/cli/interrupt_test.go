package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestInterruptibleReadsThrough(t *testing.T) {
	in := strings.Repeat("0123456789", 20000)
	r := interruptible(context.Background(), iotest.OneByteReader(strings.NewReader(in)))
	got, err := io.ReadAll(iotest.HalfReader(r))
	if err != nil || string(got) != in {
		t.Fatalf("read %d bytes, %v; want %d bytes", len(got), err, len(in))
	}
}

func TestInterruptibleEndsBlockedRead(t *testing.T) {
	pr, pw := io.Pipe() // never written: a read blocks until closed
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := interruptible(ctx, pr)
	errc := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 10))
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v, want context.Canceled", err)
	}
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, context.Canceled) {
		t.Fatalf("second read: %v, want context.Canceled", err)
	}
}
