package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Pool. The zero value works when the running binary
// calls WorkerMain for WorkerArg; each field's default is stated beside it.
type Config struct {
	// Workers is how many runs execute at once. Defaults to runtime.NumCPU().
	Workers int
	// Spares is how many started workers wait beyond Workers, so that a
	// killed worker's slot is usable at once. Defaults to 1.
	Spares int
	// QueueSize is how many runs may wait for a worker; past it Run answers
	// OutcomeBusy. Defaults to 64 per worker.
	QueueSize int
	// DefaultTimeout is a run's timeout when the request gives none. Defaults to 5s.
	DefaultTimeout time.Duration
	// MinTimeout and MaxTimeout bound a requested timeout. Default 50ms and 30s.
	MinTimeout, MaxTimeout time.Duration
	// MemoryBytes caps the heap of one run. Defaults to 256 MiB.
	MemoryBytes int64
	// Limits caps output, events, timers and previews of each run.
	Limits Limits
	// Host are the host functions snippets may call as host.<name>(…).
	Host map[string]HostFunc
	// MaxHostCalls caps the host calls of one run. Defaults to 1,000.
	MaxHostCalls int
	// HostCallTimeout bounds one host call. Defaults to 10s.
	HostCallTimeout time.Duration
	// LibraryDir, if set, holds operator ESM bundles importable by file
	// name (see libraryRegistry.loadDir); they join the vendored libraries.
	LibraryDir string
	// Command is the argv that starts a worker process. Defaults to this
	// executable with WorkerArg.
	Command []string
	// Env is added to a worker's environment, which inherits nothing from
	// the server's.
	Env []string
	// KillGrace is how long past its deadline a run may take to stop by
	// itself before its worker is killed. Defaults to 10ms.
	KillGrace time.Duration
	// CancelGrace is how long a cancelled run's worker may take to stop
	// before it is killed. The run itself ends at once. Defaults to 2ms.
	CancelGrace time.Duration
	// BundleTimeout bounds bundling. Defaults to 5s.
	BundleTimeout time.Duration
	// MaxRunsPerWorker recycles a worker after this many runs; 1 is one
	// process per run. Defaults to 10,000.
	MaxRunsPerWorker int
	// Log receives what clients never see: crashes and their stderr.
	// Defaults to slog.Default().
	Log *slog.Logger
}

// WorkerArg is the argument that makes the playground binary a worker.
const WorkerArg = "-mode=worker"

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.Spares <= 0 {
		c.Spares = 1
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 64 * c.Workers
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = 5 * time.Second
	}
	if c.MinTimeout <= 0 {
		c.MinTimeout = 50 * time.Millisecond
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 30 * time.Second
	}
	c.MaxTimeout = max(c.MaxTimeout, c.MinTimeout)
	c.DefaultTimeout = min(max(c.DefaultTimeout, c.MinTimeout), c.MaxTimeout)
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = defaultMemoryBytes
	}
	if len(c.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			exe = os.Args[0]
		}
		c.Command = []string{exe, WorkerArg}
	}
	if c.KillGrace <= 0 {
		c.KillGrace = 10 * time.Millisecond
	}
	if c.CancelGrace <= 0 {
		c.CancelGrace = 2 * time.Millisecond
	}
	if c.BundleTimeout <= 0 {
		c.BundleTimeout = 5 * time.Second
	}
	if c.MaxHostCalls <= 0 {
		c.MaxHostCalls = 1000
	}
	if c.HostCallTimeout <= 0 {
		c.HostCallTimeout = 10 * time.Second
	}
	if c.MaxRunsPerWorker <= 0 {
		c.MaxRunsPerWorker = 10_000
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	c.Limits = c.Limits.withDefaults()
	return c
}

