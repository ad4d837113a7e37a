package client

import "github.com/rpckit/rpckit/thrift/wire"

// ResultField returns the field set in a result struct, as Call returns
// it: field 0 is the success value, any other id a declared exception
// (the throws clause's field id). ok is false when no field is set, the
// success of a void method (or a reply missing its result).
func ResultField(p wire.Protocol, reply []byte) (f wire.Field, ok bool, err error) {
	it := wire.NewIter(p, reply, 0)
	for it.Next() {
		if !ok {
			f, ok = it.Field(), true
		}
	}
	if err := it.Err(); err != nil {
		return wire.Field{}, false, err
	}
	return f, ok, nil
}

// ResultValue is the value bytes of f, a field ResultField found in reply,
// as thrift/dynamic and thrift/transcode read a value. A compact bool holds
// its value in the field's header, so it is encoded on its own.
func ResultValue(p wire.Protocol, f wire.Field, reply []byte) []byte {
	if f.Type == wire.Bool && p == wire.Compact {
		return p.AppendBool(nil, f.Bool)
	}
	return f.Payload(reply)
}
