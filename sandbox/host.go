package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// HostFunc is a function of the server that snippets call as
// host.<name>(...args), which returns a Promise. It runs in the server
// process, never in a worker. args holds the JSON of each argument (a value
// JSON cannot hold arrives as its preview). The result is the JSON the
// promise resolves to (nil resolves to undefined); an error rejects it with
// the error's text, which the client sees. ctx is cancelled when the run ends
// or the call exceeds Config.HostCallTimeout. Handlers are called
// concurrently and must be safe for that.
type HostFunc func(ctx context.Context, call HostCall) (json.RawMessage, error)

// HostCall describes one call of a host function.
type HostCall struct {
	Name string
	Args []json.RawMessage
	// Session is the caller's session id (Request.Session), for state that
	// lives as long as a browser tab.
	Session string
	// Key is the caller's fairness key (its IP).
	Key string
}

// serveHostCall runs one call's handler in the server and sends its reply.
func (p *Pool) serveHostCall(ctx context.Context, req Request, c pipe.HostCall, reply func(pipe.HostReply)) {
	start := time.Now()
	r := pipe.HostReply{ID: c.ID}
	fn, ok := p.cfg.Host[c.Name]
	if !ok {
		r.Error = "no such host function"
	} else {
		cctx, cancel := context.WithTimeout(ctx, p.cfg.HostCallTimeout)
		res, err := p.safeCall(cctx, fn, req, HostCall{Name: c.Name, Args: c.Args, Session: req.Session, Key: req.Key})
		cancel()
		switch {
		case err != nil && cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
			r.Error = fmt.Sprintf("timed out after %v", p.cfg.HostCallTimeout)
		case err != nil:
			r.Error = err.Error()
		case len(res) > 0 && !json.Valid(res):
			r.Error = "the host function returned invalid JSON"
		default:
			r.Result = res
		}
	}
	r.Duration = time.Since(start)
	reply(r)
}

// safeCall runs fn, turning a panic into an error so one bad handler cannot
// take the server down. The panic goes to the log with the run's id; the
// snippet sees only that the call failed.
func (p *Pool) safeCall(ctx context.Context, fn HostFunc, req Request, c HostCall) (res json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			p.cfg.Log.Error("sandbox: host function panicked", "run", req.ID, "session", req.Session, "host", c.Name, "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("the host function failed")
		}
	}()
	return fn(ctx, c)
}
