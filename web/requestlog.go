package web

import (
	"log/slog"
	"net/http"
	"time"
)

// logRequests writes one structured line per HTTP request: method, route
// pattern, status, bytes written, duration and client key; never a body.
// A WebSocket's line comes when its session ends.
func logRequests(h http.Handler, log *slog.Logger, clientKey func(*http.Request) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		status := sw.status
		if status == 0 {
			status = http.StatusOK // nothing written
		}
		log.Info("http request", "method", r.Method, "route", r.Pattern, "status", status, "bytes", sw.bytes,
			"ms", float64(time.Since(start).Microseconds())/1000, "key", clientKey(r))
	})
}

// statusWriter records the status and size of a response. Unwrap lets
// websocket.Accept and http.ResponseController reach the Hijacker and
// Flusher of the writer it wraps.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Flush lets streaming answers (NDJSON, SSE) flush through the log.
func (w *statusWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush with the socket's error (a passed write deadline).
func (w *statusWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
