package transcode

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// signBit flips signed map keys so that unsigned order is numeric order.
const signBit = 1 << 63

// entry is one map entry: its key (numeric keys decoded, string keys as a
// span) and its value (a span, or for message values the index range of
// its spans in e.spans: a value may arrive in several records, merged).
type entry struct {
	key    uint64
	ks, ke int32
	vs, ve int32
	vwt    uint8
	hasVal bool
}

// mapField prints a map field: entries sorted by key as protojson sorts
// them, the last entry of a key winning.
func (e *encoder) mapField(f *fieldPlan, recs []rec) error {
	e.key(f)
	return e.mapValue(f, recs)
}

// mapValue prints the entries of recs as a JSON object.
func (e *encoder) mapValue(f *fieldPlan, recs []rec) error {
	e.need()
	ebase, sbase := len(e.ents), len(e.spans)
	err := e.mapEntries(f, recs, ebase)
	e.ents, e.spans = e.ents[:ebase], e.spans[:sbase]
	return err
}

func (e *encoder) mapEntries(f *fieldPlan, recs []rec, ebase int) error {
	for i := range recs {
		if err := e.pushEntry(f, &recs[i]); err != nil {
			return err
		}
	}
	return e.printEntries(f, e.ents[ebase:])
}

// printEntries prints a map's entries as a JSON object.
func (e *encoder) printEntries(f *fieldPlan, ents []entry) error {
	out, err := e.appendEntries(e.out, f, ents)
	if err != nil {
		return err
	}
	e.set(out)
	return nil
}

// appendEntries is printEntries on out: the entries sorted by key, the
// last of a key printed and those it replaces checked.
func (e *encoder) appendEntries(out []byte, f *fieldPlan, ents []entry) ([]byte, error) {
	e.sortEntries(ents, f.key.kind == protoreflect.StringKind)
	out = append(out, '{')
	e.level++
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && e.sameKey(f, &ents[i], &ents[j]) {
			j++
		}
		for k := i; k < j-1; k++ {
			if err := e.validateEntry(f, &ents[k]); err != nil {
				return nil, err
			}
		}
		en := &ents[j-1]
		out = e.appendMember(out, i == 0)
		if f.key.kind == protoreflect.StringKind {
			var ok bool
			if out, ok = jsonx.AppendString(out, e.b[en.ks:en.ke]); !ok {
				return nil, e.fieldErr(int(en.ks), f, "invalid UTF-8 in map key")
			}
		} else {
			out = e.appendNumKey(out, f, en)
		}
		out = e.appendKeyEnd(out)
		if f.val.kind == protoreflect.StringKind && en.hasVal {
			var ok bool
			if out, ok = jsonx.AppendString(out, e.b[en.vs:en.ve]); !ok {
				return nil, e.withinKey(e.fieldErr(int(en.vs), f.val, "invalid UTF-8"), f, en)
			}
		} else {
			var err error
			if out, err = e.appendEntryValue(out, f, en); err != nil {
				return nil, err
			}
		}
		i = j
	}
	e.set(out)
	e.close('}')
	return e.out, nil
}

func (e *encoder) sameKey(f *fieldPlan, x, y *entry) bool {
	return x.key == y.key && (f.key.kind != protoreflect.StringKind || bytes.Equal(e.b[x.ks:x.ke], e.b[y.ks:y.ke]))
}

