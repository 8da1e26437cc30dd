package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// Driving one job on a worker, from the parent's side of the pipe.

// errNotStarted says a job never reached its worker: the worker was dead,
// died before taking it, or did not accept it in time. The pool retries
// such a job once on another worker.
var errNotStarted = errors.New("the worker did not take the job")

// exec drives one job on worker w: it forwards events after re-checking
// the caps, and enforces the deadline and cancellation by killing w when
// w does not stop by itself. Host calls are served in the background and
// their replies come back through this loop, which parks the run (rs)
// while it only waits on them (park.go). When the pool closes, the run ends
// cancelled and w is killed.
func (p *Pool) exec(ctx context.Context, w *proc, req Request, job *pipe.Job, emit func(Event), rs *runSlot) (Result, error) {
	res := Result{Facts: map[string]json.RawMessage{}}
	hostCtx, stopHost := context.WithCancel(ctx) // host handlers end with the run
	defer stopHost()
	replies := make(chan pipe.HostReply)
	pk := p.newParker(ctx, w, rs, func(r pipe.HostReply) { _ = w.send(pipe.Command{Op: pipe.OpReply, Reply: &r}) })
	defer pk.end()
	calls := 0
	inflight := map[int64]context.CancelFunc{} // the host calls being served, by id (a cancel ends one)
	// One deadline for both processes, counted from the instant the job
	// leaves: the worker's (pipe.Job.Deadline) and, KillGrace after it,
	// this side's kill.
	sent := time.Now()
	runEnd := sent.Add(job.Timeout)
	if job.Timeout > 0 {
		job.Deadline = runEnd.UnixNano()
	}
	if err := w.send(pipe.Command{Op: pipe.OpRun, Job: job}); err != nil {
		p.retire(w, true)
		return res, fmt.Errorf("%w: send job: %v", errNotStarted, err)
	}
	accepted := false // the worker said it took the job
	lim := job.Limits
	var (
		started                bool
		startedAt              time.Time
		events, logs, outBytes int // re-counted here: the worker's numbers are not trusted
		lastT                  time.Duration
	)
	facts := newFactMirror()
	deadline := time.NewTimer(p.cfg.AcceptTimeout) // then the run's own (runEnd), once accepted
	defer deadline.Stop()
	timeoutSent := false // the worker's own TIMEOUT error reached the client
	stop := func(outcome Outcome, e *Error) Result {
		pk.end()
		p.kill(w)
		if e != nil && !(e.Kind == KindTimeout && timeoutSent) { // one TIMEOUT error per run
			emit(Event{Kind: EventError, T: lastT, Error: e})
		}
		res.Outcome, res.TimedOut = outcome, outcome == OutcomeTimeout
		res.Facts, res.End = facts.snapshot(), lastT
		if started {
			res.Stats.Run = time.Since(startedAt)
		}
		res.Stats.OutputBytes, res.Stats.Logs = outBytes, logs
		return res
	}
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				if w.lineTooLong() {
					res.Stats.Truncated = true
					return stop(OutcomeOutputLimit, &Error{Kind: KindOutputLimit, Message: "run exceeded its output limit (one event was too large)"}), nil
				}
				if !accepted && !w.wasKilled() {
					<-w.exited
					// A cached job's accepted line waits (up to the
					// worker's next watchdog tick, 2 ms) to leave with its
					// first event, so a worker that died on its own before
					// saying a word may have run the snippet that killed
					// it: only one ended
					// from outside (the OOM killer, an operator) is stale,
					// and its job is retried. Any other is the job's crash.
					if w.killedFromOutside() {
						p.retire(w, true)
						return res, fmt.Errorf("%w: the worker exited (%s)", errNotStarted, w.exitStatus())
					}
					return p.crashed(w, true, time.Time{}, facts, Stats{}, emit)
				}
				return p.crashed(w, started, startedAt, facts, Stats{Logs: logs, OutputBytes: outBytes}, emit)
			}
			var m pipe.Message
			if err := pipe.DecodeMessage(line, &m); err != nil || !m.Valid() || m.Ready || (accepted && m.Accepted) {
				p.cfg.Log.Error("sandbox worker sent a bad line", "line", truncate(string(line), 200))
				return stop(OutcomeError, internalError(p.cfg.Log, "bad line from worker")), nil
			}
			if !accepted {
				if !m.Accepted {
					p.cfg.Log.Error("sandbox worker sent a line before accepting its job", "line", truncate(string(line), 200))
					return stop(OutcomeError, internalError(p.cfg.Log, "bad line from worker")), nil
				}
				accepted = true
				if job.Timeout > 0 {
					pk.runEnd = runEnd
				}
				// Bundling and compiling count against the run's own
				// timeout (the worker gives the runtime what is left). An
				// accepted line that comes after runEnd (a loaded machine)
				// still leaves the worker KillGrace to send its own TIMEOUT.
				deadline.Reset(max(time.Until(runEnd), 0) + p.cfg.KillGrace)
				continue
			}
			if m.Result != nil {
				r := *m.Result
				if r.Facts == nil {
					r.Facts = map[string]json.RawMessage{}
				}
				r.Stats.Logs, r.Stats.OutputBytes = min(r.Stats.Logs, logs), outBytes
				if r.Outcome == OutcomeMemoryLimit {
					// A worker that ends itself over its memory (its watchdog)
					// sends a result without stats: the parent's counts stand.
					r.Stats.Logs = logs
					if r.Stats.Run == 0 && started {
						r.Stats.Run = time.Since(startedAt)
					}
				}
				// The facts are what the fact events said, not the worker's
				// snapshot: a worker that ended itself (its memory watchdog)
				// sends none, and the parent trusts no size it did not count.
				r.Facts = facts.snapshot()
				pk.end()
				p.release(w, &r)
				return r, nil
			}
			if m.Idle != nil {
				pk.idle(*m.Idle)
				continue
			}
			if c := m.Call; c != nil {
				if c.Cancel { // the snippet gave the call up (a fetch's AbortSignal): end its handler
					if cancel, ok := inflight[c.ID]; ok {
						cancel()
					}
					continue
				}
				if calls++; calls > lim.MaxHostCalls {
					return stop(OutcomeError, &Error{Kind: KindSecurity, Message: fmt.Sprintf("run exceeded its %d host calls", lim.MaxHostCalls)}), nil
				}
				pk.call()
				n := calls // the call's number in the run (a tape's order)
				callCtx, cancel := context.WithCancel(hostCtx)
				inflight[c.ID] = cancel
				p.wg.Go(func() {
					defer cancel()
					reply := func(r pipe.HostReply) {
						select {
						case replies <- r:
						case <-hostCtx.Done():
						}
					}
					if req.HostTape != nil {
						p.tapeCall(callCtx, req, n, *c, reply)
						return
					}
					p.serveHostCall(callCtx, req, *c, reply)
				})
				continue
			}
			ev := *m.Event
			lastT = ev.T
			if ev.Error != nil && ev.Error.Kind == KindInternal {
				// The client sees an opaque id; the details stay in the server log.
				ev.Error = internalError(p.cfg.Log, "worker reported an internal error", "detail", truncate(ev.Error.Message, 1<<10))
			}
			switch ev.Kind {
			case EventStarted:
				if !started {
					started, startedAt = true, time.Now()
				}
			case EventLog:
				logs++
			case EventFact:
				if !facts.fits(ev, lim.MaxFactsBytes) {
					res.Stats.Truncated = true
					return stop(OutcomeOutputLimit, pipe.FactsLimitError(lim)), nil
				}
			}
			if ev.Kind != EventStarted && ev.Kind != EventQueued {
				// Counted as the worker counts (pipe.OutputBytes), so that a
				// worker that ends a run at its cap ends it itself; an event
				// that would cross the cap is not sent. One event past
				// MaxEvents is the worker's error saying so.
				n := pipe.OutputBytes(&ev)
				if outBytes+n > lim.MaxOutputBytes || events+1 > lim.MaxEvents+1 {
					res.Stats.Truncated = true
					return stop(OutcomeOutputLimit, pipe.OutputLimitError(lim)), nil
				}
				outBytes += n
				events++
			}
			if ev.Kind == EventFact {
				facts.apply(ev) // once the client is sent it
			}
			if ev.Error != nil && ev.Error.Kind == KindTimeout {
				timeoutSent = true
			}
			emit(ev)
		case <-deadline.C:
			if !accepted {
				// Alive but not answering (stopped, or stuck): never the job's doing.
				p.kill(w)
				return res, fmt.Errorf("%w: the worker did not accept its job within %v", errNotStarted, p.cfg.AcceptTimeout)
			}
			return stop(OutcomeTimeout, pipe.TimeoutError(job.Timeout)), nil
		case r := <-replies:
			delete(inflight, r.ID)
			pk.reply(r)
		case <-pk.C():
			pk.tick()
		case <-pk.wakeC():
			pk.tick()
		case rel := <-pk.grantC():
			pk.resume(rel)
		case <-p.closed:
			return stop(OutcomeCancelled, nil), nil
		case <-ctx.Done():
			pk.end()
			_ = w.send(pipe.Command{Op: pipe.OpCancel})
			p.wg.Go(func() { p.reap(w) })
			res.Outcome = OutcomeCancelled
			res.Facts = facts.snapshot()
			if started {
				res.Stats.Run = time.Since(startedAt)
			}
			return res, nil
		}
	}
}

