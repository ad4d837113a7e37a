# Included relative to the including file; itself includes base through -I.
include "base.thrift"

namespace go rpckit.shared
namespace java org.rpckit.shared (java.annotation = "kept")

typedef base.Point Origin
typedef list<base.Point> Path

const base.Color FAVOURITE = base.Color.BLUE;
const i32 LIMIT = base.MAX_ITEMS

struct Shape {
  1: string name = "square",
  2: Path path;
  3: optional base.Color color = base.Color.GREEN,
  4: Origin origin = {"x": 1, "y": 2.5}
}

service Shared extends base.Base {
  Shape get(1: string name) throws (1: base.NotFound missing)
}
