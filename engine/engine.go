package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/runs"
	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/tape"
	"github.com/playground-dev/playground/tracing"
	"github.com/playground-dev/playground/ws"
)

// Engine is the run logic every transport shares (a WebSocket session, the
// HTTP run API, the MCP tool, the command line): it checks a run against the announced
// limits and the rate limit, runs it through the Runner with the client's
// fairness key, and translates the sandbox's events into protocol messages
// stamped with the run's id, seq and t, done last. An Engine is safe for
// concurrent use; its fields must not change once it is in use.
type Engine struct {
	Runner  Runner  // required
	Limiter Limiter // required
	// Limits are the announced limits (hello.limits); MaxFiles and
	// MaxSourceBytes are checked here, the rest by the Runner.
	Limits ws.Limits
	// Metrics are the server's counters: queued runs, counted here, and
	// runs received and active and open sockets, counted by the
	// transports, which share the engine.
	Metrics Metrics
	// Observer is told of every run's end, refusals included. May be nil.
	Observer Observer
	// Runs, if set, caps the runs one client key holds at once (queued or
	// executing, across all its sockets and requests, and across instances
	// when the counts are shared); a run past it ends busy.
	Runs Counter
	// Hub, if set, makes every executed run watchable (runs.Hub): its
	// started carries a watch token and its messages are buffered for
	// watchers (Job.Live).
	Hub *runs.Hub
	// Trace, if set, makes a span of each run that reaches the Runner
	// (tracing.Tracer.StartRun), parented on the span context in the
	// run's context (the transport's Extract); nil: no spans, nothing paid.
	Trace *tracing.Tracer
	Log   *slog.Logger // nil means slog.Default()

	draining atomic.Bool // set by Drain
}

// Drain makes the engine refuse every new run as busy: the server is
// shutting down and the client should retry elsewhere. Runs in flight go on.
func (e *Engine) Drain() { e.draining.Store(true) }

// Draining reports whether Drain was called.
func (e *Engine) Draining() bool { return e.draining.Load() }

// Observer is told how each run ended (the server's metrics implement it).
// errorKind is the kind of the run's last error event, "" when it had
// none; durations are the run's queue, bundle and execution times.
// RunDone is called once per run, concurrently for different runs.
type Observer interface {
	RunDone(outcome, errorKind string, queue, bundle, run time.Duration, outputBytes int)
}

// Counter caps how many of something one key holds at once
// (ratelimit.Counts implements it, in-process or shared through Redis).
type Counter interface {
	// Acquire takes one of key's slots; ok is false when key holds them all.
	// release gives it back and may be called more than once.
	Acquire(key string) (release func(), ok bool)
	// Max is the slots each key may hold.
	Max() int
}

// busyRetry is the Retry-After of a run refused as busy by the engine (the
// server drains, or the client holds maxRunsPerClient runs): about one
// health-check interval, after which a load balancer has moved the client
// elsewhere, and about a short run's length.
const busyRetry = time.Second

// Job is one run as a transport hands it over.
type Job struct {
	Run *ws.Run // decoded and checked by ws.Decode (or an equivalent)
	// Key is the client's rate-limit and fair-queue key: its IP, or
	// "key:"+name for a program with an API key.
	Key string
	// Session identifies the caller for host functions that keep state per
	// session: a tab's session id, or StatelessSession's fresh id for a
	// request that stands alone (HTTP, MCP).
	Session string
	// Received is when the run arrived; done.durationMs counts from it.
	// Zero means now.
	Received time.Time
	// MaxOutputBytes, when positive, caps this run's output below the
	// announced limit (sandbox.Request.MaxOutputBytes): a socket's, whose
	// outbox must hold the whole done message.
	MaxOutputBytes int
	// Live is the run's entry in Hub, opened by a transport that needs it
	// (to detach the run, or to answer with its token before it ends);
	// nil: Execute opens one when the engine has a Hub.
	Live *runs.Run
	// KeepReplayed asks Engine.Replay for the replay's own messages
	// (Replayed.Sent).
	KeepReplayed bool
	// Replay, when set, re-runs this tape: the run's host calls are
	// answered from it, no host function runs (Engine.Replay sets it).
	Replay *tape.Tape
}

// Refusal says why a run will not execute.
type Refusal struct {
	// Outcome is ws.OutcomeInvalid, ws.OutcomeRateLimited, or
	// ws.OutcomeBusy while the server drains.
	Outcome string
	// Field names the request field at fault ("files", "files[0].source"…) for OutcomeInvalid.
	Field string
	// Reason is a sentence for a human, naming the limit that was broken.
	Reason string
	// RetryAfter is set with OutcomeRateLimited and OutcomeBusy.
	RetryAfter time.Duration
}