// Pool runs snippets in pre-started worker processes, at most
// Config.Workers at once, queueing the rest fairly by Request.Key. A worker
// serves many runs, each in a fresh goja.Runtime, and is replaced after a
// kill, a crash, a memory limit or MaxRunsPerWorker runs. It is safe for
// concurrent use.
type Pool struct {
	cfg     Config
	queue   *queue
	idle    chan *proc // started workers waiting for a run
	closed  chan struct{}
	once    sync.Once
	wg      sync.WaitGroup // spawners, reapers and retirements
	procWG  sync.WaitGroup // one per started worker, until it exits
	maxLine int
	libs    *libraryRegistry // to announce; workers load their own from the same Config

	running, runs                      atomic.Int64
	kills, crashes, restarts, failures atomic.Int64
	live                               atomic.Int64 // worker processes started and not yet retired

	mu          sync.Mutex         // guards the fields below
	failStreak  int                // consecutive start failures
	breakerOpen time.Time          // when the breaker may try again
	procs       map[*proc]struct{} // started and not yet exited, for memory stats
}

// NewPool starts Workers+Spares worker processes in the background and
// returns at once; runs wait in the queue until a worker is ready. It fails
// only when Config.LibraryDir holds a library that cannot be loaded.
func NewPool(cfg Config) (*Pool, error) {
	cfg = cfg.withDefaults()
	libs, err := newLibraryRegistry(cfg.LibraryDir)
	if err != nil {
		return nil, err
	}
	n := cfg.Workers + cfg.Spares
	p := &Pool{
		cfg:     cfg,
		queue:   newQueue(cfg.Workers, cfg.QueueSize),
		idle:    make(chan *proc, n),
		closed:  make(chan struct{}),
		maxLine: cfg.Limits.MaxOutputBytes + 1<<20,
		procs:   map[*proc]struct{}{},
		libs:    libs,
	}
	for range n {
		p.spawn(false)
	}
	return p, nil
}

// spawn starts one worker in the background and adds it to the idle set.
// Repeated start failures open a circuit breaker: spawn waits, doubling the
// wait up to 10s, so that a broken binary does not burn the machine.
func (p *Pool) spawn(restart bool) {
	p.live.Add(1)
	if restart {
		p.restarts.Add(1)
	}
	p.wg.Go(func() {
		for {
			if wait := p.breakerWait(); wait > 0 {
				select {
				case <-time.After(wait):
				case <-p.closed:
					p.live.Add(-1)
					return
				}
			}
			select {
			case <-p.closed:
				p.live.Add(-1)
				return
			default:
			}
			w, err := startProc(p.cfg.Command, p.workerEnv(), p.maxLine, 30*time.Second, p.closed)
			if errors.Is(err, ErrClosed) {
				p.live.Add(-1)
				return
			}
			if err != nil {
				p.failures.Add(1)
				p.cfg.Log.Error("sandbox worker failed to start", "err", err)
				p.breakerTrip()
				continue
			}
			p.breakerReset()
			p.track(w)
			select {
			case p.idle <- w:
			case <-p.closed:
				w.close(time.Second)
				p.live.Add(-1)
			}
			return
		}
	})
}

func (p *Pool) workerEnv() []string {
	env := []string{
		"GOMAXPROCS=2", // the runtime goroutine plus the watchdog and the pipe
		"GOTRACEBACK=single",
		fmt.Sprintf("%s=%d", envWorkerMemory, p.cfg.MemoryBytes),
	}
	if raceEnabled {
		env = append(env, "GORACE=atexit_sleep_ms=0") // a race-built worker would sleep 1s at exit
	}
	if p.cfg.LibraryDir != "" {
		env = append(env, envLibraryDir+"="+p.cfg.LibraryDir)
	}
	return append(env, p.cfg.Env...)
}

// track counts w in the memory stats until it exits.
func (p *Pool) track(w *proc) {
	p.mu.Lock()
	p.procs[w] = struct{}{}
	p.mu.Unlock()
	p.procWG.Go(func() {
		<-w.exited
		p.mu.Lock()
		delete(p.procs, w)
		p.mu.Unlock()
	})
}

func (p *Pool) breakerWait() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Until(p.breakerOpen)
}

