package thriftfixture

import (
	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/thrift/wire"
)

// A Specimen is one of the three sizes every Thrift speed line is
// measured on.
type Specimen struct {
	Name  string // small, medium, large
	Type  string // its struct in bench.thrift
	Value func() thrift.TStruct
}

// Specimens lists Small, Medium and Large.
var Specimens = []Specimen{
	{"small", "Small", func() thrift.TStruct { return Small() }},
	{"medium", "Medium", func() thrift.TStruct { return Medium() }},
	{"large", "Large", func() thrift.TStruct { return Large() }},
}

// Protocols lists the protocols with the file extension of their
// specimens (thrift/testdata/specimens/medium.binary, ...).
var Protocols = []struct {
	Ext   string
	Proto wire.Protocol
}{{"binary", wire.Binary}, {"compact", wire.Compact}}
