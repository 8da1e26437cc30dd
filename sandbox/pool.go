package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// Pool runs snippets in pre-started worker processes, at most
// Config.Workers at once (plus one reserve slot for a key holding none, see
// queue), queueing the rest fairly by Request.Key. A run that only waits on
// host calls parks: it gives its slot back and keeps its worker (park.go),
// so processes may outnumber slots, up to Workers + Spares + MaxParked. A worker
// serves many runs, each in a fresh goja.Runtime, and is replaced after a
// kill, a crash, a memory limit or MaxRunsPerWorker runs. It is safe for
// concurrent use.
type Pool struct {
	cfg   Config
	queue *queue
	// parkedBy counts each key's parked runs (tryPark), under parkedMu.
	parkedMu  sync.Mutex
	parkedBy  map[string]int
	idle      chan *proc // started workers waiting for a run (and workers that died there: take skips them)
	closed    chan struct{}
	once      sync.Once
	wg        sync.WaitGroup // spawners, reapers and retirements
	procWG    sync.WaitGroup // one per started worker, until it exits
	maxLine   int
	hostNames []string          // Config.Host's names, sorted: what a job may call
	clients   pipe.ClientTokens // Request.Key → pipe.Job.Client
	libs      *libs.Set         // to announce; workers load their own from the same Config

	running, runs                      atomic.Int64 // running: runs holding a slot (parked ones do not)
	parked, peakRunning                atomic.Int64 // parked runs (park.go); the most runs ever holding a slot at once
	parks, stops                       atomic.Int64 // times runs parked; parked workers stopped for using CPU
	parkEager                          bool         // tests: park without waiting for another run to want the slot
	kills, crashes, restarts, failures atomic.Int64
	live                               atomic.Int64 // worker processes started and not yet retired

	mu          sync.Mutex         // guards the fields below
	closing     bool               // Close began: no spawner starts (wg.Add must not race wg.Wait)
	failStreak  int                // consecutive start failures
	breakerOpen time.Time          // when the breaker may try again
	procs       map[*proc]struct{} // started and not yet exited, for memory stats
}

// NewPool starts Workers+Spares worker processes in the background and
// returns at once; runs wait in the queue until a worker is ready. It fails
// only when Config.LibraryDir holds a library that cannot be loaded or
// Config.HostGlobals names a global it may not define.
func NewPool(cfg Config) (*Pool, error) {
	cfg = cfg.withDefaults()
	if err := checkHostGlobals(cfg); err != nil {
		return nil, err
	}
	set, err := libs.New(cfg.LibraryDir)
	if err != nil {
		return nil, err
	}
	if need := int64(cfg.Processes()) * (cfg.MemoryBytes + pipe.Baseline); need > cfg.MemoryBudget {
		cfg.Log.Warn("the worker processes may need more memory than the memory budget",
			"processes", cfg.Processes(), "memoryBytes", cfg.MemoryBytes, "memoryBudget", cfg.MemoryBudget, "need", need)
	}
	n := cfg.Workers + cfg.Spares
	p := &Pool{
		cfg:      cfg,
		parkedBy: map[string]int{},
		// Every spare is also a reserve slot (queue) for a key holding none:
		// making another client wait takes Spares+1 clients each filling
		// slots for their runs' whole time limits.
		queue: newQueue(cfg.Workers, max(cfg.Spares, 0), cfg.QueueSize),
		// Room for every worker the pool may hold (Workers + Spares +
		// MaxParked, and Workers surplus idle ones), twice: dead ones take
		// has not skipped yet stay in it too.
		idle:      make(chan *proc, 2*(n+cfg.Workers+max(cfg.MaxParked, 0))),
		closed:    make(chan struct{}),
		maxLine:   cfg.Limits.MaxOutputBytes + 1<<20,
		hostNames: slices.Sorted(maps.Keys(cfg.Host)),
		clients:   pipe.NewClientTokens(),
		procs:     map[*proc]struct{}{},
		libs:      set,
	}
	for range n {
		p.spawn(false)
	}
	return p, nil
}

// ErrClosed is returned by Run after Close.
var ErrClosed = errors.New("sandbox pool is closed")