func (p *Pool) breakerTrip() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failStreak++
	if p.failStreak >= 3 {
		wait := min(100*time.Millisecond<<min(p.failStreak-3, 7), 10*time.Second)
		p.breakerOpen = time.Now().Add(wait)
	}
}

func (p *Pool) breakerReset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failStreak = 0
}

// PoolStats is a point-in-time view of a pool.
type PoolStats struct {
	Workers  int   `json:"workers"`  // runs that may execute at once
	Live     int64 `json:"live"`     // worker processes started or starting
	Idle     int   `json:"idle"`     // started workers waiting for a run
	Busy     int64 `json:"busy"`     // runs executing
	Queued   int   `json:"queued"`   // runs waiting for a worker
	Runs     int64 `json:"runs"`     // runs executed
	Kills    int64 `json:"kills"`    // workers killed (deadline, cancel, limit)
	Crashes  int64 `json:"crashes"`  // workers that died on their own
	Restarts int64 `json:"restarts"` // replacement workers started
	Failures int64 `json:"failures"` // workers that failed to start
	// PSSBytes is the proportional resident memory of all worker processes
	// (shared pages split among them; Linux, 0 elsewhere).
	PSSBytes int64 `json:"pssBytes"`
}

// Stats reports the pool's current load.
func (p *Pool) Stats() PoolStats {
	return PoolStats{
		Workers: p.cfg.Workers, Live: p.live.Load(), Idle: len(p.idle), Busy: p.running.Load(),
		Queued: p.queue.len(), Runs: p.runs.Load(), Kills: p.kills.Load(), Crashes: p.crashes.Load(),
		Restarts: p.restarts.Load(), Failures: p.failures.Load(), PSSBytes: p.workersPSS(),
	}
}

func (p *Pool) workersPSS() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for w := range p.procs {
		n += pssBytes(w.cmd.Process.Pid)
	}
	return n
}

// Announced is what a client is told about the pool's limits.
type Announced struct {
	TimeoutMs struct {
		Default float64 `json:"default"`
		Min     float64 `json:"min"`
		Max     float64 `json:"max"`
	} `json:"timeoutMs"`
	MemoryBytes int64 `json:"memoryBytes"`
	Limits
	Modules      []string `json:"modules"`
	Host         []string `json:"host"`
	MaxHostCalls int      `json:"maxHostCalls"`
}

// Announce returns the limits runs are held to and the importable modules.
func (p *Pool) Announce() Announced {
	var a Announced
	a.TimeoutMs.Default = ms(p.cfg.DefaultTimeout)
	a.TimeoutMs.Min = ms(p.cfg.MinTimeout)
	a.TimeoutMs.Max = ms(p.cfg.MaxTimeout)
	a.MemoryBytes = p.cfg.MemoryBytes
	a.Limits = p.cfg.Limits
	a.Modules = p.libs.modules()
	a.Host = hostNames(p.cfg.Host)
	a.MaxHostCalls = p.cfg.MaxHostCalls
	return a
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
	res := Result{Facts: map[string]json.RawMessage{}, TimeoutMs: ms(timeout)}
	entry := req.Entry
	if entry == "" {
		entry = DefaultEntry(req.Files)
	}
	if entry == "" {
		emit(Event{Kind: EventError, Error: &Error{Kind: KindInvalidRequest, Message: "no entry file: name one with \"entry\" or add src/main.ts"}})
		res.Outcome = OutcomeInvalid
		return res, nil
	}

	queued := time.Now()
	if err := p.queue.acquire(ctx, req.Key, func(pos int) { emit(Event{Kind: EventQueued, Position: pos}) }); err != nil {
		res.Stats.QueueMs = ms(time.Since(queued))
		if errors.Is(err, ErrBusy) {
			res.Outcome, res.RetryAfter = OutcomeBusy, time.Second
			return res, nil
		}
		res.Outcome = OutcomeCancelled
		return res, nil
	}
	defer p.queue.release()
	w, err := p.take(ctx)
	res.Stats.QueueMs = ms(time.Since(queued))
	if err != nil {
		if ctx.Err() != nil {
			res.Outcome = OutcomeCancelled
			return res, nil
		}
		return res, err
	}
	p.running.Add(1)
	defer p.running.Add(-1)
	p.runs.Add(1)
	job := &ipcJob{Files: req.Files, Entry: entry, Input: req.Input, TimeoutMs: ms(timeout), Deterministic: req.Deterministic,
		Limits: p.cfg.Limits, Host: hostNames(p.cfg.Host), MaxHostCalls: p.cfg.MaxHostCalls}
	out, err := p.exec(ctx, w, req, job, timeout, emit)
	out.Stats.QueueMs = res.Stats.QueueMs
	out.TimeoutMs = res.TimeoutMs
	return out, err
}

