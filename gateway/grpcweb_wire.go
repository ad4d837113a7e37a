package gateway

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/invoke/mdvalue"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Flags of a gRPC-Web frame.
const (
	webFrameData       byte = 0x00
	webFrameCompressed byte = 0x01
	webFrameTrailer    byte = 0x80
)

// readWebFrames reads the length-prefixed messages of a gRPC-Web request
// body, each at most limit bytes. Errors name the frame's byte offset.
func readWebFrames(r io.Reader, limit int64) ([][]byte, error) {
	var msgs [][]byte
	var hdr [5]byte
	for off := int64(0); ; {
		_, err := io.ReadFull(r, hdr[:])
		switch {
		case errors.Is(err, io.EOF):
			return msgs, nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("gateway: gRPC-Web frame at byte %d: header cut short", off)
		case err != nil:
			return nil, err
		}
		n := int64(binary.BigEndian.Uint32(hdr[1:]))
		if err := checkWebFrame(hdr[0], n, limit, off); err != nil {
			return nil, err
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(r, msg); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("gateway: gRPC-Web frame at byte %d: message of %d bytes cut short", off, n)
			}
			return nil, err
		}
		msgs = append(msgs, msg)
		off += 5 + n
	}
}

func checkWebFrame(flag byte, n, limit, off int64) error {
	switch {
	case flag&webFrameTrailer != 0:
		return status.Errorf(codes.InvalidArgument, "gateway: gRPC-Web frame at byte %d: a trailer frame in a request", off)
	case flag == webFrameCompressed:
		return status.Errorf(codes.Unimplemented, "gateway: gRPC-Web frame at byte %d: compressed messages are not served", off)
	case flag != webFrameData:
		return status.Errorf(codes.InvalidArgument, "gateway: gRPC-Web frame at byte %d: unknown flags 0x%02x", off, flag)
	case n > limit:
		return status.Errorf(codes.ResourceExhausted, "gateway: gRPC-Web frame at byte %d: message of %d bytes, past the limit of %d", off, n, limit)
	}
	return nil
}

// webTextReader decodes a grpc-web-text body as it arrives, one
// 4-character group at a time: padding may close any group, since clients
// encode each chunk (or frame) on its own and concatenate them.
type webTextReader struct {
	r        io.Reader
	in       [4]byte
	out      [3]byte
	off, end int
	pos      int64 // bytes of base64 consumed
}

func newWebTextReader(r io.Reader) *webTextReader { return &webTextReader{r: r} }

func (t *webTextReader) Read(p []byte) (int, error) {
	for t.off == t.end {
		if err := t.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, t.out[t.off:t.end])
	t.off += n
	return n, nil
}

func (t *webTextReader) fill() error {
	n, err := io.ReadFull(t.r, t.in[:])
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("gateway: grpc-web-text body: %d bytes of base64 at byte %d, not a multiple of 4", n, t.pos)
	}
	if err != nil {
		return err
	}
	m, err := base64.StdEncoding.Decode(t.out[:], t.in[:])
	var corrupt base64.CorruptInputError
	if errors.As(err, &corrupt) {
		return fmt.Errorf("gateway: grpc-web-text body: bad base64 at byte %d", t.pos+int64(corrupt))
	}
	t.pos += 4
	t.off, t.end = 0, m
	return nil
}

// webWriter writes a gRPC-Web response.
type webWriter struct {
	w        http.ResponseWriter
	text     bool
	started  bool        // the HTTP headers are out
	headerMD metadata.MD // response headers not yet sent, for trailers-only
}

// header sends the HTTP headers with the upstream's header metadata, once.
func (o *webWriter) header(md metadata.MD, contentType string) {
	if o.started {
		return
	}
	o.started = true
	h := o.w.Header()
	h.Set("Content-Type", contentType)
	copyWebMetadata(h, md)
	o.w.WriteHeader(http.StatusOK)
}

// frame writes one frame (base64 on its own in -text mode) and flushes it.
func (o *webWriter) frame(flag byte, payload []byte) error {
	buf := make([]byte, 5, 5+len(payload))
	buf[0] = flag
	binary.BigEndian.PutUint32(buf[1:5], uint32(len(payload)))
	buf = append(buf, payload...)
	if o.text {
		buf = base64.StdEncoding.AppendEncode(nil, buf)
	}
	if _, err := o.w.Write(buf); err != nil {
		return status.Errorf(codes.Canceled, "gateway: writing the response: %v", err)
	}
	_ = http.NewResponseController(o.w).Flush()
	return nil
}

// trailersOnly answers with the status in the HTTP headers and no body.
func (o *webWriter) trailersOnly(st *status.Status, trailer metadata.MD, contentType string) {
	h := o.w.Header()
	h.Set("Content-Type", contentType)
	copyWebMetadata(h, o.headerMD)
	copyWebMetadata(h, trailer)
	h.Set("Grpc-Status", strconv.Itoa(int(st.Code())))
	if m := st.Message(); m != "" {
		h.Set("Grpc-Message", encodeGRPCMessage(m))
	}
	if d := statusDetailsBin(st); d != "" {
		h.Set("Grpc-Status-Details-Bin", d)
	}
	h.Set("Content-Length", "0")
	o.started = true
	o.w.WriteHeader(http.StatusOK)
}

// webTrailer is the body of the trailer frame: an HTTP/1-style header
// block with the status and the trailer metadata.
func webTrailer(st *status.Status, trailer metadata.MD) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "grpc-status: %d\r\n", st.Code())
	if m := st.Message(); m != "" {
		fmt.Fprintf(&b, "grpc-message: %s\r\n", encodeGRPCMessage(m))
	}
	if d := statusDetailsBin(st); d != "" {
		fmt.Fprintf(&b, "grpc-status-details-bin: %s\r\n", d)
	}
	writeTrailerMetadata(&b, trailer)
	return []byte(b.String())
}

// writeTrailerMetadata writes the application's trailer metadata as
// header lines, sorted by key.
func writeTrailerMetadata(b *strings.Builder, trailer metadata.MD) {
	keys := make([]string, 0, len(trailer))
	for k := range trailer {
		if !reservedMetadata(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range trailer[k] {
			fmt.Fprintf(b, "%s: %s\r\n", k, mdvalue.Encode(k, v))
		}
	}
}

// copyWebMetadata sets metadata as plain HTTP headers, as gRPC-Web
// clients read them, exposed to scripts when the request is cross-origin.
func copyWebMetadata(h http.Header, md metadata.MD) {
	for k, vs := range md {
		if reservedMetadata(k) {
			continue
		}
		for _, v := range vs {
			h.Add(k, mdvalue.Encode(k, v))
		}
		exposeHeader(h, k)
	}
}

// reservedMetadata reports keys of the transport, not the application.
func reservedMetadata(k string) bool {
	return k == "content-type" || strings.HasPrefix(k, "grpc-") || strings.HasPrefix(k, ":")
}

// statusDetailsBin is grpc-status-details-bin: the google.rpc.Status in
// base64, when it has details.
func statusDetailsBin(st *status.Status) string {
	p := st.Proto()
	if len(p.GetDetails()) == 0 {
		return ""
	}
	b, err := proto.Marshal(p)
	if err != nil {
		return ""
	}
	return mdvalue.Encode("grpc-status-details-bin", string(b))
}

// encodeGRPCMessage percent-encodes a status message as grpc-message
// wants: bytes outside printable ASCII, and '%'.
func encodeGRPCMessage(m string) string {
	var b strings.Builder
	for i := range len(m) {
		c := m[i]
		if c < 0x20 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
