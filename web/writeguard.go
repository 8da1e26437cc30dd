package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Bounds of every plain HTTP answer (all routes but the WebSocket's, whose
// writes have their own deadlines): Config.WriteTimeout and
// Config.ResponseBytes default to these.
const (
	// DefaultWriteTimeout bounds each write of an answer, counted from
	// when it is handed over: a client that stops reading holds its
	// handler (and what that handler has built) for at most this long.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultResponseBytes bounds one answer's body. The largest legitimate
	// one is a run's result (1 MiB of output, escaped, twice: text and
	// args, plus its facts) or a batch of a few of them.
	DefaultResponseBytes = 32 << 20
)

// ErrResponseTooLarge is returned by a guarded writer's Write once the
// answer would pass its byte budget; the connection is then cut.
var ErrResponseTooLarge = errors.New("the answer passes the server's byte budget for one response")

// guardWrites gives each write of h's answers a deadline of timeout
// (refreshed at each write and flush, and for the write net/http makes
// after h returns) and cuts an answer past limit bytes: the write fails,
// and once h returns the connection is closed without ending the answer
// (http.ErrAbortHandler), so that the client sees it was cut.
func guardWrites(h http.Handler, timeout time.Duration, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := &guardedWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout, left: limit}
		g.deadline()
		h.ServeHTTP(g, r)
		g.deadline() // for what net/http writes after the handler (the buffer, the last chunk)
		if g.cut {
			panic(http.ErrAbortHandler)
		}
	})
}

// guardedWriter counts an answer's bytes and sets a write deadline before
// each write. Unwrap lets http.ResponseController reach the writer below.
type guardedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	left    int64
	cut     bool
}

func (g *guardedWriter) deadline() { _ = g.rc.SetWriteDeadline(time.Now().Add(g.timeout)) }

func (g *guardedWriter) Write(p []byte) (int, error) {
	if g.cut || int64(len(p)) > g.left {
		g.cut = true
		return 0, fmt.Errorf("%w (%d bytes)", ErrResponseTooLarge, g.left+int64(len(p)))
	}
	g.left -= int64(len(p))
	g.deadline()
	return g.ResponseWriter.Write(p)
}

// FlushError flushes within the write deadline; http.ResponseController
// and streaming answers call it.
func (g *guardedWriter) FlushError() error {
	g.deadline()
	return g.rc.Flush()
}

// Flush is FlushError for callers that look for http.Flusher.
func (g *guardedWriter) Flush() { _ = g.FlushError() }

func (g *guardedWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }
