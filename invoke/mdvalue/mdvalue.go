// Package mdvalue converts gRPC metadata values to and from the header
// text that carries them: values under keys ending in "-bin" are binary
// and travel in base64; the others are text and travel as they are. It is
// the one place invoke/lean, the gateway, the ui and the CLI do this.
//
// mdvalue imports only the standard library.
package mdvalue

import (
	"encoding/base64"
	"errors"
	"strings"
)

// IsBinary reports whether key's values are binary: it ends in "-bin".
func IsBinary(key string) bool { return strings.HasSuffix(key, "-bin") }

// Encode returns v as it goes on the wire: for a binary key, base64
// without padding, as gRPC's HTTP/2 protocol asks of senders; other
// values as they are.
func Encode(key, v string) string {
	if IsBinary(key) {
		return base64.RawStdEncoding.EncodeToString([]byte(v))
	}
	return v
}

// Text returns v as people read it (the CLI's -v, the ui's rows, the
// gateway's Grpc-Metadata-* headers): for a binary key, standard padded
// base64; other values as they are. Decode reads both forms.
func Text(key, v string) string {
	if IsBinary(key) {
		return base64.StdEncoding.EncodeToString([]byte(v))
	}
	return v
}

// Decode returns the value header text carries: for a binary key, the
// text base64-decoded, padded or not (an error when it is neither);
// other text as it is.
func Decode(key, text string) (string, error) {
	if !IsBinary(key) {
		return text, nil
	}
	enc := base64.StdEncoding
	if len(text)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(text)
	if err != nil {
		return "", errors.New("a -bin value must be base64")
	}
	return string(b), nil
}

// DecodeOrKeep is Decode for input that may give a binary value as it
// is: text that is not base64 stays as it was.
func DecodeOrKeep(key, text string) string {
	if v, err := Decode(key, text); err == nil {
		return v
	}
	return text
}
