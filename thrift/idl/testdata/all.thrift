/*
 * Every construct of the IDL the parser understands, in one file; the
 * oracle test compares the parser's model of it with the Apache compiler's.
 */
include "shared.thrift"
include "base.thrift"

namespace go rpckit.all
namespace py rpckit_all
namespace cpp rpckit.all
cpp_include "<unordered_map>"

// Typedefs of every base type, of containers and of other typedefs.
typedef bool Flag
typedef byte Tiny
typedef i8 Small8
typedef i16 Short
typedef i32 Int
typedef i64 Long
typedef double Real
typedef string Text
typedef binary Blob
typedef Int Count (doc.note = "a typedef of a typedef")
typedef map<Text, list<Int>> Index
typedef set<shared.Shape> Shapes
typedef map<string, string> (kind = "labels") Labels

enum Status {
  UNKNOWN,
  ACTIVE = 1 (label = "on"),
  PAUSED = 0x10;
  STOPPED,
  NEGATIVE = -3,
  AFTER_NEGATIVE
  LAST = +2147483647
} (enum.note = "statuses")

enum Empty {}

// Constants in every literal form.
const i8 C_I8 = -128
const byte C_BYTE = 127
const i16 C_I16 = -0x8000
const i32 C_I32 = 0x7fffffff
const i64 C_I64 = -9223372036854775808
const i64 C_I64_MAX = 9223372036854775807
const i64 C_HEX = +0x1F
const double C_DOUBLE = 3.14159
const double C_EXP = -1.5e-10
const double C_EXP2 = 6E23
const double C_DOT = .25
const double C_FROM_INT = 42
const bool C_TRUE = true
const bool C_FALSE = false
const bool C_ONE = 1
const string C_DQ = "double \"quoted\" \t tab\n"
const string C_SQ = 'single \'quoted\' \\ backslash and "double" inside'
const string C_PATH = "a/b/c"
const binary C_BIN = "raw bytes"
const string C_UTF8 = "中文 колбаса äöüß"
const list<i32> C_LIST = [1, 2; 3 4,]
const set<string> C_SET = ["a", "b"]
const map<string, i32> C_MAP = {"one": 1, "two": 2; "three": 3}
const map<i32, string> C_INT_KEYS = {1: "a", -2: "b"}
const map<string, list<i32>> C_NESTED = {"primes": [2, 3, 5], "empty": []}
const list<map<string, double>> C_LIST_MAPS = [{"a": 1.5}, {"b": 2}]
const i32 C_REF = C_I32
const i64 C_REF_WIDEN = C_I32
const double C_REF_DOUBLE = C_I32
const list<i32> C_LIST_OF_REFS = [C_I32, C_I16, Status.ACTIVE]
const Status C_ENUM = Status.PAUSED
const Status C_ENUM_INT = 1
const i32 C_ENUM_AS_INT = Status.STOPPED
const list<Status> C_ENUMS = [Status.ACTIVE, Status.STOPPED]
const map<Status, string> C_ENUM_KEYS = {Status.ACTIVE: "active", Status.PAUSED: "paused"}
const base.Color C_INCLUDED_ENUM = base.Color.RED
const i32 C_INCLUDED_CONST = base.MAX_ITEMS
const Count C_TYPEDEF = 7
const Text C_TYPEDEF_TEXT = "typed"
const shared.Shape C_STRUCT = {"name": "triangle", "color": base.Color.BLUE, "path": [{"x": 0, "y": 0}, {"x": 1, "y": 1.5}]}

struct Everything {
  1: bool bool_field = true
  2: byte byte_field = 1
  3: i8 i8_field = -1
  4: i16 i16_field = 0x7FFF
  5: i32 i32_field
  6: i64 i64_field = C_I64_MAX
  7: double double_field = 1e3
  8: string string_field = 'it\'s'
  9: binary binary_field = "\r\n"
  10: required list<i32> list_field = [1, 2, 3]
  11: optional set<string> set_field = ["x"]
  12: map<string, i64> map_field = {"a": 1}
  13: list<list<list<string>>> nested_lists
  14: map<shared.Shape, set<Status>> struct_keys
  15: map<list<i32>, map<set<string>, Status>> container_keys
  16: Status enum_field = Status.ACTIVE
  17: optional Status enum_int_default = 0x10
  18: Count typedef_field = C_I32
  19: Index index
  20: Shapes shapes
  21: shared.Shape shape
  22: shared.Origin origin
  23: base.Timestamp stamp
  24: Labels labels (field.note = "annotated field", flag)
  25: list<i32> (container.note = "on the list") annotated_list
  26: map cpp_type "std::unordered_map<int32_t, std::string>" <i32, string> cpp_map
  27: set cpp_type "std::unordered_set<int32_t>" <i32> cpp_set
  28: list<i32> cpp_type "std::deque<int32_t>" cpp_list
  29: Everything & self_ref
  30: optional Everything recursive
  31: list<Status> statuses = [Status.ACTIVE, Status.STOPPED]
  32: Flag flag = false
  33: Blob blob
  34: Real real = C_DOUBLE
  35: Tiny tiny = C_BYTE
  36: Small8 small8
  37: Short short16 = C_I16
  38: Long long64 = C_I64
  39: Text text = C_DQ
  40: i32 xsd_field xsd_optional xsd_nillable
  41: Status any_prefix = base.Color.PAUSED // only the last part names the value, as for the compiler
  42: string utf8 = "ünïcödé" (note = "Umlauts äöü and 中文")
  32767: i32 max_id
}

const Everything C_EVERYTHING = {"i32_field": 3, "statuses": [Status.PAUSED], "text": "x"}

struct Implicit {
  i32 first
  2: i32 second
  string third,
  required i64 fourth;
  optional string fifth
}

struct Empty_ {}

struct XsdAll xsd_all {
  1: i32 a
}

union Either {
  1: string text
  2: i64 number = 5
  3: shared.Shape shape
  4: required double ignored_requiredness
} (union.note = "one of", flagged)

exception Failure {
  1: required string message = "failed"
  2: Status status
  3: optional map<string, string> details
} (exception.note = "thrown")

exception Other {
  1: i32 code
}

service Plain {}

service Everywhere extends shared.Shared {
  void nothing(),
  oneway void fire(1: string event, 2: i64 at);
  Everything echo(1: Everything e) throws (1: Failure failure, 2: Other other, 3: base.NotFound nf)
  list<map<string, Everything>> many(1: required i32 count, 2: optional string filter, i32 implicit_arg)
  Shapes shapes(1: Index index = {"a": [1]}) (fn.note = "annotated function", deprecated)
  Count counted(-1: i32 negative_id)
  base.Point point()
  Either pick(1: Status s = Status.PAUSED) throws (1: Failure f) (http.method = "GET", http.path = "/pick")
  async void legacy_async()
} (service.note = "the service", idempotent)

service Third extends Everywhere {
  Long again(1: Text t)
}
