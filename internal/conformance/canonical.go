package conformance

import (
	"fmt"
	"slices"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Canonical appends to dst the encoding that a protobuf runtime gives b, a
// message of type t, once parsed and serialized again: known fields in
// number order; a singular scalar once, with its last value, and not at
// all when it is a proto3 zero without presence; a sub-message once, the
// merge of all its records; only the last member of a oneof; repeated
// scalars packed or not as the field says; integers as minimal varints;
// map entries once per key, the last one; and unknown fields (records of
// fields t lacks or of the wrong wire type) last, in the order they came.
// Values of closed enums are kept whatever their number, as protobuf-go
// (and so package dynamic) reads them. The conformance suite's recommended binary
// tests compare this encoding byte for byte.
//
// b should be well-formed (check it with dynamic.Validate first); a
// malformed record is an error naming its byte offset.
func Canonical(dst []byte, t *dynamic.Type, b []byte) ([]byte, error) {
	m, err := parseMessage(t, b)
	if err != nil {
		return dst, err
	}
	return m.append(dst)
}

// message holds what the records of one message amount to.
type message struct {
	t       *dynamic.Type
	fields  map[protowire.Number]*values
	unknown []byte
}

// values are the elements of one field: canonical scalar encodings
// (length-prefixed for strings and bytes), message bodies still to merge
// and re-encode, or canonical map entries.
type values struct {
	f     *dynamic.Field
	elems [][]byte
	keys  map[string]int // map fields: the index in elems of each key
}

func parseMessage(t *dynamic.Type, b []byte) (*message, error) {
	m := &message{t: t, fields: map[protowire.Number]*values{}}
	for off := 0; off < len(b); {
		num, typ, n, vn, err := record(b[off:])
		if err == nil {
			err = m.record(num, typ, b[off:off+n+vn], b[off+n:off+n+vn])
		}
		if err != nil {
			return nil, fmt.Errorf("conformance: %s: byte %d: %w", t.FullName(), off, err)
		}
		off += n + vn
	}
	return m, nil
}

// record takes one record: rec is all of it, val its value after the tag.
func (m *message) record(num protowire.Number, typ protowire.Type, rec, val []byte) error {
	f := m.t.FieldByNumber(num)
	if f == nil || !(typ == f.WireType || (f.Packable && typ == protowire.BytesType)) {
		m.unknown = append(m.unknown, rec...)
		return nil
	}
	switch {
	case f.Map:
		body, _ := protowire.ConsumeBytes(val)
		return m.entry(f, body)
	case f.Kind == protoreflect.MessageKind:
		body, _ := protowire.ConsumeBytes(val)
		m.message(f, body)
	case f.Kind == protoreflect.GroupKind:
		return m.group(f, val)
	case typ == protowire.BytesType && f.Packable:
		body, _ := protowire.ConsumeBytes(val)
		return m.packed(f, body)
	default:
		return m.scalar(f, val)
	}
	return nil
}

// values returns the elements of f, clearing the other members of its
// oneof.
func (m *message) values(f *dynamic.Field) *values {
	if f.Oneof >= 0 {
		for _, g := range m.t.Oneofs[f.Oneof].Fields {
			if g != f {
				delete(m.fields, g.Num)
			}
		}
	}
	v := m.fields[f.Num]
	if v == nil {
		v = &values{f: f}
		m.fields[f.Num] = v
	}
	return v
}

// message adds a body of message field f: a new element of a list, or
// merged into a singular field's earlier bodies.
func (m *message) message(f *dynamic.Field, body []byte) {
	v := m.values(f)
	if f.List || len(v.elems) == 0 {
		v.elems = append(v.elems, body)
		return
	}
	prev := v.elems[0]
	v.elems[0] = append(prev[:len(prev):len(prev)], body...)
}

// packed adds each element of a packed run of f.
func (m *message) packed(f *dynamic.Field, body []byte) error {
	for len(body) > 0 {
		n := elemLen(f.WireType, body)
		if n < 0 {
			return fmt.Errorf("packed element: %w", protowire.ParseError(n))
		}
		if err := m.scalar(f, body[:n]); err != nil {
			return err
		}
		body = body[n:]
	}
	return nil
}

func elemLen(wt protowire.Type, b []byte) int {
	switch wt {
	case protowire.VarintType:
		_, n := protowire.ConsumeVarint(b)
		return n
	case protowire.Fixed32Type:
		_, n := protowire.ConsumeFixed32(b)
		return n
	case protowire.Fixed64Type:
		_, n := protowire.ConsumeFixed64(b)
		return n
	}
	return -1
}

// scalar adds one scalar element, raw as it came after the tag.
// group adds the group val of f.
func (m *message) group(f *dynamic.Field, val []byte) error {
	body, err := groupBody(val)
	if err == nil {
		m.message(f, body)
	}
	return err
}

func (m *message) scalar(f *dynamic.Field, raw []byte) error {
	enc, err := canonicalScalar(f, raw)
	if err != nil {
		return err
	}
	v := m.values(f)
	if !f.List {
		v.elems = v.elems[:0]
	}
	v.elems = append(v.elems, enc)
	return nil
}

// canonicalScalar re-encodes the scalar value raw of f in its shortest
// form.
func canonicalScalar(f *dynamic.Field, raw []byte) ([]byte, error) {
	var n int
	switch f.WireType {
	case protowire.VarintType:
		var x uint64
		if x, n = protowire.ConsumeVarint(raw); n >= 0 {
			return protowire.AppendVarint(nil, normalize(f.Kind, x)), nil
		}
	case protowire.BytesType:
		var s []byte
		if s, n = protowire.ConsumeBytes(raw); n >= 0 {
			return protowire.AppendBytes(nil, s), nil
		}
	default:
		if n = elemLen(f.WireType, raw); n >= 0 {
			return raw[:n], nil
		}
	}
	return nil, protowire.ParseError(n)
}

// normalize returns the varint a runtime writes for a field of kind k that
// read x: 32-bit values truncated (and sign-extended where signed), bools
// as 0 or 1.
func normalize(k protoreflect.Kind, x uint64) uint64 {
	switch k {
	case protoreflect.BoolKind:
		if x != 0 {
			return 1
		}
		return 0
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return uint64(int64(int32(x)))
	case protoreflect.Uint32Kind, protoreflect.Sint32Kind:
		return uint64(uint32(x))
	}
	return x
}

// groupBody returns the fields of a group, val being what follows its
// start tag up to and including its end tag.
// record reads the record that b starts with: its field number, wire
// type, and the lengths of its tag and its value.
func record(b []byte) (protowire.Number, protowire.Type, int, int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, 0, 0, protowire.ParseError(n)
	}
	m := protowire.ConsumeFieldValue(num, typ, b[n:])
	if m < 0 {
		return num, typ, n, 0, fmt.Errorf("field %d: %w", num, protowire.ParseError(m))
	}
	return num, typ, n, m, nil
}

