// Package worker is the worker process: the same binary started by the pool
// with pipe.WorkerArg serves runs it reads from its stdin, one at a time,
// each bundled (sandbox/worker/bundle) and executed in a fresh goja runtime
// (sandbox/worker/js), writing events and results to its stdout (the pipe
// contract, sandbox/pipe). It caps its own memory (pipe.MemoryLayout) and
// never reads a file on a snippet's behalf.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// Limits of the worker process itself.
const (
	// maxStack is the Go stack a goroutine may grow to: esbuild and goja
	// recurse on nesting, and an overflow is fatal; it costs only this worker.
	maxStack = 32 << 20
	// cachedPrograms is how many compiled bundles a worker keeps, within
	// programBudget of its run memory (programCache).
	cachedPrograms = 64
	// programBudgetShare: the program cache may hold Run/programBudgetShare
	// bytes (estimated); its memory counts against every run's cap.
	programBudgetShare = 8
	// defaultMemoryBytes applies when the environment gives no cap (a
	// worker started by hand).
	defaultMemoryBytes = 256 << 20
)

// ServeIfWorker makes this process a worker when it was started as one
// (its only argument is pipe.WorkerArg, as the pool starts it): it serves
// on stdin and stdout and exits. Otherwise it returns. The playground
// binary and every test binary that starts a pool call it first thing in
// main or TestMain.
func ServeIfWorker() {
	if len(os.Args) == 2 && os.Args[1] == pipe.WorkerArg {
		os.Exit(Main(pipe.Stdio()))
	}
}

