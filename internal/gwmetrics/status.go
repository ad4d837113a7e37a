package gwmetrics

import "net/http"

// StatusWriter remembers the status a handler writes, for the metrics and
// the access log: the first final (non-1xx) one written, as net/http keeps
// it, or 200 when the handler writes a body without one.
type StatusWriter struct {
	http.ResponseWriter
	status int
}

// WriteHeader records code if it is the first final status, and writes it.
func (s *StatusWriter) WriteHeader(code int) {
	if s.status == 0 && code >= 200 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Flush flushes the response when the writer can.
func (s *StatusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer's own features.
func (s *StatusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Code is the status written, 200 if none was.
func (s *StatusWriter) Code() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}
