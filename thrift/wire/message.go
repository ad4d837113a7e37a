package wire

// Message is a message header: the method name's span in the scanned
// slice, the message type and the sequence id. End is the offset of the
// message's body, a struct.
type Message struct {
	NameStart, NameEnd int
	Type               MessageType
	SeqID              int32
	// Strict reports a binary header in the strict form (a version word
	// first); compact headers are always marked strict.
	Strict bool
	End    int
}

// Name returns the method name's bytes b[m.NameStart:m.NameEnd].
func (m Message) Name(b []byte) []byte { return b[m.NameStart:m.NameEnd:m.NameEnd] }

const (
	binaryVersion1  = 0x80010000
	binaryVersion   = 0xffff0000
	compactID       = 0x82
	compactVersion1 = 1
)

// ConsumeMessageHeader reads the message header at off: the binary
// protocol's strict and non-strict forms, or the compact protocol's.
func (p Protocol) ConsumeMessageHeader(b []byte, off int) (Message, error) {
	if p == Compact {
		return cmpMessage(b, off)
	}
	return binMessage(b, off)
}

func binMessage(b []byte, off int) (Message, error) {
	v, p, err := binI32(b, off)
	if err != nil {
		return Message{}, err
	}
	if v >= 0 {
		return binMessageNonStrict(b, off)
	}
	if uint32(v)&binaryVersion != binaryVersion1 {
		return Message{}, errAt(off, CodeVersion)
	}
	m := Message{Type: MessageType(v & 0xff), Strict: true}
	if !m.Type.valid() {
		return Message{}, errAt(off, CodeMessageType)
	}
	name, p, err := binBinary(b, p)
	if err != nil {
		return Message{}, err
	}
	m.NameEnd = p
	m.NameStart = p - len(name)
	m.SeqID, m.End, err = binI32(b, p)
	return m, err
}

// binMessageNonStrict reads the old header: name, type byte, sequence id.
func binMessageNonStrict(b []byte, off int) (Message, error) {
	name, p, err := binBinary(b, off)
	if err != nil {
		return Message{}, err
	}
	m := Message{NameStart: p - len(name), NameEnd: p}
	if !have(b, p, 1) {
		return Message{}, errAt(p, CodeTruncated)
	}
	if m.Type = MessageType(b[p]); !m.Type.valid() {
		return Message{}, errAt(p, CodeMessageType)
	}
	m.SeqID, m.End, err = binI32(b, p+1)
	return m, err
}

func cmpMessage(b []byte, off int) (Message, error) {
	if !have(b, off, 2) {
		return Message{}, errAt(off, CodeTruncated)
	}
	if b[off] != compactID || b[off+1]&0x1f != compactVersion1 {
		return Message{}, errAt(off, CodeVersion)
	}
	m := Message{Type: MessageType(b[off+1] >> 5), Strict: true}
	if !m.Type.valid() {
		return Message{}, errAt(off+1, CodeMessageType)
	}
	seq, p, err := uvarint(b, off+2, width32)
	if err != nil {
		return Message{}, err
	}
	m.SeqID = int32(uint32(seq))
	name, p, err := cmpBinary(b, p)
	if err != nil {
		return Message{}, err
	}
	m.NameStart, m.NameEnd, m.End = p-len(name), p, p
	return m, nil
}

// AppendMessageHeader appends a message header: the binary protocol's
// strict form, or the compact protocol's.
func (p Protocol) AppendMessageHeader(dst []byte, name string, t MessageType, seq int32) []byte {
	if p == Compact {
		dst = append(dst, compactID, byte(t)<<5|compactVersion1)
		dst = cmpAppendLen(dst, int(uint32(seq)))
		return p.AppendString(dst, name)
	}
	dst = binAppendI32(dst, int32(binaryVersion1|uint32(t)))
	return binAppendI32(p.AppendString(dst, name), seq)
}

// AppendBinaryNonStrictHeader appends a binary protocol message header in
// the old, non-strict form: name, type byte, sequence id.
func AppendBinaryNonStrictHeader(dst []byte, name string, t MessageType, seq int32) []byte {
	return binAppendI32(append(Binary.AppendString(dst, name), byte(t)), seq)
}
