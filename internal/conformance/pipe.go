package conformance

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// Format is a conformance.WireFormat: the encoding of a payload.
type Format int32

// The wire formats of conformance.proto.
const (
	Unspecified Format = 0
	Protobuf    Format = 1
	JSON        Format = 2
	JSPB        Format = 3
	TextFormat  Format = 4
)

// Category is a conformance.TestCategory.
type Category int32

// The test categories of conformance.proto.
const (
	BinaryTest                   Category = 1
	JSONTest                     Category = 2
	JSONIgnoreUnknownParsingTest Category = 3
	JSPBTest                     Category = 4
	TextFormatTest               Category = 5
)

// Request is a decoded conformance.ConformanceRequest.
type Request struct {
	MessageType string   // full name of the payload's message
	Input       Format   // encoding of Payload
	Payload     []byte   // the message to parse
	Output      Format   // the encoding to answer with
	Category    Category // what the test checks
}

// Result is the field of conformance.ConformanceResponse's result oneof
// that a Response fills.
type Result protowire.Number

// The result fields of ConformanceResponse.
const (
	ParseError      Result = 1
	RuntimeError    Result = 2
	ProtobufPayload Result = 3
	JSONPayload     Result = 4
	Skipped         Result = 5
	SerializeError  Result = 6
)

// Response is a conformance.ConformanceResponse: one result field and its
// bytes (the payload, or the error or skip message).
type Response struct {
	Result Result
	Data   []byte
}

// Errorf returns a Response of kind r with a formatted message.
func Errorf(r Result, format string, args ...any) Response {
	return Response{Result: r, Data: fmt.Appendf(nil, format, args...)}
}

// ParseRequest decodes a ConformanceRequest. Fields it does not use
// (JSPB options, print_unknown_fields) are skipped.
func ParseRequest(b []byte) (Request, error) {
	var req Request
	for off := 0; off < len(b); {
		num, typ, n, m, err := record(b[off:])
		if err == nil {
			err = req.set(num, typ, b[off+n:off+n+m])
		}
		if err != nil {
			return req, fmt.Errorf("conformance: request byte %d: %w", off, err)
		}
		off += n + m
	}
	return req, nil
}

// payloadFormats maps the payload oneof's field numbers to their formats.
var payloadFormats = map[protowire.Number]Format{1: Protobuf, 2: JSON, 7: JSPB, 8: TextFormat}

// set stores the value v of field num, of wire type typ.
func (r *Request) set(num protowire.Number, typ protowire.Type, v []byte) error {
	if f, ok := payloadFormats[num]; ok && typ == protowire.BytesType {
		r.Input, r.Payload = f, bytesValue(v)
		return nil
	}
	switch {
	case num == 3 && typ == protowire.VarintType:
		r.Output = Format(varintValue(v))
	case num == 4 && typ == protowire.BytesType:
		r.MessageType = string(bytesValue(v))
	case num == 5 && typ == protowire.VarintType:
		r.Category = Category(varintValue(v))
	case num == 3 || num == 4 || num == 5:
		return fmt.Errorf("field %d has wire type %d", num, typ)
	}
	return nil
}

func bytesValue(v []byte) []byte { b, _ := protowire.ConsumeBytes(v); return b }
func varintValue(v []byte) int32 { x, _ := protowire.ConsumeVarint(v); return int32(x) }

// AppendResponse appends the encoding of r.
func AppendResponse(dst []byte, r Response) []byte {
	dst = protowire.AppendTag(dst, protowire.Number(r.Result), protowire.BytesType)
	return protowire.AppendBytes(dst, r.Data)
}

// Serve answers requests read from r on w until r ends: each message is a
// 4-byte little-endian length and a ConformanceRequest, each answer the
// same framing around a ConformanceResponse. A panic in handle becomes a
// runtime_error answer naming it.
func Serve(r io.Reader, w io.Writer, handle func(Request) Response) error {
	in, out := bufio.NewReader(r), bufio.NewWriter(w)
	var frame, resp []byte
	for {
		var err error
		frame, err = readFrame(in, frame)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err == nil {
			resp, err = answerFrame(out, frame, resp[:0], handle)
		}
		if err != nil {
			return err
		}
	}
}

// answerFrame answers the request in frame on out, its response built in
// resp, which it returns for reuse.
func answerFrame(out *bufio.Writer, frame, resp []byte, handle func(Request) Response) ([]byte, error) {
	req, err := ParseRequest(frame)
	if err != nil {
		return resp, err
	}
	resp = AppendResponse(resp, call(handle, req))
	return resp, writeFrame(out, resp)
}

// readFrame reads one length-prefixed frame into buf; io.EOF at a clean end.
func readFrame(r io.Reader, buf []byte) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("conformance: truncated frame length: %w", err)
		}
		return nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if uint32(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("conformance: frame of %d bytes: %w", n, err)
	}
	return buf, nil
}

func writeFrame(w *bufio.Writer, b []byte) error {
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(len(b)))
	w.Write(hdr[:])
	w.Write(b)
	return w.Flush()
}

// call runs handle, turning a panic into a runtime_error answer.
func call(handle func(Request) Response, req Request) (resp Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = Errorf(RuntimeError, "panic: %v", p)
		}
	}()
	return handle(req)
}