// Main serves the runs it reads from r (the parent's pipe), one at a time,
// writing events and results to w, until r ends. It returns the process
// exit code: 0 when r ended, pipe.ExitMemoryLimit after a run hit its
// memory limit, 1 when it could not start or write.
//
// It caps its own memory first: RLIMIT_DATA as the OS backstop, a soft Go
// memory limit, and a heap watchdog (pipe.MemoryLayout).
func Main(r io.Reader, w io.Writer) int {
	run, _ := strconv.ParseInt(os.Getenv(pipe.EnvMemoryBytes), 10, 64)
	if run <= 0 {
		run = defaultMemoryBytes
	}
	mem := pipe.MemoryLayoutFor(run)
	debug.SetMaxStack(maxStack)
	// goja hands patterns with backreferences or lookarounds to regexp2 and
	// discards its errors, so regexp2's default backtracking-stack limit
	// would make a regex that should match return false. The run's deadline
	// and the memory watchdog bound a match instead.
	regexp2.DefaultOptimizationOptions.MaxBacktrackingStackSize = -1
	debug.SetMemoryLimit(mem.Run)
	time.Local = js.Zone   // before any run or goroutine reads it
	if !pipe.RaceEnabled { // see pipe.RaceEnabled
		if err := limitMemory(mem.OS); err != nil {
			fmt.Fprintln(os.Stderr, "worker: cannot limit memory:", err)
			return 1
		}
	}
	set, err := libs.New(os.Getenv(pipe.EnvLibraryDir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	js.LoadTables() // before ready: no run pays for it, and none can time it
	wk := newWorker(w, mem, set)
	// The small libraries too (≈ 130 ms, ≈ 15 MB): a first use would cost
	// its run 2–49 ms and show that no earlier run on this worker, anyone's,
	// used the library. Not in a race-detector build, where it takes 0.6 s
	// of every worker start and the tests start hundreds; the js package's
	// tests cover it there.
	if !pipe.RaceEnabled {
		wk.cache.libs.Precompile()
		// esbuild's and goja's first use in a process costs a few ms more
		// than the next (lazy tables, stacks): pay it here too.
		b := bundle.BundleMode([]pipe.File{{Path: "main.js", Source: warmUpScript}}, "main.js", pipe.ModeScript, set)
		if _, err := js.Compile(b.Code); err != nil || len(b.Errors) > 0 {
			fmt.Fprintln(os.Stderr, "worker: warm-up:", err, b.Errors)
			return 1
		}
		// The parse trees are garbage now: give their pages back, and
		// measure the baseline now, not before the first run.
		debug.FreeOSMemory()
		wk.measureBase()
	}
	go wk.watchdog() // lives as long as the process; it may end it (memory limit)
	return wk.serveAll(r)
}

func newWorker(w io.Writer, mem pipe.MemoryLayout, set *libs.Set) *worker {
	// The watchdog's tick flushes what WriteSoon leaves (a run's started
	// event): no timer is armed per run.
	// base starts unmeasured: the first run measures it (measureBase).
	return &worker{out: pipe.NewTickedWriter(w), mem: mem, cache: newProgramCache(cachedPrograms, mem.Run/programBudgetShare, js.NewLibraries(set)), started: make(chan struct{}, 1), base: -baseSlack}
}

// serveAll says ready, then serves the jobs it reads from r until r ends.
// It returns Main's exit code.
func (wk *worker) serveAll(r io.Reader) int {
	if err := wk.out.Write(pipe.Message{Ready: true}); err != nil {
		return 1
	}
	jobs := make(chan *pipe.Job)
	go wk.read(r, jobs)
	defer wk.prepared.Wait()
	defer wk.stopPreparing() // first: a preparation in flight is interrupted, then awaited
	for j := range jobs {
		res := wk.serve(j)
		res.Retire = wk.abandoned
		if err := wk.out.Write(pipe.Message{Result: &res}); err != nil {
			return 1
		}
		if res.Outcome == pipe.OutcomeMemoryLimit {
			return pipe.ExitMemoryLimit
		}
		if wk.abandoned {
			return pipe.ExitAbandoned
		}
	}
	return 0
}

// worker is the state of the worker process. The serving goroutine (Main)
// runs jobs; the reading goroutine (read) hands them over and acts on
// cancels and host replies at once; the watchdog checks memory.
type worker struct {
	out   *pipe.Writer
	mem   pipe.MemoryLayout
	cache *programCache

	next     *prepared      // only the serving goroutine touches it
	prepared sync.WaitGroup // Main waits for every preparation it started
	// maxPrepare overrides maxPrepareTime (tests).
	maxPrepare time.Duration
	// prepareAbandoned counts preparations stopped by their deadline,
	// their budget or a job that did not wait (only the serving goroutine).
	prepareAbandoned int
	// base is the live heap the worker retained between runs at its last
	// measurement (serve): caches, compiled libraries, a prepared runtime.
	// Only the serving goroutine touches it.
	base int64
	// credit is what of the heap the watchdog does not charge to the run
	// in progress: base, at most maxCredit.
	credit atomic.Int64
	// abandoned is set (by the serving goroutine) when a run's bundling
	// or compiling overran: the process exits after that run.
	abandoned bool

	mu sync.Mutex // guards the fields below
	// cancel interrupts the current run; nil between runs.
	cancel context.CancelCauseFunc
	// memoryHit is set by the watchdog when the heap passed the cap.
	memoryHit bool
	// replies receives the current run's host call answers; nil between runs.
	replies chan pipe.HostReply
	// spareReplies is the last run's replies channel, drained, for the
	// next run (only the serving goroutine touches it): its buffer holds
	// MaxHostCalls replies, ~56 KiB that a fresh channel per run cleared
	// and collected each time, a quarter of a hello run's allocations.
	spareReplies chan pipe.HostReply

	// started wakes the watchdog when a run begins (buffered 1).
	started chan struct{}
}

// read is the only reader of r: runs go to the serving loop, cancels and
// replies act at once. When r ends (the parent is gone) it cancels the
// current run and closes jobs.
func (wk *worker) read(r io.Reader, jobs chan<- *pipe.Job) {
	defer close(jobs)
	defer wk.interrupt(js.ErrCancelled)
	lr := pipe.NewReader(r, pipe.MaxCommandBytes)
	for {
		line, err := lr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintln(os.Stderr, "worker: read:", err)
			}
			return
		}
		var c pipe.Command
		if err := pipe.DecodeCommand(line, &c); err != nil {
			fmt.Fprintln(os.Stderr, "worker: bad command:", err)
			continue
		}
		switch {
		case c.Op == pipe.OpCancel:
			wk.interrupt(js.ErrCancelled) // a cancel after its run ended finds nothing to do
		case c.Op == pipe.OpReply && c.Reply != nil:
			wk.deliver(*c.Reply)
		case c.Op == pipe.OpRun && c.Job != nil:
			jobs <- c.Job
		}
	}
}

// deliver hands a host call's reply to the current run. The channel holds
// a reply for every call a run may make, so this never blocks; a reply
// that arrives after its run ended is dropped.
func (wk *worker) deliver(r pipe.HostReply) {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if wk.replies != nil {
		select {
		case wk.replies <- r:
		default:
		}
	}
}

// running reports whether a run is in progress.
func (wk *worker) running() bool {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	return wk.cancel != nil
}

