package gateway

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// minCompress is the smallest response message worth gzipping.
const minCompress = 1 << 10

// gzipWriters and gzipReaders recycle the state of gzip, which is large.
var (
	gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}
	gzipReaders sync.Pool
)

// compression reports whether a Content-Encoding (or its Connect
// equivalents) names gzip; names other than gzip and identity are not
// served.
func compression(name string) (bool, error) {
	switch name {
	case "", "identity":
		return false, nil
	case "gzip":
		return true, nil
	}
	return false, status.Errorf(codes.Unimplemented, "gateway: compression %q is not served, only gzip and identity", name)
}

// acceptsGzip reports whether an Accept-Encoding value lists gzip.
func acceptsGzip(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		name, _, _ := strings.Cut(part, ";")
		if strings.TrimSpace(name) == "gzip" {
			return true
		}
	}
	return false
}

// gzipAppend appends msg gzipped to dst.
func gzipAppend(dst, msg []byte) []byte {
	b := bytes.NewBuffer(dst)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(b)
	_, _ = zw.Write(msg) // a bytes.Buffer does not fail
	_ = zw.Close()
	zw.Reset(io.Discard)
	gzipWriters.Put(zw)
	return b.Bytes()
}

// gunzip decompresses msg, which may come to at most limit bytes.
func gunzip(msg []byte, limit int64) ([]byte, error) {
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(msg))
	} else {
		err = zr.Reset(bytes.NewReader(msg))
	}
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "gateway: gzip: %v", err)
	}
	defer gzipReaders.Put(zr)
	out, err := readAll(nil, io.LimitReader(zr, limit+1), 0)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "gateway: gzip: %v", err)
	}
	if int64(len(out)) > limit {
		return nil, status.Errorf(codes.ResourceExhausted, "gateway: message larger than %d bytes once decompressed", limit)
	}
	return out, nil
}