func groupBody(val []byte) ([]byte, error) {
	for off := 0; off < len(val); {
		if _, typ, _ := protowire.ConsumeTag(val[off:]); typ == protowire.EndGroupType {
			return val[:off], nil
		}
		_, _, n, m, err := record(val[off:])
		if err != nil {
			return nil, err
		}
		off += n + m
	}
	return nil, fmt.Errorf("group without end")
}

// entry adds a map entry: the last entry of a key replaces earlier ones.
func (m *message) entry(f *dynamic.Field, body []byte) error {
	e, err := parseMessage(f.Message, body)
	if err != nil {
		return err
	}
	enc, err := e.appendEntry(nil)
	if err == nil {
		m.values(f).put(string(e.elem(f.MapKey)), enc)
	}
	return err
}

// put sets the map entry enc of key: the last entry of a key wins, in the
// place of the first.
func (v *values) put(key string, enc []byte) {
	if v.keys == nil {
		v.keys = map[string]int{}
	}
	if i, ok := v.keys[key]; ok {
		v.elems[i] = enc
		return
	}
	v.keys[key] = len(v.elems)
	v.elems = append(v.elems, enc)
}

// elem returns the canonical encoding of singular scalar field f, its
// zero value when absent.
func (m *message) elem(f *dynamic.Field) []byte {
	if b := m.first(f.Num); b != nil {
		return b
	}
	switch f.WireType {
	case protowire.Fixed32Type:
		return make([]byte, 4)
	case protowire.Fixed64Type:
		return make([]byte, 8)
	}
	return []byte{0}
}