// Message is the text of the INVALID_REQUEST error a refused invalid run carries.
func (r *Refusal) Message() string { return fmt.Sprintf("invalid run: %s: %s", r.Field, r.Reason) }

// CheckLimits checks m against the announced file-count, source-size and
// input-size limits (zero limits are not checked) and that it has an entry file (named,
// or found by sandbox.DefaultEntry). It returns nil when m may run.
func CheckLimits(m *ws.Run, lim ws.Limits) *Refusal {
	if lim.MaxFiles > 0 && len(m.Files) > lim.MaxFiles {
		return &Refusal{Outcome: ws.OutcomeInvalid, Field: "files",
			Reason: fmt.Sprintf("%d files; the limit is maxFiles=%d", len(m.Files), lim.MaxFiles)}
	}
	total := 0
	for _, f := range m.Files {
		total += len(f.Source)
	}
	if lim.MaxSourceBytes > 0 && total > lim.MaxSourceBytes {
		return &Refusal{Outcome: ws.OutcomeInvalid, Field: "files",
			Reason: fmt.Sprintf("the files hold %d bytes of source; the limit is maxSourceBytes=%d", total, lim.MaxSourceBytes)}
	}
	if lim.MaxInputBytes > 0 && int64(len(m.Input)) > lim.MaxInputBytes {
		return &Refusal{Outcome: ws.OutcomeInvalid, Field: "input",
			Reason: fmt.Sprintf("the input is %d bytes of JSON; the limit is maxInputBytes=%d", len(m.Input), lim.MaxInputBytes)}
	}
	if Entry(m) == "" {
		return &Refusal{Outcome: ws.OutcomeInvalid, Field: "entry",
			Reason: "no entry file: name one with \"entry\" or add src/main.ts (or main.ts, index.ts, src/index.ts, main.js, index.js)"}
	}
	return nil
}

// Admit checks j against the limits, then takes one token of the rate
// limit for j.Key. A nil result means the run may execute.
func (e *Engine) Admit(j Job) *Refusal {
	r := e.admit(j)
	if r != nil {
		e.refused(j, r)
	}
	return r
}

// refused reports a refused run to the observer and the log.
func (e *Engine) refused(j Job, r *Refusal) {
	kind := ""
	if r.Outcome == ws.OutcomeInvalid {
		kind = ws.KindInvalidRequest
	}
	if e.Observer != nil {
		e.Observer.RunDone(r.Outcome, kind, 0, 0, 0, 0)
	}
	e.log().Info("run refused", "session", j.Session, "run", j.Run.ID, "key", j.Key, "outcome", r.Outcome, "field", r.Field, "reason", r.Reason)
}

func (e *Engine) admit(j Job) *Refusal {
	if r := CheckLimits(j.Run, e.Limits); r != nil {
		return r
	}
	if e.Draining() {
		return &Refusal{Outcome: ws.OutcomeBusy, Reason: "the server is shutting down; retry (a load balancer sends you to another instance)", RetryAfter: busyRetry}
	}
	if ok, retry := e.Limiter.Allow(j.Key); !ok {
		return &Refusal{Outcome: ws.OutcomeRateLimited, RetryAfter: retry}
	}
	return nil
}

func (e *Engine) log() *slog.Logger {
	if e.Log == nil {
		return slog.Default()
	}
	return e.Log
}

// Refuse sends the messages of a run that will not execute: an
// INVALID_REQUEST error for an invalid run, then its done, which it
// returns.
func Refuse(id string, r *Refusal, send func(any)) ws.Done {
	seq := uint64(0)
	if r.Outcome == ws.OutcomeInvalid {
		seq++
		send(ws.Error{RunHeader: ws.RunHeader{Type: ws.TypeError, ID: id, Seq: seq}, Kind: ws.KindInvalidRequest, Message: r.Message()})
	}
	seq++
	done := ws.Done{RunHeader: ws.RunHeader{Type: ws.TypeDone, ID: id, Seq: seq}, Outcome: r.Outcome, Facts: map[string]json.RawMessage{}}
	if r.Outcome == ws.OutcomeRateLimited || r.Outcome == ws.OutcomeBusy {
		retry := ms(r.RetryAfter)
		done.RetryAfterMs = &retry
	}
	send(done)
	return done
}

// Run admits j and executes it, or refuses it: every message of the run
// goes to send in seq order, done last and exactly once; Run returns that
// done. send is called from Run's goroutine or, during the run, from the
// Runner's emitting goroutine, never concurrently, and must not block for
// long (it holds up the run's worker).
func (e *Engine) Run(ctx context.Context, j Job, send func(any)) ws.Done {
	if r := e.Admit(j); r != nil {
		return Refuse(j.Run.ID, r, send)
	}
	return e.Execute(ctx, j, send)
}