// Run bundles and executes req in a worker, calling emit for each event in
// order from one goroutine at a time; emit must not block. A snippet's
// failure is a successful Run: it is in Result.Outcome and the error
// events. err is non-nil only for server faults (then nothing more is
// emitted for the run). When ctx ends the run ends at once with
// OutcomeCancelled and its slot is free; its worker is stopped in the
// background.
func (p *Pool) Run(ctx context.Context, req Request, emit func(Event)) (Result, error) {
	select {
	case <-p.closed:
		return Result{}, ErrClosed
	default:
	}
	timeout := p.clamp(req.Timeout)
	res := Result{Facts: map[string]json.RawMessage{}}
	entry, bad := p.check(req)
	if bad != nil {
		emit(Event{Kind: EventError, Error: bad})
		res.Outcome = OutcomeInvalid
		return res, nil
	}

	queued := time.Now()
	release, err := p.queue.acquire(ctx, req.Key, func(pos int) { emit(Event{Kind: EventQueued, Position: pos}) })
	if err != nil {
		res.Stats.Queue = time.Since(queued)
		if errors.Is(err, ErrBusy) {
			res.Outcome, res.RetryAfter = OutcomeBusy, time.Second
			return res, nil
		}
		res.Outcome = OutcomeCancelled
		return res, nil
	}
	rs := p.newRunSlot(req.Key, release)
	defer rs.done()
	req.seq = p.runs.Add(1)
	lim := p.cfg.Limits
	if req.MaxOutputBytes > 0 && req.MaxOutputBytes < lim.MaxOutputBytes {
		lim.MaxOutputBytes = req.MaxOutputBytes
	}
	job := &pipe.Job{Files: req.Files, Entry: entry, Input: req.Input, Timeout: timeout, Deterministic: req.Deterministic,
		Mode: req.Mode, Limits: lim, Host: p.hostNames, Globals: p.cfg.HostGlobals,
		Client: p.clients.Token(req.Key)}
	for attempt := 0; ; attempt++ {
		w, err := p.take(ctx, job.Client)
		res.Stats.Queue = time.Since(queued)
		if err != nil {
			if ctx.Err() != nil {
				res.Outcome = OutcomeCancelled
				return res, nil
			}
			return res, err
		}
		w.lastClient = job.Client
		out, err := p.exec(ctx, w, req, job, emit, rs)
		if errors.Is(err, errNotStarted) && attempt == 0 {
			// The worker died or stopped answering before it took the job:
			// not the job's doing, so it gets one fresh worker.
			p.cfg.Log.Warn("sandbox: retrying a job its worker never took", "run", req.ID, "err", err)
			continue
		}
		out.Stats.Queue = res.Stats.Queue
		return out, err
	}
}

// check applies the request limits and the rules the protocol's decoder
// cannot (a default entry must exist; the mode is one of the Modes).
// It returns the entry path, or the error that makes req invalid.
func (p *Pool) check(req Request) (string, *Error) {
	invalid := func(format string, args ...any) (string, *Error) {
		return "", &Error{Kind: KindInvalidRequest, Message: fmt.Sprintf(format, args...)}
	}
	if len(req.Files) > p.cfg.MaxFiles {
		return invalid("invalid run: %d files; the limit is maxFiles=%d", len(req.Files), p.cfg.MaxFiles)
	}
	total := 0
	for _, f := range req.Files {
		total += len(f.Source)
	}
	if total > p.cfg.MaxSourceBytes {
		return invalid("invalid run: the files hold %d bytes of source; the limit is maxSourceBytes=%d", total, p.cfg.MaxSourceBytes)
	}
	if len(req.Input) > p.cfg.MaxInputBytes {
		return invalid("invalid run: the input is %d bytes of JSON; the limit is maxInputBytes=%d", len(req.Input), p.cfg.MaxInputBytes)
	}
	switch req.Mode {
	case "", ModeModule:
	case ModeScript:
	default:
		return invalid("invalid run: mode %q; want %q or %q", req.Mode, ModeModule, ModeScript)
	}
	entry := req.Entry
	if entry == "" {
		entry = DefaultEntry(req.Files)
	}
	if entry == "" {
		return invalid("no entry file: name one with \"entry\" or add src/main.ts")
	}
	return entry, nil
}

// take waits for an idle worker that is alive; a dead one found in the
// idle set (it died while idle, and its watcher retired it) is dropped.
// Of the workers idle when it looks, it prefers the one that last served
// client (affine).
func (p *Pool) take(ctx context.Context, client string) (*proc, error) {
	var t *time.Timer // made only when no worker is idle: most runs find one
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		var w *proc
		select {
		case w = <-p.idle:
		default:
			if t == nil {
				t = time.NewTimer(30 * time.Second)
			}
			select {
			case w = <-p.idle:
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-p.closed:
				return nil, ErrClosed
			case <-t.C:
				return nil, errWorkerUnavailable
			}
		}
		if w.lastClient != client {
			w = p.affine(w, client)
		}
		if !w.idle.CompareAndSwap(true, false) {
			continue // retired while idle
		}
		if w.dead() {
			p.retire(w, true)
			continue
		}
		return w, nil
	}
}