// take waits for an idle worker.
func (p *Pool) take(ctx context.Context) (*proc, error) {
	select {
	case w := <-p.idle:
		return w, nil
	default:
	}
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case w := <-p.idle:
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-p.closed:
		return nil, ErrClosed
	case <-t.C:
		return nil, errWorkerUnavailable
	}
}

// exec drives one job on worker w: it forwards events after re-checking
// the caps, and enforces the deadline and cancellation by killing w when
// w does not stop by itself.
func (p *Pool) exec(ctx context.Context, w *proc, req Request, job *ipcJob, timeout time.Duration, emit func(Event)) (Result, error) {
	res := Result{Facts: map[string]json.RawMessage{}}
	hostCtx, stopHost := context.WithCancel(ctx) // host handlers end with the run
	defer stopHost()
	calls := 0
	if err := w.send(ipcRequest{Op: "run", Job: job}); err != nil {
		p.retire(w, false)
		return res, fmt.Errorf("send job: %w", err)
	}
	lim := p.cfg.Limits
	var (
		started               bool
		startedAt             time.Time
		events, logs, outText int // re-counted here: the worker's numbers are not trusted
		lastT                 float64
	)
	facts := newFactMirror()
	deadline := time.NewTimer(p.cfg.BundleTimeout)
	defer deadline.Stop()
	stop := func(outcome Outcome, e *Error) Result {
		p.kill(w)
		if e != nil {
			emit(Event{Kind: EventError, T: lastT, Error: e})
		}
		res.Outcome, res.TimedOut = outcome, outcome == OutcomeTimeout
		res.Facts, res.EndT = facts.snapshot(), lastT
		if started {
			res.Stats.RunMs = ms(time.Since(startedAt))
		}
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
				return p.crashed(w, started, facts, emit)
			}
			var m ipcMessage
			if err := json.Unmarshal(line, &m); err != nil || oneOf(m.Event != nil, m.Result != nil, m.Call != nil) != 1 {
				p.cfg.Log.Error("sandbox worker sent a bad line", "line", truncate(string(line), 200))
				return stop(OutcomeError, internalError(p.cfg.Log, "bad line from worker")), nil
			}
			if m.Result != nil {
				r := *m.Result
				if r.Facts == nil {
					r.Facts = map[string]json.RawMessage{}
				}
				r.Stats.Logs, r.Stats.OutputBytes = min(r.Stats.Logs, logs), min(r.Stats.OutputBytes, outText)
				p.release(w, r.Outcome)
				return r, nil
			}
			if c := m.Call; c != nil {
				if calls++; calls > p.cfg.MaxHostCalls {
					return stop(OutcomeError, &Error{Kind: KindSecurity, Message: fmt.Sprintf("run exceeded its %d host calls", p.cfg.MaxHostCalls)}), nil
				}
				p.wg.Go(func() {
					p.serveHostCall(hostCtx, req, *c, func(r hostReply) { _ = w.send(ipcRequest{Op: "reply", Reply: &r}) })
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
					deadline.Reset(timeout + p.cfg.KillGrace)
				}
			case EventLog:
				outText += len(ev.Text)
				logs++
				events++
			case EventFact, EventCall:
				events++
				if ev.Kind == EventFact {
					facts.apply(ev)
				}
			}
			if outText > lim.MaxOutputBytes || events > lim.MaxEvents+1 {
				res.Stats.Truncated = true
				return stop(OutcomeOutputLimit, &Error{Kind: KindOutputLimit, Message: fmt.Sprintf("run exceeded its output limit (%d bytes of console text or %d events)", lim.MaxOutputBytes, lim.MaxEvents)}), nil
			}
			emit(ev)
		case <-deadline.C:
			if !started {
				return stop(OutcomeError, &Error{Kind: KindBundle, Message: fmt.Sprintf("bundling took longer than %v", p.cfg.BundleTimeout)}), nil
			}
			return stop(OutcomeTimeout, &Error{Kind: KindTimeout, Message: fmt.Sprintf("run exceeded its time limit of %g ms", ms(timeout))}), nil
		case <-ctx.Done():
			_ = w.send(ipcRequest{Op: "cancel"})
			p.wg.Go(func() { p.reap(w) })
			res.Outcome = OutcomeCancelled
			res.Facts = facts.snapshot()
			if started {
				res.Stats.RunMs = ms(time.Since(startedAt))
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
			var m ipcMessage
			if json.Unmarshal(line, &m) == nil && m.Result != nil {
				p.release(w, m.Result.Outcome)
				return
			}
		case <-t.C:
			p.kill(w)
			return
		}
	}
}

