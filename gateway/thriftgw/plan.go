package thriftgw

import (
	"net/http"
	"strconv"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

// plan is what a route needs per request, compiled at Load.
type plan struct {
	route   *Route
	args    *dynamic.Type // the function's arguments struct
	request *dynamic.Type // the struct the request's JSON and values fill
	wrapID  int16         // when request is the one struct argument: its id
	wrap    bool
	binds   []binding
	renames map[string]*dynamic.Field // api.body keys
	result  *dynamic.Type             // the success value's type; nil for void
	mask    *dynamic.FieldMask        // of the success value, or nil
	throws  map[int16]*exception
}

// exception is a declared exception of a function.
type exception struct {
	name   string
	status int
	t      *dynamic.Type
}

func newPlan(r *Route, cache *dynamic.Cache, masks map[*dynamic.Type]*dynamic.FieldMask, status map[string]int) *plan {
	fn := r.Function
	pl := &plan{route: r, args: cache.Type(structType(fn.Args))}
	pl.request = pl.args
	if !r.generic && len(fn.Args.Fields) == 1 && fn.Args.Fields[0].Type.Resolved().Kind.IsStruct() {
		a := fn.Args.Fields[0]
		pl.request, pl.wrap, pl.wrapID = cache.Type(a.Type), true, a.ID
	}
	if !r.generic {
		pl.binds, pl.renames = bindings(pl.request)
	}
	if fn.Return != nil && fn.Return.Kind != idl.VoidKind {
		pl.result = cache.Type(fn.Return)
		pl.mask = masks[pl.result]
	}
	if fn.Throws != nil {
		pl.throws = map[int16]*exception{}
		for _, f := range fn.Throws.Fields {
			pl.throws[f.ID] = newException(cache.Type(f.Type), status)
		}
	}
	return pl
}

func newException(t *dynamic.Type, status map[string]int) *exception {
	e := &exception{name: t.Struct.Name, status: httpCode(t), t: t}
	if n, ok := status[e.name]; ok {
		e.status = n
	}
	return e
}

// httpCode is the status of an exception's api.http_code annotation, else 500.
func httpCode(t *dynamic.Type) int {
	v, _ := t.Struct.Annotations.Get("api.http_code")
	if n, err := strconv.Atoi(v); err == nil && n >= 100 && n <= 599 {
		return n
	}
	return http.StatusInternalServerError
}

// structType is the type of an arguments struct; the IDL model gives an
// argument list no Ref of its own.
func structType(s *idl.Struct) *idl.Type {
	if s.Ref != nil {
		return s.Ref
	}
	return &idl.Type{Kind: idl.StructKind, Name: s.Name, File: s.File, Struct: s}
}
