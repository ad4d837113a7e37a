package thriftgw

import (
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/transcode"
)

// writeReply answers with the result struct of a call: the success value,
// or a declared exception.
func (g *Gateway) writeReply(sc *scratch, pl *plan, reply []byte) {
	w := &sc.rec
	p := g.opts.Protocol
	f, ok, err := client.ResultField(p, reply)
	if err != nil {
		writeError(w, http.StatusBadGateway, "unreadable reply: "+err.Error())
		return
	}
	if !ok {
		if pl.result != nil {
			writeError(w, http.StatusBadGateway, "the reply has no result (MISSING_RESULT)")
			return
		}
		writeJSON(w, http.StatusOK, []byte("{}"))
		return
	}
	if f.ID == 0 && pl.result != nil {
		g.writeSuccess(sc, pl, client.ResultValue(p, f, reply))
		return
	}
	if e := pl.throws[f.ID]; e != nil {
		g.writeException(w, e, client.ResultValue(p, f, reply))
		return
	}
	writeError(w, http.StatusBadGateway, "the reply holds field "+strconv.Itoa(int(f.ID))+", not in the IDL")
}

// writeSuccess answers the success value val as JSON, written in
// sc.resp.
func (g *Gateway) writeSuccess(sc *scratch, pl *plan, val []byte) {
	w := &sc.rec
	p := g.opts.Protocol
	if pl.mask != nil {
		masked, err := dynamic.NewValue(pl.result, p, val).Mask(nil, pl.mask)
		if err != nil {
			writeError(w, http.StatusBadGateway, "unreadable reply: "+err.Error())
			return
		}
		val = masked
	}
	out, err := transcode.MarshalOptions{Protocol: p}.MarshalValue(slices.Grow(sc.resp[:0], 2*len(val)+16), pl.result, val)
	sc.resp = out
	if err != nil {
		writeError(w, http.StatusBadGateway, "unreadable reply: "+trimPkg(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// writeException answers {"exception": "Name", ...its fields}.
func (g *Gateway) writeException(w http.ResponseWriter, e *exception, val []byte) {
	out := append([]byte(`{"exception":`), strconv.Quote(e.name)...)
	fields, err := transcode.MarshalOptions{Protocol: g.opts.Protocol}.MarshalValue(nil, e.t, val)
	if err != nil {
		writeError(w, http.StatusBadGateway, "unreadable exception "+e.name+": "+trimPkg(err))
		return
	}
	if len(fields) > 2 {
		out = append(append(out, ','), fields[1:]...)
	} else {
		out = append(out, '}')
	}
	writeJSON(w, e.status, out)
}

// writeCallError answers a call that got no result struct.
func writeCallError(w http.ResponseWriter, ctx context.Context, err error) {
	var ae *client.ApplicationError
	var oe *net.OpError
	switch {
	case errors.As(err, &ae):
		status := http.StatusBadGateway
		if ae.Type == client.UnknownMethod {
			status = http.StatusNotImplemented
		}
		writeJSON(w, status, errorBody(ae.Message, ae.Type.String()))
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "the upstream did not answer in time")
	case errors.As(err, &oe) && oe.Op == "dial":
		writeError(w, http.StatusServiceUnavailable, "upstream unavailable: "+oe.Err.Error())
	case errors.Is(err, context.Canceled):
		writeError(w, 499, "the client went away")
	default:
		writeError(w, http.StatusBadGateway, "upstream call failed: "+trimPkg(err))
	}
}

func trimPkg(err error) string {
	s := err.Error()
	for _, p := range [...]string{"thrift/transcode: ", "thrift/client: ", "thrift/dynamic: "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

func errorBody(msg, typ string) []byte {
	b := append([]byte(`{"error":`), strconv.Quote(msg)...)
	if typ != "" {
		b = append(append(b, `,"type":`...), strconv.Quote(typ)...)
	}
	return append(b, '}')
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody(msg, ""))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}
