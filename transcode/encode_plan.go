package transcode

import (
	"strconv"
	"sync"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// plan is the encoder's side table of a message Type: for each field what
// the hot loop needs (kind, wire type, the JSON key bytes, the plan of the
// sub-message), built once per Type and cached.
type plan struct {
	t      *dynamic.Type
	name   protoreflect.FullName
	fields []fieldPlan // in declaration order, as protojson prints them
	byNum  []int32     // field index by number below len(byNum), -1 for none
	// tags maps one-byte tags (number < 16) to tagIndex.
	tags   [128]int32
	sparse map[protowire.Number]int32
	oneofs int // real oneofs
	wkt    wellKnown
	// required holds the indices of proto2 required fields, checked as
	// protojson's final proto.CheckInitialized does.
	required   []int32
	extRanges  protoreflect.FieldRanges
	messageSet bool
	// direct says the direct path may try messages of this type: no special
	// JSON form, no required fields, declaration order the number order
	// serializers write, at most 64 oneofs. hasSub says some field holds
	// messages.
	direct, hasSub bool
	// jsonLen and wireLen hint the length of the next JSON printed from
	// and wire bytes converted to messages of this type.
	jsonLen, wireLen outputHint
	// keyWords holds the JSON keys of the fields, in t.Fields order, for
	// the decoder to match keys with.
	keyWords []keyWords
	// exts holds the plans of extensions of the message, by descriptor.
	exts sync.Map // protoreflect.ExtensionTypeDescriptor -> *fieldPlan
}

// fieldPlan is one field of a plan, or an extension.
type fieldPlan struct {
	desc     protoreflect.FieldDescriptor
	num      protowire.Number
	kind     protoreflect.Kind
	wt       protowire.Type // wire type of one element
	list     bool
	isMap    bool
	packable bool // repeated scalar: packed runs accepted
	op       uint8
	fast     uint8 // what the compact loop does with it
	is32     bool  // 32-bit varint: a decoder drops the upper bits
	presence bool  // explicit presence: printed when set, null when unpopulated
	inOneof  bool  // in a real or synthetic oneof: not printed when unpopulated
	oneof    int32
	utf8     bool // strings checked on every occurrence, as proto.Unmarshal does
	isNull   bool // google.protobuf.NullValue: always JSON null
	required bool
	enum     *enumNames
	sub      *plan // message, group or map entry
	key, val *fieldPlan
	// keys are `,"name":` with the JSON name (keys[jsonNames]) and the
	// proto name (keys[protoNames]); the first member of an object drops
	// the comma. keys16 holds the two padded to 16 bytes, when they fit,
	// for key to copy in two words.
	keys     [2][]byte
	keys16   [2][16]byte
	jsonName string
}

// enumNames holds an enum's value names quoted for output.
type enumNames struct {
	dense  [][]byte // by number for 0 <= n < len(dense)
	sparse map[protoreflect.EnumNumber][]byte
}

func (e *enumNames) quoted(n protoreflect.EnumNumber) []byte {
	if n >= 0 && int(n) < len(e.dense) {
		return e.dense[n]
	}
	return e.sparse[n]
}

// planOf returns the plan of t, building it and those of every message it
// reaches on first use. A plan is attached to its Type (Type.Attach), so it
// lives as long as the Type and its Cache, and no longer.
func planOf(t *dynamic.Type) *plan {
	if p, ok := t.Attached().(*plan); ok {
		return p
	}
	return buildPlan(t)
}

// building serializes plan building, so that a graph of messages gets one
// plan each.
var building sync.Mutex

func buildPlan(t *dynamic.Type) *plan {
	building.Lock()
	defer building.Unlock()
	if p, ok := t.Attached().(*plan); ok {
		return p
	}
	b := planBuilder{done: map[*dynamic.Type]*plan{}}
	p := b.build(t)
	for t, p := range b.done {
		t.Attach(p)
	}
	return p
}

type planBuilder struct {
	done  map[*dynamic.Type]*plan
	enums map[protoreflect.EnumDescriptor]*enumNames
}

func (b *planBuilder) build(t *dynamic.Type) *plan {
	if p, ok := t.Attached().(*plan); ok {
		return p
	}
	if p := b.done[t]; p != nil {
		return p
	}
	md := t.Desc
	p := &plan{t: t, name: md.FullName(), oneofs: len(t.Oneofs), wkt: wellKnownOf(md.FullName()), extRanges: md.ExtensionRanges()}
	if ms, ok := md.(interface{ IsMessageSet() bool }); ok && ms.IsMessageSet() {
		p.messageSet = true
	}
	b.done[t] = p
	p.keyWords = jsonKeyWords(t)
	p.fields = make([]fieldPlan, len(t.Fields))
	for i, f := range t.Fields {
		b.field(&p.fields[i], f.Desc, f.Message)
		if f.Num < 1024 {
			for int(f.Num) >= len(p.byNum) {
				p.byNum = append(p.byNum, -1)
			}
			p.byNum[f.Num] = int32(i)
		} else {
			if p.sparse == nil {
				p.sparse = map[protowire.Number]int32{}
			}
			p.sparse[f.Num] = int32(i)
		}
		if p.fields[i].required {
			p.required = append(p.required, int32(i))
		}
	}
	for c := range p.tags {
		p.tags[c] = p.tagIndex(protowire.Number(c>>3), protowire.Type(c&7))
	}
	p.direct = !p.wkt.special() && !p.messageSet && len(p.required) == 0 && p.oneofs <= 64 && numberOrder(p)
	for i := range p.fields {
		if f := &p.fields[i]; f.sub != nil && (!f.isMap || f.val.sub != nil) {
			p.hasSub = true
		}
	}
	return p
}

// numberOrder reports whether p's fields are declared in number order.
func numberOrder(p *plan) bool {
	for i := 1; i < len(p.fields); i++ {
		if p.fields[i].num < p.fields[i-1].num {
			return false
		}
	}
	return true
}

// field fills fp from fd; sub is the compiled Type of a message, group or
// map entry field.
func (b *planBuilder) field(fp *fieldPlan, fd protoreflect.FieldDescriptor, sub *dynamic.Type) {
	*fp = fieldPlan{
		desc:     fd,
		num:      fd.Number(),
		kind:     fd.Kind(),
		wt:       dynamic.WireTypeOf(fd.Kind()),
		list:     fd.IsList(),
		isMap:    fd.IsMap(),
		presence: fd.HasPresence(),
		inOneof:  fd.ContainingOneof() != nil,
		oneof:    -1,
		utf8:     enforceUTF8(fd),
		required: fd.Cardinality() == protoreflect.Required,
		jsonName: fd.JSONName(),
	}
	fp.packable = fp.list && fp.wt != protowire.BytesType && fp.wt != protowire.StartGroupType
	fp.is32 = is32(fp.kind)
	if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
		fp.oneof = int32(realOneofIndex(fd.ContainingMessage(), od))
	}
	name := fd.JSONName()
	proto := fd.TextName()
	if fd.IsExtension() {
		name = "[" + string(fd.FullName()) + "]"
		proto = name
		fp.jsonName = name
	}
	fp.keys = [2][]byte{jsonNames: quotedKey(name), protoNames: quotedKey(proto)}
	for i, k := range fp.keys {
		copy(fp.keys16[i][:], k)
	}
	if ed := fd.Enum(); ed != nil {
		fp.isNull = ed.FullName() == nullValueName
		fp.enum = b.enum(ed)
	}
	if sub != nil {
		fp.sub = b.build(sub)
	}
	fp.op = opOf(fp)
	fp.fast = fastOf(fp)
	if fp.isMap {
		fp.key, fp.val = &fp.sub.fields[0], &fp.sub.fields[1]
		if fp.sub.fields[0].num != 1 {
			fp.key, fp.val = fp.val, fp.key
		}
	}
}

