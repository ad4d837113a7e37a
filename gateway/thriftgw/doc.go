// Package thriftgw serves HTTP/JSON in front of a Thrift service, from its
// IDL at run time: no generated code.
//
// Routes come from the functions' annotations, the convention of Go Thrift
// frameworks (CloudWeGo Hertz): api.get, api.post, api.put, api.delete and
// api.patch = "/path/:id", with :name segments, a *name catch-all last and
// {name} accepted for :name. Every function also answers POST
// /Service/method, its body the arguments struct as JSON.
//
// On an annotated route the request struct is the function's one argument
// when that argument is a struct (Hertz's form), else its arguments
// struct. Its fields bind from the request by their annotations:
// api.path, api.query, api.header, api.cookie name where the value comes
// from; api.body names the field's key in the JSON body; any field is read
// from the body by its name. A bound value is typed by the field's Thrift
// type; a list or set takes repeated query parameters and comma lists.
// Values from the path, query, header or cookie win over the body's.
//
// The reply is the success value as JSON (thrift/transcode). A declared
// exception answers 500, or the status of the exception struct's
// api.http_code annotation, or Options.ExceptionStatus's, with the body
// {"exception": "Name", ...its fields}. A TApplicationException answers
// 501 (unknown method) or 502, an upstream that cannot be reached 503, a
// call past its deadline 504, all with a JSON body {"error": "..."}.
//
// A Gateway swaps its routes on Load (hot reload): requests in flight
// finish on the routes they began with. With Options.Metrics it serves
// Prometheus metrics of its requests at GET /metrics, named as the gRPC
// gateway's with protocol="thrift".
//
// Package thriftgw imports thrift/idl, thrift/wire, thrift/dynamic,
// thrift/transcode, thrift/client, internal/bodytimeout and the
// Prometheus client library.
package thriftgw