// interrupt cancels the current run, if any, with cause.
func (wk *worker) interrupt(cause error) {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if wk.cancel != nil {
		wk.cancel(cause)
	}
}

// serve runs one job; interrupt cancels it.
func (wk *worker) serve(j *pipe.Job) pipe.Result {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	lim := j.Limits.WithDefaults()
	replies := wk.spareReplies
	if cap(replies) < lim.MaxHostCalls {
		replies = make(chan pipe.HostReply, lim.MaxHostCalls)
	}
	wk.spareReplies = nil
	wk.settlePrepared(j.Client)
	wk.measureBase()
	wk.mu.Lock()
	wk.cancel, wk.memoryHit, wk.replies = cancel, false, replies
	wk.mu.Unlock()
	select {
	case wk.started <- struct{}{}: // wake the watchdog
	default:
	}
	defer func() {
		wk.mu.Lock()
		wk.cancel, wk.replies = nil, nil
		wk.mu.Unlock()
		// No reply reaches it from now on (deliver sees nil): what the run
		// left unread goes, and the next run reuses it.
		for len(replies) > 0 {
			<-replies
		}
		wk.spareReplies = replies
	}()
	// An event is written at once: a run can end the process without a
	// chance to flush (the Go runtime's fatal out-of-memory on a huge
	// BigInt, a crash), and what it emitted before must have left. Only
	// started may wait for the next line, at most until the watchdog's
	// next tick (watchdogInterval): a short run's accepted, started and
	// first log leave in one write; a run that dies right after it has
	// printed nothing, and the parent does not retry a job whose worker
	// died on its own.
	emit := func(ev pipe.Event) {
		if ev.Kind == pipe.EventStarted {
			_ = wk.out.WriteSoon(pipe.Message{Event: &ev})
			return
		}
		_ = wk.out.Write(pipe.Message{Event: &ev})
	}
	call := func(c pipe.HostCall) { _ = wk.out.Write(pipe.Message{Call: &c}) }
	res := wk.runJob(ctx, j, emit, call, replies)
	wk.mu.Lock()
	hit := wk.memoryHit
	wk.mu.Unlock()
	if hit {
		emit(pipe.Event{Kind: pipe.EventError, Error: pipe.MemoryError(wk.mem.Run)})
		res.Outcome, res.TimedOut = pipe.OutcomeMemoryLimit, false
	}
	return res
}

// errBundleDeadline says bundling and compiling took the whole run's time.
var errBundleDeadline = errors.New("bundling reached the run's deadline")

