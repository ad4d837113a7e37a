// BenchService of thrift/testdata/bench.thrift with HTTP annotations, for the
// gateway's tests. The types come from bench.thrift; declared here is only what
// carries an annotation: PutMedium's request (the part of a Medium a request
// sets, under Medium's field ids, so that the Apache code generated from
// bench.thrift reads it), the exception's status, and the routes. Fail's code is
// required here, to see the gateway refuse a request without it.
include "bench.thrift"

// MediumRequest is a Medium whose fields bind to the parts of an HTTP request.
struct MediumRequest {
  1: string title (api.header = "X-Title")
  3: double ratio (api.path = "ratio")
  4: i32 code (api.body = "status_code")
  5: list<i32> counts (api.query = "counts")
  6: i64 total
  8: bench.Small head
  10: list<string> tags
  13: list<i64> ids (api.cookie = "ids")
}

exception BenchError {
  1: i32 code
  2: string message
} (api.http_code = "409")

service BenchService {
  bench.Small Echo(1: bench.Small req) (api.post = "/v1/small")
  bench.Medium GetMedium(1: i64 id (api.path = "id"), 2: string title (api.query = "title")) throws (1: BenchError err) (api.get = "/v1/medium/:id")
  bench.Medium PutMedium(1: MediumRequest req) (api.post = "/v1/medium", api.put = "/v1/medium/{ratio}")
  bench.MediumPart Trim(1: bench.Medium req) (api.post = "/v1/trim")
  bench.Large Grow(1: bench.Medium seed, 2: i32 pages) (api.post = "/v1/large")
  oneway void Notify(1: string event (api.path = "event")) (api.post = "/v1/notify/*event")
  void Fail(1: required i32 code, 2: string message) throws (1: BenchError err) (api.post = "/v1/fail")
}
