// Package engine is the run engine every transport shares: the WebSocket
// sessions (session), the HTTP run API and the MCP tool (web/api) and the
// command line (cmd/playground's playground run). It runs in the server
// process. cmd/playground builds one Engine and hands it to each transport.
//
// For one run, the Engine checks the request against the announced limits
// (CheckLimits), refuses it while the server drains or the client holds
// too many runs, takes a token of the client's rate limit, hands it to the
// Runner (the sandbox pool) with the client's fair-queue key, and
// translates the sandbox's events into protocol messages stamped with the
// run's id, seq and t, done last and exactly once. translate.go is the one
// place where engine values (sandbox requests, events, results, durations,
// outcomes and error kinds) become wire values (ws).
//
// The engine sees the sandbox and the rate limiter through interfaces it
// declares (Runner, Limiter, Counter, Observer); *sandbox.Pool and the
// ratelimit package satisfy them without knowing they exist.
package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/sandbox"
)

// Runner runs one program, calling emit for each event in order; emit never
// blocks. *sandbox.Pool satisfies it.
type Runner interface {
	Run(ctx context.Context, req sandbox.Request, emit func(sandbox.Event)) (sandbox.Result, error)
}

// Limiter reports whether key may start a run now, and if not, when to
// retry. *ratelimit.Limiter satisfies it.
type Limiter interface {
	Allow(key string) (ok bool, retryAfter time.Duration)
}

// Metrics counts what the transports and the engine are doing; a server
// shares one among all of them. Its fields are read with Load.
type Metrics struct {
	Sessions   atomic.Int64 // open sockets (session)
	ActiveRuns atomic.Int64 // runs between their request and their done (every transport)
	QueuedRuns atomic.Int64 // active runs waiting for a sandbox slot (the engine)
	Runs       atomic.Int64 // runs received, in all (every transport)
}
