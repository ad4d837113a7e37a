package transcode

import "github.com/rpckit/rpckit/dynamic"

// UnmarshalFieldAppend appends to dst the wire form of json as the value
// of the field f: its record, the records of a repeated field (json an
// array) or of a map (an object). A field without presence holding its
// zero value appends nothing, as proto.Marshal writes nothing for it. It
// is for values that come a field at a time, such as URL query
// parameters; appended to a message, the records merge into it. On error
// it returns dst unchanged in length.
func (o UnmarshalOptions) UnmarshalFieldAppend(dst []byte, f *dynamic.Field, json []byte) ([]byte, error) {
	var d decoder
	d.in, d.out = json, dst
	d.init(o)
	var fr frame
	err := d.fieldValue(f, &fr, 0)
	if err == nil {
		if d.skipWS(); d.pos < len(d.in) {
			err = d.errUnexpected(d.pos)
		}
	}
	if err != nil {
		return dst, d.finish(err, streamPos{})
	}
	return d.out, nil
}