// crashed ends a run whose worker died without a result, telling the user
// as precisely as the worker's exit allows.
func (p *Pool) crashed(w *proc, started bool, facts *factMirror, emit func(Event)) (Result, error) {
	<-w.exited
	stderr := w.stderr.String()
	res := Result{Facts: facts.snapshot()}
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
		e, res.Outcome = memoryError(p.cfg.MemoryBytes), OutcomeMemoryLimit
		if !started {
			e.Message = "bundling this source " + strings.TrimPrefix(e.Message, "run ")
		}
	default:
		res.Outcome = OutcomeError
		e = internalError(p.cfg.Log, "worker crashed", "exit", w.exitStatus(), "stderr", truncate(stderr, 4<<10))
	}
	p.crashes.Add(1)
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

// release returns a worker after a run, or retires it when it must not
// serve again (a limit was hit, or it served MaxRunsPerWorker runs).
func (p *Pool) release(w *proc, outcome Outcome) {
	w.runs++
	if outcome == OutcomeMemoryLimit || w.runs >= p.cfg.MaxRunsPerWorker {
		p.retire(w, false)
		return
	}
	select {
	case p.idle <- w:
	default: // cannot happen: idle holds every live worker
		p.retire(w, false)
	}
}

// kill kills a worker and replaces it.
func (p *Pool) kill(w *proc) {
	p.kills.Add(1)
	w.kill()
	p.retire(w, false)
}

// retire stops w in the background and starts its replacement.
func (p *Pool) retire(w *proc, crashed bool) {
	if crashed {
		p.crashes.Add(1)
	}
	p.wg.Go(func() { w.close(time.Second) })
	select {
	case <-p.closed:
		p.live.Add(-1)
	default:
		p.live.Add(-1)
		p.spawn(true)
	}
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
	p.once.Do(func() { close(p.closed) })
	p.wg.Wait() // spawners, reapers and retirements; no spawner adds a worker after this
	var wg sync.WaitGroup
	for {
		select {
		case w := <-p.idle:
			p.live.Add(-1)
			wg.Go(func() { w.close(time.Second) })
			continue
		default:
		}
		wg.Wait()
		p.procWG.Wait()
		return nil
	}
}

func oneOf(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// factMirror follows fact events so that a run whose worker was killed
// still ends with its last known facts.
type factMirror struct {
	vals map[string]json.RawMessage
}

func newFactMirror() *factMirror { return &factMirror{vals: map[string]json.RawMessage{}} }

func (f *factMirror) apply(ev Event) {
	if ev.Deleted {
		delete(f.vals, ev.Key)
		return
	}
	f.vals[ev.Key] = ev.Value
}

func (f *factMirror) snapshot() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(f.vals))
	for k, v := range f.vals {
		out[k] = v
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
