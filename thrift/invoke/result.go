package invoke

import (
	"encoding/json"
	"fmt"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Exception is a declared exception of a function: the name of its type
// and its JSON.
type Exception struct {
	Function string // Service.function
	Name     string // the exception type's name, as the IDL declares it
	JSON     json.RawMessage
}

func (e *Exception) Error() string {
	return "thrift/invoke: " + e.Function + ": exception " + e.Name
}

// result decodes reply, fn's result struct of type t in protocol p: the
// JSON of the success value (nil when no field is set), or the declared
// exception as an *Exception. Enums are written by name.
func result(fn *idl.Function, t *dynamic.Type, p wire.Protocol, reply []byte) (json.RawMessage, error) {
	f, ok, err := client.ResultField(p, reply)
	if err != nil {
		return nil, fmt.Errorf("thrift/invoke: %s: reading the result: %w", fn.Name, err)
	}
	if !ok {
		return nil, nil
	}
	field := t.FieldByID(f.ID)
	if field == nil {
		return nil, fmt.Errorf("thrift/invoke: %s: the result's field %d is not in the IDL", fn.Name, f.ID)
	}
	if f.Type != field.Type.Wire {
		return nil, fmt.Errorf("thrift/invoke: %s: the result's field %d is a %s, not the IDL's %s", fn.Name, f.ID, f.Type, field.Type.Wire)
	}
	value, err := transcode.MarshalOptions{Protocol: p, EnumNames: true}.MarshalValue(nil, field.Type, client.ResultValue(p, f, reply))
	if err != nil {
		return nil, fmt.Errorf("thrift/invoke: %s: the result: %w", fn.Name, err)
	}
	if f.ID == 0 {
		return value, nil
	}
	return nil, &Exception{Function: fn.Service.Name + "." + fn.Name, Name: field.IDL.Type.Name, JSON: value}
}
