package cli_test

import (
	"encoding/hex"
	"net"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// rawsend ADDR HEX connects to ADDR over TCP, writes the bytes HEX spells,
// and waits (at most 5 s) for the server to close the connection.
func init() {
	scriptCmds["rawsend"] = cmdRawSend
}

func cmdRawSend(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rawsend ADDR HEX")
	}
	b, err := hex.DecodeString(args[1])
	ts.Check(err)
	c, err := net.DialTimeout("tcp", args[0], 5*time.Second)
	ts.Check(err)
	defer c.Close()
	_, err = c.Write(b)
	ts.Check(err)
	ts.Check(c.SetReadDeadline(time.Now().Add(5 * time.Second)))
	var buf [512]byte
	for {
		if _, err := c.Read(buf[:]); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				ts.Fatalf("rawsend: %s kept the connection open", args[0])
			}
			return
		}
	}
}