// reap waits CancelGrace for a cancelled run's result; a worker that
// delivers it goes back to the idle set, one that does not is killed.
func (p *Pool) reap(w *proc) {
	t := time.NewTimer(p.cfg.CancelGrace)
	defer t.Stop()
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				p.retire(w, !w.wasKilled())
				return
			}
			var m pipe.Message
			if pipe.DecodeMessage(line, &m) == nil && m.Result != nil {
				p.release(w, m.Result)
				return
			}
		case <-t.C:
			p.kill(w)
			return
		}
	}
}

// crashed ends a run whose worker died without a result, telling the user
// as precisely as the worker's exit allows: started says the run may have
// been executing, startedAt when its started event arrived (zero when none
// did: it may have been bundling); stats are what the parent counted of
// the run's events. Only a death the run does not explain (not its memory,
// not its stack) counts as a crash (Stats.Crashes).
func (p *Pool) crashed(w *proc, started bool, startedAt time.Time, facts *factMirror, stats Stats, emit func(Event)) (Result, error) {
	<-w.exited
	stderr := w.stderr.String()
	res := Result{Facts: facts.snapshot(), Stats: stats}
	if !startedAt.IsZero() {
		res.Stats.Run = time.Since(startedAt)
	}
	var e *Error
	switch {
	case w.wasKilled():
		p.retire(w, false)
		res.Outcome = OutcomeCancelled
		return res, nil
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		res.Outcome = OutcomeError
		if started {
			e = &Error{Kind: KindRuntime, Message: "RangeError: Maximum call stack size exceeded (inside a builtin: a value nested too deeply)"}
		} else {
			e = &Error{Kind: KindSyntax, Message: "the source is nested too deeply to parse"}
		}
	case ranOutOfMemory(stderr):
		e, res.Outcome = pipe.MemoryError(p.cfg.MemoryBytes), OutcomeMemoryLimit
		if startedAt.IsZero() {
			// The worker's started event may not have left yet (it waits
			// for the run's first line): bundling, or the first statements.
			e.Message += " (while bundling it or before its first event)"
		}
	default:
		res.Outcome = OutcomeError
		e = internalError(p.cfg.Log, "worker crashed", "exit", w.exitStatus(), "stderr", truncate(stderr, 4<<10))
		p.crashes.Add(1)
	}
	p.retire(w, false)
	emit(Event{Kind: EventError, Error: e})
	return res, nil
}