// Execute runs an admitted j through the Runner (see Run). When ctx ends
// the run is cancelled and its done (outcome cancelled) is still sent.
func (e *Engine) Execute(ctx context.Context, j Job, send func(any)) ws.Done {
	send = e.live(j, send) // watchers and reattach (live.go)
	received := j.Received
	if received.IsZero() {
		received = time.Now()
	}
	log := e.log()
	rec := e.recorder(j) // nil unless the run records a tape (tape.go)
	send = rec.wrap(send)
	if e.Runs != nil {
		release, ok := e.Runs.Acquire(j.Key)
		if !ok {
			r := &Refusal{Outcome: ws.OutcomeBusy, RetryAfter: busyRetry,
				Reason: fmt.Sprintf("this client already has %d runs queued or running (maxRunsPerClient)", e.Runs.Max())}
			e.refused(j, r)
			return Refuse(j.Run.ID, r, send)
		}
		defer release()
	}
	metrics := &e.Metrics
	m := j.Run
	var seq uint64
	lastKind := "" // the kind of the run's last error event
	queued := false
	defer func() {
		if queued {
			metrics.QueuedRuns.Add(-1)
		}
	}()
	emit := func(ev sandbox.Event) {
		switch {
		case ev.Kind == sandbox.EventQueued && !queued:
			queued = true
			metrics.QueuedRuns.Add(1)
		case ev.Kind != sandbox.EventQueued && queued:
			queued = false
			metrics.QueuedRuns.Add(-1)
		}
		if ev.Kind == sandbox.EventError && ev.Error != nil {
			lastKind = wireKind(ev.Error.Kind)
		}
		seq++
		send(toWire(m.ID, seq, ev))
	}
	req := toRequest(m, j.Key, j.Session)
	req.MaxOutputBytes = j.MaxOutputBytes
	rec.hostTape(j, &req)
	ctx, span := e.Trace.StartRun(ctx, m.ID, j.Key, received)
	res, err := e.Runner.Run(ctx, req, emit)
	if err != nil {
		errorID := newErrorID()
		log.Error("run failed", "session", j.Session, "run", m.ID, "key", j.Key, "errorID", errorID, "err", err)
		seq++
		send(ws.Error{RunHeader: ws.RunHeader{Type: ws.TypeError, ID: m.ID, Seq: seq}, Kind: ws.KindInternal,
			Message: "internal error " + errorID + ": the playground failed to run this; the error id is in the server log"})
		res = sandbox.Result{Outcome: sandbox.OutcomeError, Facts: res.Facts}
		lastKind = ws.KindInternal
	}
	seq++
	done := doneMessage(m.ID, seq, res, time.Since(received))
	done.Tape = rec.finish(done)
	send(done)
	st := res.Stats
	span.End(done.Outcome, lastKind, st.Queue, st.Bundle, st.Run)
	if e.Observer != nil {
		e.Observer.RunDone(done.Outcome, lastKind, st.Queue, st.Bundle, st.Run, st.OutputBytes)
	}
	// One line per run: never the snippet's source or output.
	if log.Enabled(ctx, slog.LevelInfo) {
		log.Info("run finished", "session", j.Session, "run", m.ID, "key", j.Key, "outcome", done.Outcome, "errorKind", lastKind,
			"ms", done.DurationMs, "queueMs", ms(st.Queue), "bundleMs", ms(st.Bundle), "runMs", ms(st.Run),
			"logs", st.Logs, "outputBytes", st.OutputBytes, "truncated", st.Truncated)
	}
	return done
}

func newErrorID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Entry returns the entry path m runs: m.Entry, or the protocol's default
// (sandbox.DefaultEntry), or "" when there is none.
func Entry(m *ws.Run) string {
	if m.Entry != "" {
		return m.Entry
	}
	files := make([]sandbox.File, len(m.Files))
	for i, f := range m.Files {
		files[i] = sandbox.File{Path: f.Path}
	}
	return sandbox.DefaultEntry(files)
}

// statelessPrefix starts the session id of every run that belongs to no
// tab (StatelessSession).
const statelessPrefix = "stateless-"

// StatelessSession returns a fresh session id for a run that belongs to no
// tab and is never seen again (one HTTP or MCP request; kind says which, for
// logs): host functions that keep state per session refuse it (Stateless),
// as nothing stored for it could be read again.
func StatelessSession(kind string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return statelessPrefix + kind + "-" + hex.EncodeToString(b[:])
}

// Stateless reports whether session came from StatelessSession.
func Stateless(session string) bool { return strings.HasPrefix(session, statelessPrefix) }