// What the printer does with a field.
const (
	opScalar  uint8 = iota // a singular number, bool or enum
	opString               // a singular string
	opBytes                // a singular bytes
	opMessage              // a singular message or group
	opList
	opMap
)

func opOf(f *fieldPlan) uint8 {
	switch {
	case f.isMap:
		return opMap
	case f.list:
		return opList
	case f.kind == protoreflect.MessageKind || f.kind == protoreflect.GroupKind:
		return opMessage
	case f.kind == protoreflect.StringKind:
		return opString
	case f.kind == protoreflect.BytesKind:
		return opBytes
	}
	return opScalar
}

// is32 reports whether values of kind k are 32-bit varints, whose upper
// bits a decoder drops.
func is32(k protoreflect.Kind) bool {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Uint32Kind, protoreflect.EnumKind:
		return true
	}
	return false
}

// realOneofIndex returns the index of od among md's real oneofs, the
// numbering of dynamic.Type.Oneofs.
func realOneofIndex(md protoreflect.MessageDescriptor, od protoreflect.OneofDescriptor) int {
	n := 0
	ods := md.Oneofs()
	for i := range ods.Len() {
		if ods.Get(i) == od {
			return n
		}
		if !ods.Get(i).IsSynthetic() {
			n++
		}
	}
	return -1
}

