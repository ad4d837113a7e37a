package thriftgw

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// httpError is a request the gateway refuses before calling.
type httpError struct {
	status int
	msg    string
}

// requestArgs builds the encoded arguments struct of the call from the
// request's body and bound values.
func (g *Gateway) requestArgs(sc *scratch, r *http.Request, pl *plan, ps []param) ([]byte, *httpError) {
	body, herr := g.readBody(sc, r)
	if herr != nil {
		return nil, herr
	}
	js, herr := compose(r, pl, ps, body)
	if herr != nil {
		return nil, herr
	}
	p := g.opts.Protocol
	dst := sc.args[:0]
	if pl.wrap {
		dst = p.AppendFieldHeader(dst, wire.Struct, pl.wrapID, 0)
	}
	dst, err := transcode.UnmarshalOptions{Protocol: p}.UnmarshalAppend(dst, pl.request, js)
	sc.args = dst
	if err != nil {
		return nil, &httpError{http.StatusBadRequest, "invalid request: " + strings.TrimPrefix(err.Error(), "thrift/transcode: ")}
	}
	if pl.wrap {
		dst = p.AppendStop(dst)
		sc.args = dst
	}
	return dst, nil
}

// readBody reads the request body into sc.body, bounded in size and
// time; no body is an empty object.
func (g *Gateway) readBody(sc *scratch, r *http.Request) ([]byte, *httpError) {
	w := &sc.rec
	if r.Body == nil || r.Body == http.NoBody {
		return []byte("{}"), nil
	}
	timeout := g.opts.BodyTimeout
	if timeout == 0 {
		timeout = bodytimeout.Default
	}
	body := bodytimeout.New(w, r, timeout)
	defer body.Close()
	b, err := readAll(sc.body[:0], http.MaxBytesReader(w, body, g.opts.MaxBodyBytes), r.ContentLength, g.opts.MaxBodyBytes)
	sc.body = b
	var mbe *http.MaxBytesError
	var te *bodytimeout.Error
	switch {
	case errors.As(err, &mbe):
		return nil, &httpError{http.StatusRequestEntityTooLarge, "request body larger than " + strconv.FormatInt(mbe.Limit, 10) + " bytes"}
	case errors.As(err, &te):
		return nil, &httpError{http.StatusRequestTimeout, "request body too slow to arrive"}
	case err != nil:
		return nil, &httpError{http.StatusBadRequest, "reading the request body: " + err.Error()}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return []byte("{}"), nil
	}
	return b, nil
}

// compose merges the bound values into the body's JSON object: members
// the values replace (and api.body keys) are blanked out in place and the
// values appended before the closing brace, so that the body's own
// positions stay those the client sent for the errors that name them.
func compose(r *http.Request, pl *plan, ps []param, body []byte) ([]byte, *httpError) {
	if len(pl.binds) == 0 && len(pl.renames) == 0 {
		return body, nil
	}
	var extra []byte
	bound := map[string]bool{}
	for i := range pl.binds {
		b := &pl.binds[i]
		vals := b.values(r, ps)
		if len(vals) == 0 || bound[b.field.Name] {
			continue
		}
		extra = appendKey(extra, b.field.Name)
		var err error
		if extra, err = b.appendJSON(extra, vals); err != nil {
			return nil, &httpError{http.StatusBadRequest, err.Error()}
		}
		bound[b.field.Name] = true
	}
	if len(extra) == 0 && len(pl.renames) == 0 {
		return body, nil // nothing bound: the body as sent
	}
	ms, end, err := members(body)
	if err != nil {
		return body, nil // not an object: transcode says where
	}
	out := append([]byte(nil), body...)
	for _, m := range ms {
		if f, ok := pl.renames[m.key]; ok {
			if !bound[f.Name] {
				extra = appendKey(extra, f.Name)
				extra = append(extra, body[skipWS(body, colonAfter(body, m.start)+1):m.end]...)
				bound[f.Name] = true
			}
			blank(out, m)
		} else if f := fieldOf(pl.request, m.key); f != nil && bound[f.Name] {
			blank(out, m)
		}
	}
	if len(extra) == 0 {
		return body, nil
	}
	return splice(out, end, extra), nil
}

// fieldOf is the field a JSON key names, by name or id.
func fieldOf(t *dynamic.Type, key string) *dynamic.Field {
	if f := t.FieldByName(key); f != nil {
		return f
	}
	if id, err := strconv.ParseInt(key, 10, 16); err == nil {
		return t.FieldByID(int16(id))
	}
	return nil
}

func appendKey(dst []byte, name string) []byte {
	if len(dst) > 0 {
		dst = append(dst, ',')
	}
	dst = strconv.AppendQuote(dst, name)
	return append(dst, ':')
}

// colonAfter is the offset of the colon after the key at start.
func colonAfter(b []byte, start int) int {
	end, _ := skipString(b, start)
	return skipWS(b, end)
}

// splice inserts the members extra before the closing brace at end.
func splice(b []byte, end int, extra []byte) []byte {
	out := make([]byte, 0, len(b)+len(extra)+1)
	out = append(out, b[:end]...)
	if k := lastNonWS(b, end); k >= 0 && b[k] != '{' {
		out = append(out, ',')
	}
	out = append(out, extra...)
	return append(out, b[end:]...)
}

// readAll appends r whole to b, growing it first to the request's
// Content-Length when it gives one (within limit).
func readAll(b []byte, r io.Reader, size, limit int64) ([]byte, error) {
	if size > 0 && size <= limit {
		b = slices.Grow(b, int(size)+1)
	}
	if cap(b) == len(b) {
		b = slices.Grow(b, 512)
	}
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