// appendEntry appends a map entry, key and value always written.
func (m *message) appendEntry(dst []byte) ([]byte, error) {
	kf, vf := m.t.FieldByNumber(1), m.t.FieldByNumber(2)
	dst = append(protowire.AppendTag(dst, 1, kf.WireType), m.elem(kf)...)
	if vf.Kind != protoreflect.MessageKind {
		return append(protowire.AppendTag(dst, 2, vf.WireType), m.elem(vf)...), nil
	}
	return appendMessage(dst, vf, m.first(2))
}

// first returns the first value of field num, or nil.
func (m *message) first(num protowire.Number) []byte {
	if v := m.fields[num]; v != nil && len(v.elems) > 0 {
		return v.elems[0]
	}
	return nil
}

// append appends the canonical encoding of m.
func (m *message) append(dst []byte) ([]byte, error) {
	nums := make([]protowire.Number, 0, len(m.fields))
	for n := range m.fields {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	var err error
	for _, n := range nums {
		if dst, err = appendValues(dst, m.fields[n]); err != nil {
			return dst, err
		}
	}
	return append(dst, m.unknown...), nil
}

func appendValues(dst []byte, v *values) ([]byte, error) {
	f := v.f
	switch {
	case f.Map:
		for _, e := range v.elems {
			dst = protowire.AppendBytes(protowire.AppendTag(dst, f.Num, protowire.BytesType), e)
		}
	case f.Kind == protoreflect.MessageKind || f.Kind == protoreflect.GroupKind:
		return appendMessages(dst, f, v.elems)
	case f.List && f.Packed:
		return appendPacked(dst, f, v.elems), nil
	case f.List:
		for _, e := range v.elems {
			dst = append(protowire.AppendTag(dst, f.Num, f.WireType), e...)
		}
	case f.HasPresence || !allZero(v.elems[0]):
		dst = append(protowire.AppendTag(dst, f.Num, f.WireType), v.elems[0]...)
	}
	return dst, nil
}

// appendMessages appends the message (or group) bodies of f.
func appendMessages(dst []byte, f *dynamic.Field, bodies [][]byte) ([]byte, error) {
	var err error
	for _, body := range bodies {
		if dst, err = appendMessage(dst, f, body); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// appendPacked appends the elements of f as one packed record.
func appendPacked(dst []byte, f *dynamic.Field, elems [][]byte) []byte {
	dst = protowire.AppendTag(dst, f.Num, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(totalLen(elems)))
	for _, e := range elems {
		dst = append(dst, e...)
	}
	return dst
}

// appendMessage appends a record of message or group field f whose value
// is body, re-encoded canonically.
func appendMessage(dst []byte, f *dynamic.Field, body []byte) ([]byte, error) {
	sub, err := Canonical(nil, f.Message, body)
	if err != nil {
		return dst, err
	}
	if f.Kind == protoreflect.GroupKind {
		dst = append(protowire.AppendTag(dst, f.Num, protowire.StartGroupType), sub...)
		return protowire.AppendTag(dst, f.Num, protowire.EndGroupType), nil
	}
	return protowire.AppendBytes(protowire.AppendTag(dst, f.Num, protowire.BytesType), sub), nil
}

func totalLen(elems [][]byte) int {
	n := 0
	for _, e := range elems {
		n += len(e)
	}
	return n
}

// allZero reports whether a canonical scalar encoding is the zero value:
// a 0 varint, all-zero fixed bits (not -0.0), or an empty string.
func allZero(e []byte) bool {
	for _, c := range e {
		if c != 0 {
			return false
		}
	}
	return true
}
