package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/rpctest"
)

// endless is an input that never ends: head, then tail over and over. It
// counts what is read from it, and gives up with an error past a quarter
// GiB so that a reader without a limit fails the test rather than the
// machine.
type endless struct {
	head, tail []byte
	read       int64
}

const endlessGiveUp = 256 << 20

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= endlessGiveUp {
		return 0, errors.New("test input: read past 256 MiB")
	}
	n := 0
	for n < len(p) {
		src := e.tail
		if e.read+int64(n) < int64(len(e.head)) {
			src = e.head[e.read+int64(n):]
		} else {
			src = src[(e.read+int64(n)-int64(len(e.head)))%int64(len(e.tail)):]
		}
		n += copy(p[n:], src)
	}
	e.read += int64(n)
	return n, nil
}

// TestEndlessInput feeds each command that reads stdin an input that never
// ends: it must fail with a message saying what is wrong, having read at
// most a little more than what it needed to tell.
func TestEndlessInput(t *testing.T) {
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	schema := []string{"--proto", "rpckit/test/v1/test.proto", "-I", "../../proto"}
	convert := append([]string{"convert", "--type", "rpckit.test.v1.Item"}, schema...)
	call := []string{"call", "--plaintext", srv.Addr, "rpckit.test.v1.Test/Echo", "-d", "@-"}
	const slack = 1 << 20 // what the reading code may have read past the point
	for _, tc := range []struct {
		name     string
		args     []string
		in       *endless
		want     string
		maxBytes int64
	}{
		{"convert binary zeros", convert, &endless{tail: []byte{0}},
			"input is not a valid rpckit.test.v1.Item: byte 0: field number 0", slack},
		{"convert binary huge field", convert, &endless{head: []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, tail: []byte{'a'}},
			"byte 0: field 1 is 4294967295 bytes long, past the 64 MiB limit (--max-msg-size)", slack},
		{"convert binary endless fields", append(convert, "--max-msg-size", "1MiB"), &endless{tail: []byte{0x08, 0x01}},
			"input is larger than the 1 MiB limit (--max-msg-size)", 1<<20 + slack},
		{"convert json zeros", append(convert, "--from", "json"), &endless{tail: []byte{0}},
			"the input looks like protobuf binary, not JSON; leave out --from json to read binary", slack},
		{"convert json endless string", append(convert, "--from", "json", "--max-msg-size", "1MiB"), &endless{head: []byte(`{"name":"`), tail: []byte("a")},
			"message 1 is larger than the 1 MiB limit (--max-msg-size)", 1<<20 + slack},
		{"convert json garbage in value", append(convert, "--from", "json"), &endless{head: []byte(`{"name": `), tail: []byte{0xff}},
			`message 1: invalid JSON at line 1 col 10: invalid character '\xff' looking for beginning of value`, slack},
		{"call endless object", call, &endless{head: []byte(`{"item":{"tags":[`), tail: []byte(`"x",`)},
			"request 1 is larger than the 64 MiB limit (--max-msg-size)", 64<<20 + slack},
		{"call zeros", call, &endless{tail: []byte{0}},
			`request 1: invalid JSON at line 1 col 1: invalid character '\x00' looking for beginning of value`, slack},
		{"bench body", []string{"bench", "-n", "1", "--body", "@-", "--max-msg-size", "1MiB", "http://127.0.0.1:1/ok"}, &endless{tail: []byte("x")},
			"input is larger than the 1 MiB limit (--max-msg-size)", 1<<20 + slack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(context.Background(), tc.args, Stdio{In: tc.in, Out: &out, Err: &errOut})
			if code != 1 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), tc.want)
			}
			if tc.in.read > tc.maxBytes {
				t.Errorf("read %d bytes, want at most %d", tc.in.read, tc.maxBytes)
			}
		})
	}
}

var _ io.Reader = (*endless)(nil)
