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