// affineScan bounds how many more idle workers affine looks at.
const affineScan = 8

// affine returns, of w (taken from the idle set) and up to affineScan
// workers idle now, the first that last served client (pipe.Job.Client),
// or w; the others go back to the idle set. A worker keeps what it
// prepared for its last client (its next runtime, prepare.go) and what it
// compiled for each client (its program cache and library programs,
// js.Libraries): with the idle set first in, first out, a client's runs
// one after another went round every worker, and each of its runs found
// what the worker had prepared for another client (measured: zod's chunk
// 50 ms on every run of a client on a two-worker pool, 2 ms once it
// stayed). A client whose worker is busy takes another; nothing waits for
// a particular worker.
func (p *Pool) affine(w *proc, client string) *proc {
	var seen [affineScan]*proc
	n, best := 0, -1
scan:
	for n < affineScan {
		select {
		case o := <-p.idle:
			seen[n] = o
			n++
			if o.lastClient == client {
				best = n - 1
				break scan
			}
		default:
			break scan
		}
	}
	if best < 0 {
		p.giveBack(seen[:n])
		return w
	}
	b := seen[best]
	seen[best] = w
	p.giveBack(seen[:n])
	return b
}

// giveBack returns workers affine took from the idle set as they were
// (a retired one among them is skipped by the take that finds it).
func (p *Pool) giveBack(ws []*proc) {
	for _, o := range ws {
		select {
		case p.idle <- o:
		default: // cannot happen: idle has room for every live worker twice
			if o.idle.CompareAndSwap(true, false) {
				p.retire(o, false)
			}
		}
	}
}

// release returns a worker after a run, or retires it when it must not
// serve again (a limit was hit, it exits after r (Result.Retire), or it
// served MaxRunsPerWorker runs).
func (p *Pool) release(w *proc, r *Result) {
	w.runs++
	if r.Outcome == OutcomeMemoryLimit || r.Retire || w.runs >= p.cfg.MaxRunsPerWorker || p.surplus() {
		p.retire(w, false) // the last: a surplus worker (parked runs resumed) goes without a replacement
		return
	}
	p.toIdle(w)
}

// toIdle puts w in the idle set.
func (p *Pool) toIdle(w *proc) {
	w.idle.Store(true)
	select {
	case p.idle <- w:
	default: // cannot happen: idle has room for every live worker twice
		w.idle.Store(false)
		p.retire(w, false)
	}
}

// kill kills a worker and replaces it.
func (p *Pool) kill(w *proc) {
	p.kills.Add(1)
	w.kill()
	p.retire(w, false)
}

// retire stops w in the background and starts its replacement if the pool
// wants one (wantProcs), once per worker whoever calls it (a run's end, a
// kill, the watcher of its exit).
func (p *Pool) retire(w *proc, crashed bool) {
	if !w.retired.CompareAndSwap(false, true) {
		return
	}
	if crashed {
		p.crashes.Add(1)
	}
	p.live.Add(-1)
	p.mu.Lock()
	closing := p.closing
	if !closing {
		p.wg.Go(func() { w.close(time.Second) })
	}
	p.mu.Unlock()
	if closing {
		w.close(time.Second) // Close waits on wg: this caller must not join it now
		return
	}
	p.spawn(true)
}

func (p *Pool) clamp(d time.Duration) time.Duration {
	if d <= 0 {
		return p.cfg.DefaultTimeout
	}
	return min(max(d, p.cfg.MinTimeout), p.cfg.MaxTimeout)
}

// Close stops the pool: runs after it fail with ErrClosed, idle workers
// exit, and Close waits for the pool's goroutines. Runs in flight should
// have ended first (cancel their contexts).
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	p.once.Do(func() { close(p.closed) })
	p.wg.Wait() // spawners, reapers and retirements; no spawner adds a worker after this
	var wg sync.WaitGroup
	for {
		select {
		case w := <-p.idle:
			w.idle.Store(false) // its exit is the pool's doing, not a crash
			if w.retired.CompareAndSwap(false, true) {
				p.live.Add(-1)
			}
			wg.Go(func() { w.close(time.Second) })
			continue
		default:
		}
		wg.Wait()
		p.procWG.Wait()
		return nil
	}
}
