package api

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// DefaultBodyReadTimeout is how long a client may take to send a
// request's body to /api/v1/ or /mcp, counted from when its handler starts
// (Config.BodyReadTimeout). The server's
// ReadHeaderTimeout bounds the headers; without this, a client trickling a
// byte every few seconds held a connection (and its handler) for as long
// as it liked.
const DefaultBodyReadTimeout = 30 * time.Second

// bodyDeadline sets a read deadline of timeout on the connection while
// the handler reads the request's body, and clears it once the body is
// read to its end or closed, so that the response (a run's stream, an
// MCP event stream) is not cut by it. A read past the deadline fails with
// an error wrapping os.ErrDeadlineExceeded.
func bodyDeadline(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(timeout)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, clear: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody clears the read deadline at the body's end or close.
type deadlineBody struct {
	io.ReadCloser
	once  sync.Once
	clear func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.clear)
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	b.once.Do(b.clear)
	return b.ReadCloser.Close()
}
