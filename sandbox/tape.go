package sandbox

import (
	"context"
	"encoding/json"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// HostTape is a run's host calls on a tape (docs/protocol.md, "Run
// tapes"): it answers them in a replay, or is told them in a recording.
// Request.HostTape sets it for one run. The pool calls its methods from
// the goroutines that serve host calls, concurrently for one run's calls;
// they must be safe for that and must not block for long.
type HostTape interface {
	// Answer returns the reply to the run's n-th host call (1-based, in
	// the order the run made its calls: callId n) named name with args, and
	// ok true: the tape answers and no host function runs (a replay). ok
	// false lets the host function answer (a recording). errText non-empty
	// rejects the call with that text; otherwise result is the JSON the
	// promise resolves to (empty: undefined).
	Answer(n int, name string, args []json.RawMessage) (result json.RawMessage, errText string, ok bool)
	// Record is told how a host function answered the run's n-th call: its
	// result, or errText when it failed (as the snippet sees it).
	Record(n int, name string, args []json.RawMessage, result json.RawMessage, errText string)
}

// tapeCall serves the run's n-th host call c through req.HostTape: from
// the tape (no host function runs), or by the host function with its reply
// recorded.
func (p *Pool) tapeCall(ctx context.Context, req Request, n int, c pipe.HostCall, reply func(pipe.HostReply)) {
	if res, errText, ok := req.HostTape.Answer(n, c.Name, c.Args); ok {
		reply(pipe.HostReply{ID: c.ID, Result: res, Error: errText})
		return
	}
	p.serveHostCall(ctx, req, c, func(r pipe.HostReply) {
		req.HostTape.Record(n, c.Name, c.Args, r.Result, r.Error)
		reply(r)
	})
}
