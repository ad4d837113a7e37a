package transcode

import "github.com/rpckit/rpckit/internal/jsonx"

// JSON strings are written as protojson writes them: '"', '\\' and the
// control characters escaped, with \b \f \n \r \t where they exist and
// \u00XX (lower case hex) otherwise; nothing else. One pass of
// utf8x.CopyJSON (vector code on amd64) copies the bytes to the output as
// it checks that they are UTF-8 and finds the first byte to escape; most
// strings have none and are done. Past an escape, utf8x.NextEscape finds the
// next one eight bytes at a time, and the runs between them are copied
// whole.

// str writes s as a JSON string, or reports false, having written nothing,
// if s is not UTF-8.
func (e *encoder) str(s []byte) bool {
	out, ok := jsonx.AppendString(e.out, s)
	if ok {
		e.set(out)
	}
	return ok
}
