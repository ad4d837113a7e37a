package leanhttp

import (
	"bytes"
	"testing"
	"testing/iotest"
)

// FuzzResponse feeds the reader any bytes, whole or a byte at a time: it
// never panics, never holds more than the limits allow, and a response it
// accepts has a final status.
func FuzzResponse(f *testing.F) {
	for _, s := range []string{
		okReply,
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x\r\nok\r\n0\r\nT: 1\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nto the end",
		"HTTP/1.1 200 OK\nContent-Length: 1\n\nx",
		"HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 3\r\n\r\n1\r\nx\r\n0\r\n\r\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, oneByte bool) {
		src := iotestReader(data, oneByte)
		rd := newReader(src, 256, 1024)
		resp, body, err := rd.readResponse(false, nil, true)
		if len(body) > 1024 || len(rd.buf) > 256 {
			t.Fatalf("body %d bytes, buffer %d: past the limits", len(body), len(rd.buf))
		}
		if err == nil && (resp.status < 200 || resp.status > 999) {
			t.Fatalf("status %d accepted", resp.status)
		}
	})
}

func iotestReader(data []byte, oneByte bool) *bytesReader {
	r := &bytesReader{r: bytes.NewReader(data)}
	if oneByte {
		r.one = iotest.OneByteReader(r.r)
	}
	return r
}

type bytesReader struct {
	r   *bytes.Reader
	one interface{ Read([]byte) (int, error) }
}

func (b *bytesReader) Read(p []byte) (int, error) {
	if b.one != nil {
		return b.one.Read(p)
	}
	return b.r.Read(p)
}
