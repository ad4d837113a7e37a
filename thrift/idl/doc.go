// Package idl parses Apache Thrift IDL at run time into a resolved model:
// files with their namespaces and includes, typedefs, enums, structs,
// unions, exceptions, constants with typed values, and services with their
// functions. Every type reference in the model is a pointer to a resolved
// Type; typedefs stay visible (TypedefKind) and Type.Resolved looks
// through them. Annotations, `(key = "value")`, are kept on every element
// that can carry them, and doc comments (/** ... */) on the elements the
// Apache compiler gives them to.
//
// The grammar is that of the Apache compiler (thrifty.yy), including its
// implicit negative field ids, `byte` as an alias of i8, `async` as an
// alias of oneway, cpp_type, cpp_include, `&` references and the xsd_*
// keywords; uuid is a base type as in Thrift 0.19 and later.
//
// Errors are *Error values carrying a Pos (file:line:col); parsing never
// panics and its work is bounded (Options.MaxDepth, a limit on constant
// sizes).
//
// idl is the base of rpckit's Thrift side: its codecs, JSON mapping, client
// and gateway routes are built from this model. It imports only the
// standard library, and reads files only through the fs.FS it is given.
package idl
