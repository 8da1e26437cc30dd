package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/tracing"
)

// HostFunc is a function of the server that snippets call as
// host.<name>(...args) — or <name>(...args) when Config.HostGlobals names
// it — which returns a Promise. It runs in the server process, never in a
// worker. Args holds the JSON of each argument as JSON.stringify would
// write it; a value JSON cannot hold (a function, symbol, BigInt, cycle,
// Map, Set, Proxy, accessor) is refused with a TypeError in the snippet
// and never reaches the handler. The result is the JSON the
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
	// Clock is the run's clock at the call: in a deterministic run
	// (Deterministic) the virtual clock Date.now() reads, so that a
	// handler that answers with the time (host.time) keeps the run
	// reproducible; otherwise the server's time.
	Clock         time.Time
	Deterministic bool
	// Recording is set when the run records a tape (Request.Record): the
	// call's arguments and result go into it, so that a replay answers the
	// call from the tape and never runs the handler.
	Recording bool
	// Run is a number the pool gives each run, unique within the pool:
	// the key of state that lasts one run (a fetch policy's per-run
	// budget). Not the caller's run id, which any client may reuse.
	Run int64
}

// serveHostCall runs one call's handler in the server and sends its reply.
func (p *Pool) serveHostCall(ctx context.Context, req Request, c pipe.HostCall, reply func(pipe.HostReply)) {
	start := time.Now()
	r := pipe.HostReply{ID: c.ID}
	fn, ok := p.cfg.Host[c.Name]
	ctx, span := tracing.StartHostCall(ctx, c.Name, ok) // a no-op unless the run is traced
	if !ok {
		r.Error = "no such host function"
	} else {
		cctx, cancel := context.WithTimeout(ctx, p.cfg.HostCallTimeout)
		clock := time.Now()
		if req.Deterministic && !c.Now.IsZero() {
			clock = c.Now
		}
		res, err := p.safeCall(cctx, fn, req, HostCall{Name: c.Name, Args: c.Args, Session: req.Session, Key: req.Key, Clock: clock, Deterministic: req.Deterministic, Recording: req.Record, Run: req.seq})
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
	span.End(r.Error == "")
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

// checkHostGlobals checks Config.HostGlobals (see there).
func checkHostGlobals(c Config) error {
	seen := map[string]bool{}
	for _, g := range c.HostGlobals {
		switch {
		case !jsIdentifier.MatchString(g) || slices.Contains(jsKeywords, g):
			return fmt.Errorf("host global %q: not a JavaScript identifier", g)
		case slices.Contains(pipe.ReservedGlobals, g):
			return fmt.Errorf("host global %q: the name is a JavaScript global (a built-in, a web or Node API, or the playground's own); a host function may not shadow it — keep it under host.%s", g, g)
		case seen[g]:
			return fmt.Errorf("host global %q: named twice", g)
		}
		seen[g] = true
		if _, ok := c.Host[g]; ok {
			continue
		}
		ns := false
		for name := range c.Host {
			ns = ns || strings.HasPrefix(name, g+".")
		}
		if !ns {
			return fmt.Errorf("host global %q: no host function is named %q or %q.<name> (host functions: %s)", g, g, g, strings.Join(slices.Sorted(maps.Keys(c.Host)), ", "))
		}
	}
	return nil
}

// jsIdentifier matches the global names a host function may take: ASCII
// JavaScript identifiers.
var jsIdentifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// jsKeywords are JavaScript's reserved words, which cannot name a global
// one calls.
var jsKeywords = []string{"await", "break", "case", "catch", "class", "const", "continue", "debugger",
	"default", "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function",
	"if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null", "package",
	"private", "protected", "public", "return", "static", "super", "switch", "this", "throw", "true",
	"try", "typeof", "var", "void", "while", "with", "yield"}