// ranOutOfMemory reports whether a worker's crash output shows the Go
// runtime failing to get memory past RLIMIT_DATA. Besides its "out of
// memory" and "cannot allocate memory" fatal errors, a new thread's stack
// may be refused (cgo's "pthread_create failed", then SIGABRT), and the
// runtime (Go 1.26) can fault inside the garbage collector when an mmap
// fails; goja and esbuild are memory-safe Go, so a fault in runtime code of
// a worker under that limit is counted as memory too.
func ranOutOfMemory(stderr string) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "pthread_create failed"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return (strings.HasPrefix(stderr, "SIGSEGV") || strings.HasPrefix(stderr, "SIGBUS")) && strings.Contains(stderr, "\nruntime.")
}

// internalError logs details under an opaque id and returns the error the
// client sees, which carries only the id.
func internalError(log *slog.Logger, msg string, args ...any) *Error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	log.Error("sandbox: "+msg, append([]any{"errorID", id}, args...)...)
	return &Error{Kind: KindInternal, Message: "internal error " + id + ": the sandbox failed; the error id is in the server log"}
}

// factMirror follows fact events: it is done.facts of every run, so that a
// run whose worker was killed, crashed or ended itself still ends with
// every fact change it streamed, and its bytes (keys and values, as
// Limits.MaxFactsBytes counts them) are counted here.
type factMirror struct {
	vals  map[string]json.RawMessage
	bytes int
}

func newFactMirror() *factMirror { return &factMirror{vals: map[string]json.RawMessage{}} }

// after is the facts' size in bytes once ev is applied.
func (f *factMirror) after(ev Event) int {
	n := f.bytes
	if old, had := f.vals[ev.Key]; had {
		n -= len(ev.Key) + len(old)
	}
	if !ev.Deleted {
		n += len(ev.Key) + len(ev.Value)
	}
	return n
}

// fits reports whether ev keeps the facts within maxBytes.
func (f *factMirror) fits(ev Event, maxBytes int) bool { return f.after(ev) <= maxBytes }

// apply records ev.
func (f *factMirror) apply(ev Event) {
	f.bytes = f.after(ev)
	if ev.Deleted {
		delete(f.vals, ev.Key)
		return
	}
	f.vals[ev.Key] = ev.Value
}

func (f *factMirror) snapshot() map[string]json.RawMessage { return maps.Clone(f.vals) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
