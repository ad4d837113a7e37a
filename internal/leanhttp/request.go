package leanhttp

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// A Header is one request header line.
type Header struct {
	Name, Value string
}

// request is what New makes of the URL and Options: the address to dial
// and the bytes of the request.
type request struct {
	addr       string
	bytes      []byte
	head       bool // a HEAD request: its response has no body
	idempotent bool
	close      bool // the request asks the server to close the connection
}

// newRequest serialises the request to rawURL.
func newRequest(rawURL string, o *Options) (*request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("leanhttp: %w", err)
	}
	if u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("leanhttp: %q is not a http:// URL with a host", rawURL)
	}
	method := o.Method
	if method == "" {
		method = "GET"
	}
	if !token(method) {
		return nil, fmt.Errorf("leanhttp: method %q is not a token", method)
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	r := &request{
		addr:       net.JoinHostPort(u.Hostname(), port),
		head:       method == "HEAD",
		idempotent: idempotent(method),
		close:      o.DisableKeepAlive,
	}
	b, err := r.serialise(method, u, o)
	if err != nil {
		return nil, err
	}
	r.bytes = b
	return r, nil
}

// serialise writes the request line, headers and body.
func (r *request) serialise(method string, u *url.URL, o *Options) ([]byte, error) {
	var b []byte
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, u.RequestURI()...)
	b = append(b, " HTTP/1.1\r\n"...)
	host, auth := u.Host, u.User != nil
	for _, h := range o.Header {
		if err := checkHeader(h); err != nil {
			return nil, err
		}
		switch {
		case strings.EqualFold(h.Name, "Host"):
			host = h.Value
			continue
		case strings.EqualFold(h.Name, "Authorization"):
			auth = false
		case strings.EqualFold(h.Name, "Connection") && hasToken(h.Value, "close"):
			r.close = true
			continue
		}
	}
	b = appendHeader(b, "Host", host)
	if auth {
		pw, _ := u.User.Password()
		b = appendHeader(b, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw)))
	}
	for _, h := range o.Header {
		if !strings.EqualFold(h.Name, "Host") && !strings.EqualFold(h.Name, "Connection") {
			b = appendHeader(b, h.Name, h.Value)
		}
	}
	if len(o.Body) > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
		b = appendHeader(b, "Content-Length", strconv.Itoa(len(o.Body)))
	}
	if r.close {
		b = appendHeader(b, "Connection", "close")
	}
	b = append(b, "\r\n"...)
	return append(b, o.Body...), nil
}

func appendHeader(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, ": "...)
	b = append(b, value...)
	return append(b, "\r\n"...)
}

// checkHeader refuses a header that would break the request's framing.
func checkHeader(h Header) error {
	switch {
	case !token(h.Name):
		return fmt.Errorf("leanhttp: header name %q is not a token", h.Name)
	case strings.ContainsAny(h.Value, "\r\n\x00"):
		return fmt.Errorf("leanhttp: header %s: the value holds a line break or NUL", h.Name)
	case strings.EqualFold(h.Name, "Content-Length"), strings.EqualFold(h.Name, "Transfer-Encoding"):
		return fmt.Errorf("leanhttp: header %s is the client's to set", h.Name)
	}
	return nil
}

// token reports whether s is an HTTP token (RFC 9110 5.6.2).
func token(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenByte(s[i]) {
			return false
		}
	}
	return true
}

func tokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// idempotent reports whether a request of method may be sent again.
func idempotent(method string) bool {
	switch method {
	case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE":
		return true
	}
	return false
}

// hasToken reports whether the comma-separated list v holds tok, in any
// case.
func hasToken(v, tok string) bool {
	for v != "" {
		var t string
		t, v, _ = strings.Cut(v, ",")
		if strings.EqualFold(strings.TrimSpace(t), tok) {
			return true
		}
	}
	return false
}
