package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripts' commands for slow and idle clients:
//
//	idleconn URL      GET URL on a keep-alive connection, then wait (at most
//	                  20 s) for the server to close it; stdout gets the
//	                  status line and "closed when idle"
//	slowpost URL      POST a 200-byte JSON body to URL a byte every 50 ms
//	                  (10 s in all); stdout gets the status line, if any,
//	                  and whether the server closed the connection before
//	                  the body was sent
func init() {
	scriptCmds["idleconn"] = cmdIdleConn
	scriptCmds["slowpost"] = cmdSlowPost
}

func dialURL(ts *testscript.TestScript, raw string) (net.Conn, *url.URL) {
	u, err := url.Parse(raw)
	ts.Check(err)
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	ts.Check(err)
	return conn, u
}

func cmdIdleConn(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: idleconn URL")
	}
	conn, u := dialURL(ts, args[0])
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host)
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	ts.Check(err)
	_, err = io.Copy(io.Discard, resp.Body)
	ts.Check(err)
	resp.Body.Close()
	fmt.Fprintln(ts.Stdout(), resp.Status)
	if _, err := br.ReadByte(); err != io.EOF {
		ts.Fatalf("idleconn: the connection was not closed when idle (%v)", err)
	}
	fmt.Fprintln(ts.Stdout(), "closed when idle")
}

func cmdSlowPost(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: slowpost URL")
	}
	conn, u := dialURL(ts, args[0])
	defer conn.Close()
	body := `{"number":1` + strings.Repeat(" ", 188) + `}`
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		u.RequestURI(), u.Host, len(body))
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	status, closed := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(closed)
		br := bufio.NewReader(conn)
		if resp, err := http.ReadResponse(br, nil); err == nil {
			status <- resp.Status
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			for err == nil {
				_, err = br.ReadByte()
			}
		}
	}()
	sent := 0
	for ; sent < len(body); sent++ {
		if _, err := conn.Write([]byte{body[sent]}); err != nil {
			break
		}
		select {
		case <-closed:
		case <-time.After(50 * time.Millisecond):
			continue
		}
		break
	}
	select {
	case s := <-status:
		fmt.Fprintln(ts.Stdout(), s)
	case <-time.After(20 * time.Second):
	}
	if sent < len(body) {
		fmt.Fprintln(ts.Stdout(), "closed before the body was sent")
	} else {
		fmt.Fprintln(ts.Stdout(), "the body was sent whole")
	}
}
