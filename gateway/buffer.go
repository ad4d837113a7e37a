package gateway

import (
	"io"
	"sync"
)

// bufs recycles the buffers of request bodies and response JSON.
var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func getBuf() *[]byte { return bufs.Get().(*[]byte) }

// putBuf recycles b as it is now (its contents are done with); very large
// buffers are left to the collector.
func putBuf(b *[]byte, now []byte) {
	if cap(now) > 1<<20 {
		return
	}
	*b = now[:0]
	bufs.Put(b)
}

// readAll appends all of r to dst, growing it at most as needed.
func readAll(dst []byte, r io.Reader, sizeHint int64) ([]byte, error) {
	if sizeHint > 0 && int64(cap(dst)-len(dst)) < sizeHint+1 {
		dst = append(dst[:cap(dst)], make([]byte, sizeHint+1)...)[:len(dst)]
	}
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}
