// A copy of thrift/testdata/bench.thrift for the gateway's tests, wire-compatible with
// it (the Apache code generated from it serves these tests): the same fields and ids,
// more HTTP annotations. Fail's code is required here, to see the gateway refuse a
// request without it.
namespace go rpckit.bench
namespace py rpckit_bench

enum Level { LOW = 1, MID = 2, HIGH = 3 }

typedef i64 Millis

struct Small {
  1: byte tiny
  2: i64 id (api.js_conv = "true")
  3: double score
  4: i32 count
  5: string name
  6: binary blob
}

struct SmallPart {
  1: byte tiny
  3: double score
  6: binary blob
}

struct Medium {
  1: string title (api.header = "X-Title")
  2: list<Small> items
  3: double ratio (api.path = "ratio")
  4: i32 code (api.body = "status_code")
  5: list<i32> counts (api.query = "counts")
  6: i64 total
  7: map<string, string> labels
  8: Small head
  9: map<i32, i64> totals
  10: list<string> tags
  11: binary raw
  12: map<i64, string> names
  13: list<i64> ids (api.cookie = "ids")
  14: byte flag
  15: map<string, Small> byName
  16: optional Level level
  17: optional Millis at
  18: set<string> kinds
}

struct MediumPart {
  2: list<SmallPart> items
  8: SmallPart head
  15: map<string, SmallPart> byName
}

struct Large {
  1: map<Small, Medium> bySmall
  2: Small head
  3: byte flag
  4: double ratio
  5: list<Medium> pages
  6: i64 total
  7: Medium main
  8: binary raw
  9: string note
  10: set<Medium> unique
  11: i32 count
}

union Pick {
  1: Small small
  2: string text
  3: i64 number
}

exception BenchError {
  1: i32 code
  2: string message
} (api.http_code = "409")

service BenchService {
  Small Echo(1: Small req) (api.post = "/v1/small")
  Medium GetMedium(1: i64 id (api.path = "id"), 2: string title (api.query = "title")) throws (1: BenchError err) (api.get = "/v1/medium/:id")
  Medium PutMedium(1: Medium req) (api.post = "/v1/medium", api.put = "/v1/medium/{ratio}")
  MediumPart Trim(1: Medium req) (api.post = "/v1/trim")
  Large Grow(1: Medium seed, 2: i32 pages) (api.post = "/v1/large")
  oneway void Notify(1: string event (api.path = "event")) (api.post = "/v1/notify/*event")
  void Fail(1: required i32 code, 2: string message) throws (1: BenchError err) (api.post = "/v1/fail")
}