func quotedKey(name string) []byte {
	k := append([]byte{','}, strconv.Quote(name)...)
	return append(k, ':')
}

func (b *planBuilder) enum(ed protoreflect.EnumDescriptor) *enumNames {
	if e := b.enums[ed]; e != nil {
		return e
	}
	e := &enumNames{sparse: map[protoreflect.EnumNumber][]byte{}}
	vals := ed.Values()
	for i := range vals.Len() {
		v := vals.Get(i)
		n, q := v.Number(), []byte(strconv.Quote(string(v.Name())))
		if n >= 0 && n < 1024 {
			for int(n) >= len(e.dense) {
				e.dense = append(e.dense, nil)
			}
			if e.dense[n] == nil {
				e.dense[n] = q
			}
		} else if _, dup := e.sparse[n]; !dup {
			e.sparse[n] = q
		}
	}
	if b.enums == nil {
		b.enums = map[protoreflect.EnumDescriptor]*enumNames{}
	}
	b.enums[ed] = e
	return e
}

// lookup returns the index of the field numbered n, or -1.
func (p *plan) lookup(n protowire.Number) int32 {
	if uint(n) < uint(len(p.byNum)) {
		return p.byNum[n]
	}
	if i, ok := p.sparse[n]; ok {
		return i
	}
	return -1
}

// accepts reports whether a record of wire type wt is a value of f, as
// protobuf-go decodes it; other records are unknown fields.
func (f *fieldPlan) accepts(wt protowire.Type) bool {
	return wt == f.wt || (f.packable && wt == protowire.BytesType)
}

// enforceUTF8 mirrors protobuf-go: proto3 strings and editions strings with
// utf8_validation = VERIFY are checked when parsed.
func enforceUTF8(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.StringKind {
		return false
	}
	if fd.Syntax() == protoreflect.Editions {
		if e, ok := fd.(interface{ EnforceUTF8() bool }); ok {
			return e.EnforceUTF8()
		}
	}
	return fd.Syntax() == protoreflect.Proto3
}

// extension returns the plan of the extension xd of p's message, building
// it on first use; it is kept with p.
func (p *plan) extension(xd protoreflect.ExtensionTypeDescriptor) *fieldPlan {
	if fp, ok := p.exts.Load(xd); ok {
		return fp.(*fieldPlan)
	}
	var sub *dynamic.Type
	if md := xd.Message(); md != nil {
		sub = p.t.Cache().Type(md)
	}
	fp := &fieldPlan{}
	var b planBuilder
	if sub != nil {
		fp.sub = planOf(sub) // built under its own lock, before b.field looks it up
	}
	b.done = map[*dynamic.Type]*plan{}
	b.field(fp, xd, sub)
	fp.inOneof = false
	actual, _ := p.exts.LoadOrStore(xd, fp)
	return actual.(*fieldPlan)
}
