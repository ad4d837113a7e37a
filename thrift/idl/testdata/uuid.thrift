// uuid is a base type from Thrift 0.19 on; the 0.17 compiler does not know it,
// so this file is outside the oracle's corpus and covered by the package tests.
typedef uuid Id

const uuid C_UUID = "00000000-0000-0000-0000-000000000001"
const Id C_ID = "{6b29fc40-ca47-1067-b31d-00dd010662da}"

struct Tracked {
  1: uuid id
  2: Id other = C_UUID
  3: list<uuid> ids = ["6B29FC40-CA47-1067-B31D-00DD010662DA"]
  4: map<uuid, string> names
}
