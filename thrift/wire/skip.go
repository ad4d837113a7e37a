package wire

// DefaultMaxDepth is the nesting limit of [Protocol.Skip] and [Iter]: the
// structs and containers that may enclose one another, Apache Thrift's
// default recursion depth.
const DefaultMaxDepth = 64

// Skip skips the value of type t at off and returns the offset past it,
// with structs and containers nested up to [DefaultMaxDepth] deep.
func (p Protocol) Skip(b []byte, off int, t Type) (int, error) {
	return p.SkipDepth(b, off, t, DefaultMaxDepth)
}

// SkipDepth is [Protocol.Skip] with a nesting limit: a struct, list, set
// or map counts one level, and entering one with no level left fails with
// CodeDepth. Skipping allocates nothing.
func (p Protocol) SkipDepth(b []byte, off int, t Type, maxDepth int) (int, error) {
	if p == Compact {
		return cmpSkip(b, off, t, maxDepth)
	}
	return binSkip(b, off, t, maxDepth)
}

// binSkip is the binary protocol's Skip; a state machine over the types,
// long by nature.
func binSkip(b []byte, off int, t Type, depth int) (int, error) {
	if int(t) < len(binarySize) && binarySize[t] != 0 {
		return fixed(b, off, int(binarySize[t]))
	}
	switch t {
	case String:
		n, p, err := binLen(b, off, 1)
		return p + n, err
	case Struct:
		return binSkipStruct(b, off, depth)
	case List, Set:
		if depth <= 0 {
			return -1, errAt(off, CodeDepth)
		}
		et, n, p, err := binListHeader(b, off)
		if err != nil {
			return -1, err
		}
		return binSkipElems(b, p, et, n, depth)
	case Map:
		if depth <= 0 {
			return -1, errAt(off, CodeDepth)
		}
		kt, vt, n, p, err := binMapHeader(b, off)
		if err != nil {
			return -1, err
		}
		return binSkipEntries(b, p, kt, vt, n, depth)
	}
	return -1, errAt(off, CodeType)
}

func fixed(b []byte, off, n int) (int, error) {
	if !have(b, off, n) {
		return -1, errAt(off, CodeTruncated)
	}
	return off + n, nil
}

func binSkipStruct(b []byte, off, depth int) (int, error) {
	if depth <= 0 {
		return -1, errAt(off, CodeDepth)
	}
	for {
		if !have(b, off, 1) {
			return -1, errAt(off, CodeTruncated)
		}
		t := Type(b[off])
		if t == Stop {
			return off + 1, nil
		}
		if !t.Valid() {
			return -1, errAt(off, CodeType)
		}
		if !have(b, off, 3) {
			return -1, errAt(off, CodeTruncated)
		}
		var err error
		if off, err = binSkip(b, off+3, t, depth-1); err != nil {
			return -1, err
		}
	}
}

func binSkipElems(b []byte, off int, t Type, n, depth int) (int, error) {
	if int(t) < len(binarySize) && binarySize[t] != 0 {
		return off + n*int(binarySize[t]), nil // the header checked the count
	}
	var err error
	for range n {
		if off, err = binSkip(b, off, t, depth-1); err != nil {
			return -1, err
		}
	}
	return off, nil
}

func binSkipEntries(b []byte, off int, kt, vt Type, n, depth int) (int, error) {
	var err error
	for range n {
		if off, err = binSkip(b, off, kt, depth-1); err != nil {
			return -1, err
		}
		if off, err = binSkip(b, off, vt, depth-1); err != nil {
			return -1, err
		}
	}
	return off, nil
}

// cmpSkip is the compact protocol's Skip.
func cmpSkip(b []byte, off int, t Type, depth int) (int, error) {
	switch t {
	case Bool, Byte:
		return fixed(b, off, 1)
	case I16:
		return varintEnd(b, off, width16)
	case I32:
		return varintEnd(b, off, width32)
	case I64:
		return varintEnd(b, off, width64)
	case Double:
		return fixed(b, off, 8)
	case UUID:
		return fixed(b, off, 16)
	case String:
		return cmpSkipBinary(b, off)
	case Struct:
		return cmpSkipStruct(b, off, depth)
	case List, Set:
		if depth <= 0 {
			return -1, errAt(off, CodeDepth)
		}
		et, n, p, err := cmpListHeader(b, off)
		if err != nil {
			return -1, err
		}
		return cmpSkipElems(b, p, et, n, depth)
	case Map:
		if depth <= 0 {
			return -1, errAt(off, CodeDepth)
		}
		kt, vt, n, p, err := cmpMapHeader(b, off)
		if err != nil {
			return -1, err
		}
		return cmpSkipEntries(b, p, kt, vt, n, depth)
	}
	return -1, errAt(off, CodeType)
}

func cmpSkipStruct(b []byte, off, depth int) (int, error) {
	if depth <= 0 {
		return -1, errAt(off, CodeDepth)
	}
	var err error
	for {
		if !have(b, off, 1) {
			return -1, errAt(off, CodeTruncated)
		}
		start, c := off, b[off]
		ct := c & 0x0f
		switch {
		case ct == ctStop:
			return off + 1, nil
		case c>>4 != 0:
			off++
		default:
			if _, off, err = cmpI16(b, off+1); err != nil {
				return -1, err
			}
		}
		if ct == ctTrue || ct == ctFalse {
			continue
		}
		t := fromCompact[ct]
		if t == Stop {
			return -1, errAt(start, CodeType)
		}
		if off, err = cmpSkip(b, off, t, depth-1); err != nil {
			return -1, err
		}
	}
}

// cmpSkipBinary skips a string or binary value, answering the common
// one-byte length before the general path.
func cmpSkipBinary(b []byte, off int) (int, error) {
	if off >= 0 && off < len(b) && b[off] < 0x80 && int(b[off]) < len(b)-off {
		return off + 1 + int(b[off]), nil
	}
	n, p, err := cmpLen(b, off, 1)
	return p + n, err
}

// cmpSkipElems skips n elements of type t; runs of scalars skip without
// a call of cmpSkip per element.
func cmpSkipElems(b []byte, off int, t Type, n, depth int) (int, error) {
	switch t {
	case Bool, Byte, Double, UUID:
		return off + n*Compact.minSize(t), nil // the header checked the count
	case I16, I32, I64, String:
		return cmpSkipScalars(b, off, t, n)
	}
	var err error
	for range n {
		if off, err = cmpSkip(b, off, t, depth-1); err != nil {
			return -1, err
		}
	}
	return off, nil
}

func cmpSkipEntries(b []byte, off int, kt, vt Type, n, depth int) (int, error) {
	var err error
	for range n {
		if off, err = cmpSkip(b, off, kt, depth-1); err != nil {
			return -1, err
		}
		if off, err = cmpSkip(b, off, vt, depth-1); err != nil {
			return -1, err
		}
	}
	return off, nil
}

func cmpSkipScalars(b []byte, off int, t Type, n int) (int, error) {
	w := width64
	switch t {
	case I16:
		w = width16
	case I32:
		w = width32
	}
	var err error
	for range n {
		if t == String {
			off, err = cmpSkipBinary(b, off)
		} else {
			off, err = varintEnd(b, off, w)
		}
		if err != nil {
			return -1, err
		}
	}
	return off, nil
}