// runJob bundles (through the cache) and executes one job. Bundling,
// compiling and waiting for a prepared runtime count against the job's
// own timeout: what is left of it is the runtime's.
func (wk *worker) runJob(ctx context.Context, j *pipe.Job, emit func(pipe.Event), call func(pipe.HostCall), replies <-chan pipe.HostReply) pipe.Result {
	defer wk.dropPrepared(wk.next) // a preparation of this client's (settlePrepared) that the job did not take
	deadline := time.Now().Add(j.Timeout)
	switch {
	case j.Timeout <= 0:
		deadline = time.Now().Add(24 * time.Hour) // no limit given (a hand-made job)
	case j.Deadline != 0:
		// The parent's instant (its kill counts from it), turned into this
		// process's monotonic clock once, so that a step of the wall clock
		// during the run moves neither; never later than Timeout from now.
		if d := time.Now().Add(time.Until(time.Unix(0, j.Deadline))); d.Before(deadline) {
			deadline = d
		}
	}
	// Say the job arrived: the parent retries a job elsewhere when a worker
	// does not answer (stopped, dying). A cached bundle starts at once, so
	// the word rides with the started event in one write; bundling anew
	// takes a while, so it goes now.
	bkey := bundleKey(j.Files, j.Entry, j.Mode, j.Client)
	if wk.cache.has(bkey) {
		_ = wk.out.Buffer(pipe.Message{Accepted: true})
	} else {
		_ = wk.out.Write(pipe.Message{Accepted: true})
	}
	t0 := time.Now()
	c, err := wk.compile(ctx, bkey, j, deadline)
	bundleTime := time.Since(t0)
	if err != nil {
		return wk.stopped(err, j, emit, pipe.Stats{Bundle: bundleTime})
	}
	prg, imports, errs := c.prg, c.imports, c.errs
	if len(errs) > 0 {
		for i := range errs {
			emit(pipe.Event{Kind: pipe.EventError, Error: &errs[i]})
		}
		out := pipe.OutcomeError
		if errs[0].Kind == pipe.KindInvalidRequest {
			out = pipe.OutcomeInvalid
		}
		return pipe.Result{Outcome: out, Facts: map[string]json.RawMessage{}, Stats: pipe.Stats{Bundle: bundleTime}}
	}
	jb := js.Job{Program: prg, Libraries: wk.cache.libs, Input: j.Input, Timeout: j.Timeout, Deterministic: j.Deterministic, Client: j.Client,
		Limits: j.Limits, Mode: c.mode, Entry: j.Entry, Host: j.Host, Globals: j.Globals, Call: call, Replies: replies}
	key := newPrepareKey(jb, imports, j.Client)
	t1 := time.Now()
	rt := wk.takePrepared(ctx, key, deadline)
	if rt == nil {
		rt = js.New(jb)
	}
	setup := time.Since(t1) // the rest of this client's preparation, or a runtime of its own
	// One deadline (the parent's, from sending the job): the runtime gets
	// what bundling left of it, and its events announce the limit the run
	// asked for.
	if time.Until(deadline) <= 0 {
		return wk.stopped(errBundleDeadline, j, emit, pipe.Stats{Bundle: bundleTime})
	}
	jb.Deadline = deadline
	// A wait on timers is announced (pipe.Idle) so that the parent may
	// park the run; the worker never waits for an answer: a parked worker
	// is stopped by its parent, and continued before the timer is due.
	rt.OnIdle(func(wait time.Duration, replies int) {
		_ = wk.out.Write(pipe.Message{Idle: &pipe.Idle{Wait: wait, Replies: replies}})
	})
	res := rt.Execute(ctx, jb, emit)
	rt.OnIdle(nil)
	res.Stats.Bundle = bundleTime
	res.Stats.Run += setup // runMs counts making the runtime, as when the run evaluates its libraries itself
	if len(imports) > 0 && (res.Outcome == pipe.OutcomeOK || res.Outcome == pipe.OutcomeError) && ctx.Err() == nil {
		// The next run is most often this one again. Only a run with
		// libraries gains much (~7 ms for lodash); for a plain one the
		// background work costs saturated throughput more than it saves.
		// A run that was stopped buys nothing after it (prepare.go).
		limit := j.Timeout
		if limit <= 0 {
			limit = maxPrepareTime
		}
		wk.prepare(key, jb, imports, limit, j.Client)
	}
	return res
}

// compile returns the job's compiled bundle from the cache, or bundles and
// compiles it on another goroutine while it watches the deadline and ctx
// (a cancel, or the memory watchdog): esbuild and goja's compiler cannot be
// interrupted, so on either it returns at once, marks the worker
// abandoned, and keeps nothing.
func (wk *worker) compile(ctx context.Context, key [32]byte, j *pipe.Job, deadline time.Time) (*compiled, error) {
	if e, ok := wk.cache.cached(key); ok {
		return e, nil
	}
	done := make(chan *compiled, 1)
	go func() { done <- wk.cache.build(j.Files, j.Entry, j.Mode, j.Client) }()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case e := <-done:
		if ctx.Err() != nil {
			return nil, context.Cause(ctx) // finished, but over a limit: not kept
		}
		wk.cache.add(key, e, j.Client)
		return e, nil
	case <-t.C:
		wk.abandoned = true
		return nil, errBundleDeadline
	case <-ctx.Done():
		wk.abandoned = true
		return nil, context.Cause(ctx)
	}
}

// stopped is the result of a run stopped before it started: by its
// deadline (a timeout), the memory watchdog (serve reports it) or a cancel.
func (wk *worker) stopped(err error, j *pipe.Job, emit func(pipe.Event), stats pipe.Stats) pipe.Result {
	res := pipe.Result{Outcome: pipe.OutcomeCancelled, Facts: map[string]json.RawMessage{}, Stats: stats}
	if errors.Is(err, errBundleDeadline) {
		emit(pipe.Event{Kind: pipe.EventError, Error: pipe.TimeoutError(j.Timeout)})
		res.Outcome, res.TimedOut = pipe.OutcomeTimeout, true
	}
	return res
}

// warmUpScript is bundled and compiled before a worker is ready (Main): a
// script that requires a library, as agents' runs do.
const warmUpScript = "const _ = require('lodash');\noutput = _.sortBy(input.rows, (r) => r.v);\n"
