// Package gateway is an http.Handler that puts REST/JSON, gRPC-Web and
// Connect in front of any gRPC service, from descriptors loaded at run
// time: routes come from google.api.http annotations, and every method is
// also served at POST /pkg.Service/Method. No generated code.
//
// # REST/JSON
//
// Path templates ({name}, {name=projects/*/items/*}, **), custom verbs,
// body "*" or a field, response_body and additional_bindings map as
// google.api.http says; query parameters set fields by proto or JSON name
// (nested a.b, repeated, enums by name or number, well-known types in their
// JSON string forms). A PATCH whose body is a message field gets the
// request's update_mask filled from the body's keys unless the query sets
// it. Server streams answer as newline-delimited JSON, {"result": message}
// per line and {"error": status} for a failure, or as Server-Sent Events
// for clients that accept text/event-stream; client and bidi streams take
// newline-delimited JSON bodies (concurrently with the responses on HTTP/2).
// Errors are a JSON google.rpc.Status with the HTTP status of its code.
//
// # OpenAPI
//
// OpenAPIJSON and OpenAPIYAML write the OpenAPI 3.1 document of a route
// table: an operation per route, path and query parameters as the gateway
// binds them, schemas in canonical proto3 JSON, errors as google.rpc.Status,
// .proto comments as descriptions. With Options.OpenAPI the gateway serves
// the document of the routes in use at GET /openapi.json and
// GET /openapi.yaml, written again at every load.
//
// # gRPC-Web
//
// Requests with Content-Type application/grpc-web(+proto) or
// application/grpc-web-text(+proto) at POST /pkg.Service/Method are
// proxied as gRPC: unary and server-streaming methods (gRPC-Web has no
// client streams), trailers in the body's last frame, trailers-only
// responses for calls that fail before their first message.
//
// # Connect
//
// The Connect protocol is served at /pkg.Service/Method, the path of the
// default REST route, which it shares. As in Vanguard, a request there is
// Connect when its Content-Type is application/connect+<codec> (a
// stream), when its Content-Type is application/<codec> and it has the
// header Connect-Protocol-Version: 1 (unary), or when it is a GET with the
// query parameter connect=v1; anything else is REST (application/json
// without the header included). The codecs are proto and json. Unary
// calls are POSTs, or GETs (?message=...&encoding=...&base64=1&
// compression=...) for methods whose idempotency_level is NO_SIDE_EFFECTS;
// errors are Connect's JSON ({"code": "not_found", "message", "details":
// [{"type", "value", "debug"}]}) with the HTTP status of the code.
// Streams are enveloped messages ending in an end-stream message with the
// error and the trailers; server and client streams work on HTTP/1.1 and
// HTTP/2, bidi streams on HTTP/2 only (505 on HTTP/1.1). Connect-Timeout-Ms
// sets the deadline; gzip is accepted (Content-Encoding,
// Connect-Content-Encoding) and sent to clients that accept it, for
// messages of 1 KiB and more. The body limits apply to messages once
// decompressed too.
//
// # Loading
//
// New loads the services from Options.Source; NewPending makes a gateway
// that answers 503 until its first Load, for an upstream that is not up
// yet. Load builds the routes and types of a Source's services off to the
// side and swaps them in whole: requests never wait for it, a failed Load
// keeps the routes in use, and the types of old routes go with them. With
// Options.Probes, GET /healthz and GET /readyz (503 until loaded) are
// served on the gateway's handler.
//
// # Metadata
//
// Authorization, X-Request-Id, Options.Headers and Grpc-Metadata-* (prefix
// removed) are forwarded; keys that are not valid metadata, grpc-* keys and
// x-forwarded-* from the client are not; a value gRPC cannot carry (text
// outside printable ASCII, a -bin value not in base64) is a 400
// INVALID_ARGUMENT on every route. x-forwarded-host and
// x-forwarded-for are set as grpc-gateway sets them. Response headers come
// back as Grpc-Metadata-*, trailers as Grpc-Trailer-* (plain headers for
// gRPC-Web, as its clients read them; for Connect, plain headers and
// Trailer-* headers of unary calls, the end-stream message's metadata of
// streams).
//
// # Differences from grpc-gateway
//
// The differential test in internal/gwtest sends the same requests to this
// gateway and to grpc-gateway's generated proxy in front of one upstream,
// and holds both to the same HTTP status and the same messages, except for
// these deliberate differences (each one a case in that test):
//
//   - Unknown query parameters and unknown JSON fields are 400 errors;
//     grpc-gateway ignores them, so a typo silently does nothing.
//   - A path that matches a template with another HTTP method is 405 with
//     an Allow header; grpc-gateway answers 501.
//   - Routing and decoding errors are the same codes and statuses with
//     messages of our own (naming the parameter, field or position).
//   - An escaped slash (%2F) stays inside its path segment, as the
//     google.api.http spec says; grpc-gateway decodes it first and then finds
//     no route (404).
//   - Well-known types in query parameters take their JSON forms only
//     (Duration "5400s", not Go's "90m"); field masks take proto or JSON
//     names.
//   - Every method is also served at POST /pkg.Service/Method.
//   - X-Request-Id is forwarded; grpc-gateway's default matcher forwards
//     only permanent HTTP headers, and Grpc-Metadata-* only with its
//     LegacyHeaderMatcher (which the test uses).
//   - Response trailers are Grpc-Trailer-* headers of a unary response;
//     grpc-gateway sends them as HTTP trailers, and only to clients that
//     send "TE: trailers".
//   - Stream responses are application/x-ndjson (grpc-gateway says
//     application/json for the same {"result": ...} lines).
//   - Responses leave out fields with default values (canonical proto3
//     JSON); grpc-gateway's default marshaler emits them all. Both parse to
//     the same messages.
//   - Request bodies are limited (Options.MaxBodyBytes: 413 and
//     RESOURCE_EXHAUSTED past it, streams and gRPC-Web included) and
//     timed (Options.BodyTimeout: 408 and DEADLINE_EXCEEDED past it).
//
// gateway may import rpckit's transcode, invoke, schema, dynamic and
// internal/bodytimeout packages, grpc-go and protobuf-go.
package gateway
