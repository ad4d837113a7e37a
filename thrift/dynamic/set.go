package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// Set appends to dst v's struct with the value at p set to x: a field
// replaced or added, a list or set element replaced, a map entry's value
// replaced or the entry added. The struct or container that holds the
// value must be present. The output is allocated at most once.
func (v Value) Set(dst []byte, p Path, x Val) ([]byte, error) {
	s, at, parentOK, err := v.site(p)
	if err == nil && !parentOK {
		err = pathError(p, len(p)-1, "absent: set it first")
	}
	if err != nil {
		return dst, err
	}
	dst = reserve(dst, len(v.b)+x.size()+16)
	n0 := len(dst)
	var msg string
	switch {
	case s.kind == StepField:
		dst, msg = v.setField(dst, &s, at, x)
	case s.found:
		dst = append(dst, v.b[:at.start]...)
		if dst, msg = x.appendTo(dst, v.p, at.t); msg == "" {
			dst = append(dst, v.b[at.end:]...)
		}
	case s.kind == StepKey:
		dst, msg = v.addEntry(dst, &s, p[len(p)-1].Key, at, x)
	default:
		msg = "index out of range: the list has " + itoa(s.n) + " elements"
	}
	if msg != "" {
		return dst[:n0], pathError(p, len(p), msg)
	}
	return dst, nil
}

// Delete appends to dst v's struct with the value at p removed: a field,
// a list or set element, or a map entry. Deleting what is absent copies
// the bytes unchanged.
func (v Value) Delete(dst []byte, p Path) ([]byte, error) {
	s, at, _, err := v.site(p)
	if err != nil {
		return dst, err
	}
	dst = reserve(dst, len(v.b))
	switch {
	case !s.found:
		return append(dst, v.b...), nil
	case s.kind == StepField:
		n0 := len(dst)
		dst, err = v.p.DeleteField(dst, v.b, s.rec, s.prev)
		if err != nil {
			return dst[:n0], wrapWire(err, p, len(p))
		}
		return dst, nil
	}
	dst = append(dst, v.b[:s.hdr]...)
	dst = v.appendHeader(dst, &s, s.n-1)
	dst = append(dst, v.b[s.body:s.elem]...)
	return append(dst, v.b[at.end:]...), nil
}

// site walks to p's last step and returns where it landed, the value
// there and whether its struct or container is present.
func (v Value) site(p Path) (site, Value, bool, error) {
	var s site
	if len(p) == 0 {
		return s, Value{}, false, &PathError{Msg: "an edit needs a path"}
	}
	parent, err := v.walk(p[:len(p)-1], &s)
	if err != nil {
		return s, Value{}, false, err
	}
	s = site{}
	at, err := parent.step(p, len(p)-1, &s)
	return s, at, parent.ok, err
}

// setField replaces or adds a struct field.
func (v Value) setField(dst []byte, s *site, at Value, x Val) ([]byte, string) {
	r := s.rec
	switch {
	case s.found && isBool(at.t) && v.p == wire.Compact:
		if x.kind != valBool {
			return dst, "a " + x.kindName() + " cannot be a bool"
		}
		dst = append(dst, v.b[:r.Start]...)
		dst = v.p.AppendBoolField(dst, r.ID, s.prev, x.i == 1)
		return append(dst, v.b[r.End:]...), ""
	case s.found:
		var msg string
		dst = append(dst, v.b[:r.Value]...)
		dst, msg = x.appendTo(dst, v.p, at.t)
		return append(dst, v.b[r.End:]...), msg
	}
	f := at.t
	id := s.rec.ID
	dst = append(dst, v.b[:s.stop]...)
	if isBool(f) && v.p == wire.Compact && x.kind == valBool {
		dst = v.p.AppendBoolField(dst, id, s.prev, x.i == 1)
	} else {
		var msg string
		dst = v.p.AppendFieldHeader(dst, f.Wire, id, s.prev)
		if dst, msg = x.appendTo(dst, v.p, f); msg != "" {
			return dst, msg
		}
	}
	return append(dst, v.b[s.stop:]...), ""
}

// addEntry adds an entry with key k to the map of s.
func (v Value) addEntry(dst []byte, s *site, k Key, at Value, x Val) ([]byte, string) {
	mt := at.t // the value's Type; the key's is the map's
	dst = append(dst, v.b[:s.hdr]...)
	dst = v.appendHeader(dst, s, s.n+1)
	dst = append(dst, v.b[s.body:s.end]...)
	dst = appendKey(dst, v.p, s.kt, k)
	var msg string
	if dst, msg = x.appendTo(dst, v.p, mt); msg != "" {
		return dst, msg
	}
	return append(dst, v.b[s.end:]...), ""
}

// appendHeader appends the header of the container of s with n elements.
func (v Value) appendHeader(dst []byte, s *site, n int) []byte {
	if s.kind == StepKey {
		return v.p.AppendMapHeader(dst, s.kt, s.et, n)
	}
	return v.p.AppendListHeader(dst, s.et, n)
}

// appendKey appends map key k as a value of wire type t; keyMisfit has
// checked that it fits.
func appendKey(dst []byte, p wire.Protocol, t wire.Type, k Key) []byte {
	switch t {
	case wire.String:
		return p.AppendString(dst, k.Str)
	case wire.Bool:
		return p.AppendBool(dst, k.Uint == 1)
	}
	return appendInt(dst, p, t, k.Int)
}

// reserve returns dst with room for n more bytes.
func reserve(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n)
	copy(out, dst)
	return out
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
