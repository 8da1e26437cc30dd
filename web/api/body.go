package api

import (
	"net/http"
	"time"
)

// DefaultBodyReadTimeout is how long a client may take to send a
// request's body to /api/v1/ or /mcp, counted from when its handler starts
// (Config.BodyReadTimeout). The server's ReadHeaderTimeout bounds the
// headers; without this, a client trickling a byte every few seconds held a
// connection (and its handler) for as long as it liked.
const DefaultBodyReadTimeout = 30 * time.Second

// bodyDeadline sets a read deadline of timeout on the connection before
// the handler reads the request's body: a read past it fails with an error
// wrapping os.ErrDeadlineExceeded. It only bounds reading: a response that
// takes longer (a run's stream) is not cut by it, and net/http sets the
// connection's deadlines anew for its next request (TestSlowBodyTimesOut).
func bodyDeadline(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
		}
		next.ServeHTTP(w, r)
	})
}
