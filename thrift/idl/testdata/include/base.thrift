// Found through the include path, not next to the files that include it.
namespace go rpckit.base
namespace * rpckit.base.all

typedef i64 Timestamp (unit = "ms")

enum Color {
  RED,
  GREEN = 5,
  BLUE
}

const i32 MAX_ITEMS = 100
const Color DEFAULT_COLOR = Color.GREEN

struct Point {
  1: required double x
  2: required double y = 0.5
}

exception NotFound {
  1: string what
  2: optional i32 code = 404
}

service Base {
  void ping()
  oneway void tick(1: Timestamp at)
}