// sortEntries sorts entries by key, stably: protojson's order, numbers by
// value and strings bytewise. String keys carry their first eight bytes in
// key, or the eight after those all the keys share (sharedKeyPrefix), so
// most comparisons are one integer comparison. Small maps, the
// common case, are sorted by insertion, in place and without a call per
// comparison.
func (e *encoder) sortEntries(ents []entry, str bool) {
	b := e.b
	if str && len(ents) > 1 {
		sharedKeyPrefix(b, ents)
	}
	less := func(x, y *entry) bool {
		if x.key != y.key || !str {
			return x.key < y.key
		}
		return bytes.Compare(b[x.ks:x.ke], b[y.ks:y.ke]) < 0
	}
	if len(ents) > 32 {
		slices.SortStableFunc(ents, func(x, y entry) int {
			if less(&x, &y) {
				return -1
			}
			if less(&y, &x) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(ents); i++ {
		if !less(&ents[i], &ents[i-1]) {
			continue
		}
		x := ents[i]
		j := i
		for j > 0 && less(&x, &ents[j-1]) {
			ents[j] = ents[j-1]
			j--
		}
		ents[j] = x
	}
}

// sharedKeyPrefix gives the string keys of ents, when they all begin with
// the same eight bytes or more, the eight bytes after those they share
// instead of their first eight: keys such as "counter_a" and "counter_b"
// would otherwise tie on every comparison and each be compared byte by
// byte. The order is the same, as the bytes before are the same, and so
// are the ties.
func sharedKeyPrefix(b []byte, ents []entry) {
	first := &ents[0]
	for i := 1; i < len(ents); i++ {
		if ents[i].key != first.key {
			return // not all tied on the first eight bytes
		}
	}
	shared := int(first.ke - first.ks)
	for i := 1; i < len(ents) && shared > 0; i++ {
		en := &ents[i]
		shared = commonPrefix(b[first.ks:int(first.ks)+shared], b[en.ks:en.ke])
	}
	if shared == 0 {
		return
	}
	for i := range ents {
		en := &ents[i]
		en.key = keyPrefix(b, int(en.ks)+shared, int(en.ke))
	}
}

// commonPrefix returns how many bytes x and y share at the start, eight
// at a time.
func commonPrefix(x, y []byte) int {
	n := min(len(x), len(y))
	i := 0
	for ; n-i >= 8; i += 8 {
		if d := binary.LittleEndian.Uint64(x[i:]) ^ binary.LittleEndian.Uint64(y[i:]); d != 0 {
			return i + bits.TrailingZeros64(d)>>3
		}
	}
	for i < n && x[i] == y[i] {
		i++
	}
	return i
}

// keyPrefix returns the first eight bytes of b[s:t] as a big-endian
// number, zero-padded: prefixes order as the strings do, up to ties. It
// reads the eight bytes from s in one load where b has them.
func keyPrefix(b []byte, s, t int) uint64 {
	n := t - s
	if len(b)-s >= 8 {
		v := binary.BigEndian.Uint64(b[s:])
		if n < 8 {
			v &^= math.MaxUint64 >> (8 * n)
		}
		return v
	}
	var v uint64
	for i, c := range b[s:t] {
		v |= uint64(c) << (56 - 8*i)
	}
	return v
}

// pushEntry parses the map entry of record r of field f onto the stack of
// entries.
func (e *encoder) pushEntry(f *fieldPlan, r *rec) error {
	push(&e.ents, entry{})
	return e.entry(&e.ents[len(e.ents)-1], f, r)
}

// entry parses one map entry into *en, in place on the stack of entries
// (so the scratch, which holds that stack, is there). Records other than a
// key and a value of the right wire types are unknown fields; a missing key
// or value is the zero value (an empty message).
func (e *encoder) entry(en *entry, f *fieldPlan, r *rec) error {
	kf, vf := f.key, f.val
	*en = entry{}
	if isSigned(kf.kind) {
		en.key = signBit
	}
	vlo := int32(len(e.spans))
	b := e.b[:r.end]
	for pos := int(r.start); pos < len(b); {
		num, wt, vs, ve, next, err := e.next(b, pos)
		if err != nil {
			return err
		}
		pos = next
		switch {
		case num == 1 && wt == kf.wt:
			// a key replaced within the entry (none yet: ke is 0)
			if en.ke > 0 && kf.utf8 && !utf8.Valid(b[en.ks:en.ke]) {
				return e.fieldErr(int(en.ks), f, "invalid UTF-8 in map key")
			}
			en.ks, en.ke = int32(vs), int32(ve)
			if kf.kind == protoreflect.StringKind {
				en.key = keyPrefix(e.b, vs, ve)
			} else {
				rk := rec{aux: uint32(wt), start: int32(vs), end: int32(ve)}
				en.key = mapKeyBits(kf.kind, e.bitsOf(&rk))
			}
		case num == 2 && wt == vf.wt:
			if en.hasVal && vf.utf8 && !utf8.Valid(b[en.vs:en.ve]) { // a value replaced within the entry
				return e.fieldErr(int(en.vs), f, "invalid UTF-8 in map value")
			}
			en.hasVal = true
			if vf.sub != nil {
				push(&e.spans, span{int32(vs), int32(ve)})
			} else {
				en.vs, en.ve, en.vwt = int32(vs), int32(ve), uint8(wt)
			}
		}
	}
	if vf.sub != nil {
		en.vs, en.ve = vlo, int32(len(e.spans))
	}
	return nil
}

// mapKeyBits normalises a numeric key's wire bits for sorting.
func mapKeyBits(k protoreflect.Kind, v uint64) uint64 {
	switch k {
	case protoreflect.BoolKind:
		if v != 0 {
			return 1
		}
		return 0
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		return uint64(int64(int32(v))) ^ signBit
	case protoreflect.Sint32Kind:
		return uint64(int64(int32(protowire.DecodeZigZag(v&math.MaxUint32)))) ^ signBit
	case protoreflect.Sint64Kind:
		return uint64(protowire.DecodeZigZag(v)) ^ signBit
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		return v ^ signBit
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return uint64(uint32(v))
	}
	return v
}

func isSigned(k protoreflect.Kind) bool {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return true
	}
	return false
}

// appendEntryValue appends the value of entry en of map field f, other
// than a string, which appendEntries prints itself: the numbers the compact
// loop has an op for from their bits, straight away, the other kinds
// through the shared code.
func (e *encoder) appendEntryValue(out []byte, f *fieldPlan, en *entry) ([]byte, error) {
	vf := f.val
	switch {
	case vf.sub != nil:
		e.set(out)
		var err error
		if sp := e.spans[en.vs:en.ve]; len(sp) == 1 {
			err = e.messageAt(vf.sub, sp[0].start, sp[0].end)
		} else {
			err = e.message(vf.sub, int(en.vs), int(en.ve), nil)
		}
		if err != nil {
			return nil, e.withinKey(err, f, en)
		}
		return e.out, nil
	case !en.hasVal:
		return e.appendZero(out, vf), nil
	}
	r := rec{aux: uint32(en.vwt), start: en.vs, end: en.ve}
	switch vf.fast {
	case fastInt64:
		return append(jsonx.AppendInt(append(out, '"'), int64(e.bitsOf(&r))), '"'), nil
	case fastUint64:
		return append(jsonx.AppendUint(append(out, '"'), e.bitsOf(&r)), '"'), nil
	case fastInt32:
		return jsonx.AppendInt(out, int64(int32(e.bitsOf(&r)))), nil
	case fastUint32:
		return jsonx.AppendUint(out, uint64(uint32(e.bitsOf(&r)))), nil
	case fastDouble:
		return jsonx.AppendFloat(out, math.Float64frombits(e.bitsOf(&r)), 64), nil
	}
	res, err := e.appendScalar(out, vf, &r)
	if err != nil {
		return nil, e.withinKey(err, f, en)
	}
	return res, nil
}

// appendNumKey appends the key of en, a bool or an integer, quoted as JSON
// keys are.
func (e *encoder) appendNumKey(out []byte, f *fieldPlan, en *entry) []byte {
	kf := f.key
	switch {
	case kf.kind == protoreflect.BoolKind:
		if en.key != 0 {
			return append(out, `"true"`...)
		}
		return append(out, `"false"`...)
	case isSigned(kf.kind):
		return append(jsonx.AppendInt(append(out, '"'), int64(en.key^signBit)), '"')
	}
	return append(jsonx.AppendUint(append(out, '"'), en.key), '"')
}

// validateEntry checks the strings and the message value of an entry that
// a later entry with the same key replaced.
func (e *encoder) validateEntry(f *fieldPlan, en *entry) error {
	if f.key.utf8 && !utf8.Valid(e.b[en.ks:en.ke]) {
		return e.fieldErr(int(en.ks), f, "invalid UTF-8 in map key")
	}
	if f.val.utf8 && !utf8.Valid(e.b[en.vs:en.ve]) {
		return e.fieldErr(int(en.vs), f, "invalid UTF-8 in map value")
	}
	if f.val.sub == nil {
		return nil
	}
	for s := en.vs; s < en.ve; s++ {
		sp := e.spans[s]
		if err := e.validateSpan(f.val, sp.start, sp.end); err != nil {
			return err
		}
	}
	return nil
}
