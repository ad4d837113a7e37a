// Package invoke calls a Thrift function with JSON, the twin of the
// module's invoke package for Thrift: the function's arguments struct is
// encoded from JSON with thrift/transcode, sent through thrift/client
// (oneway functions too), and the reply's result struct decoded back to
// the JSON of its success value.
//
// A declared exception (a field of the result struct other than success)
// is an [*Exception] carrying the exception type's name and its JSON; an
// application exception (a reply of type EXCEPTION) is thrift/client's
// [*client.ApplicationError] with its type. Errors of the call itself
// (dialing, timeouts, framing) are thrift/client's, as they are.
//
// [Template] and [ArgsTemplate] give sample JSON of a struct and of a
// function's arguments, every field filled in, for an editor to start
// from (describe --template, the ui).
//
// The functions come from a model parsed by thrift/idl, includes already
// resolved. Package invoke imports thrift/idl, thrift/wire, thrift/dynamic,
// thrift/transcode and thrift/client.
package invoke
