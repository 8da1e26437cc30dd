package sandbox

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// WorkerMain is the worker process: it serves the runs it reads from r
// (the parent's pipe), one at a time, each in a fresh goja.Runtime, writing
// events and results to w, until r ends. It returns the process exit code.
// The binary that the pool starts (Config.Command) must call it and exit.
//
// It caps its own memory first: RLIMIT_DATA as the OS backstop, a soft Go
// memory limit, and a heap watchdog that ends a run over the cap with
// outcome memory_limit and exits, since a builtin stuck allocating cannot be
// interrupted. No file is ever read: source maps must be inline.
func WorkerMain(r io.Reader, w io.Writer) int {
	mem, _ := strconv.ParseInt(os.Getenv(envWorkerMemory), 10, 64)
	if mem <= 0 {
		mem = defaultMemoryBytes
	}
	debug.SetMaxStack(workerMaxStack)
	// goja hands patterns with backreferences or lookarounds to regexp2 and
	// discards its errors, so regexp2's default backtracking-stack limit
	// would make a regex that should match return false. The run's deadline
	// and the memory watchdog bound a match instead.
	regexp2.DefaultOptimizationOptions.MaxBacktrackingStackSize = -1
	debug.SetMemoryLimit(mem)
	if raceEnabled {
		// no OS limit: see race.go
	} else if err := limitMemory(mem + workerBaselineBytes); err != nil {
		fmt.Fprintln(os.Stderr, "worker: cannot limit memory:", err)
		return 1
	}
	libs, err := newLibraryRegistry(os.Getenv(envLibraryDir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	wk := &workerState{out: bufio.NewWriter(w), memLimit: mem, cache: newProgramCache(64, libs), started: make(chan struct{}, 1)}
	if err := wk.write(ipcMessage{Ready: true}); err != nil {
		return 1
	}
	jobs := make(chan *ipcJob)
	go func() { // the only reader of r: runs go to the serving loop, cancels act at once
		defer close(jobs)
		defer wk.interrupt(errCancelled) // the parent is gone
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), maxJobBytes)
		for sc.Scan() {
			var req ipcRequest
			if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
				fmt.Fprintln(os.Stderr, "worker: bad request:", err)
				continue
			}
			switch {
			case req.Op == "cancel":
				wk.interrupt(errCancelled) // a cancel after its run ended finds nothing to do
			case req.Op == "reply" && req.Reply != nil:
				wk.deliver(*req.Reply)
			case req.Op == "run" && req.Job != nil:
				jobs <- req.Job
			}
		}
	}()
	go wk.watchdog() // lives as long as the process; it may end it (memory limit)
	defer wk.prewarms.Wait()
	for j := range jobs {
		res := wk.serve(j)
		if err := wk.write(ipcMessage{Result: &res}); err != nil {
			return 1
		}
		if res.Outcome == OutcomeMemoryLimit {
			return exitMemoryLimit
		}
	}
	return 0
}

// ServeIfWorker makes this process a worker when it was started as one
// (its only argument is WorkerArg, as Pool starts it): it serves on stdin
// and stdout and exits. Otherwise it returns. The playground binary and
// every test binary that starts a Pool call it first thing in main or
// TestMain.
func ServeIfWorker() {
	if len(os.Args) == 2 && os.Args[1] == WorkerArg {
		os.Exit(WorkerMain(os.Stdin, os.Stdout))
	}
}

// Worker memory layout. The run's cap is Config.MemoryBytes; the OS limit
// adds room for the Go runtime, esbuild and goja themselves.
const (
	defaultMemoryBytes  = 256 << 20
	workerBaselineBytes = 96 << 20
	workerMaxStack      = 32 << 20 // esbuild and goja recurse on nesting; overflow is fatal, and costs only this worker
	maxJobBytes         = 16 << 20
	watchdogInterval    = 2 * time.Millisecond
)

type workerState struct {
	memLimit int64
	cache    *programCache
	next     *prewarmed     // only the serving goroutine touches it
	prewarms sync.WaitGroup // WorkerMain waits for every prewarm it started

	mu  sync.Mutex // guards out and cancel
	out *bufio.Writer
	// cancel interrupts the current run; the watchdog uses it too.
	cancel context.CancelCauseFunc
	// memoryHit is set by the watchdog when the heap passed the cap.
	memoryHit bool
	// replies receives the current run's host call answers; nil between runs.
	replies chan hostReply
	// started wakes the watchdog when a run begins (buffered 1).
	started chan struct{}
}

// deliver hands a host call's reply to the current run. The channel holds
// a reply for every call a run may make, so this never blocks; a reply
// that arrives after its run ended is dropped.
func (wk *workerState) deliver(r hostReply) {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if wk.replies != nil {
		select {
		case wk.replies <- r:
		default:
		}
	}
}

// write sends one message and flushes it, so that events arrive as they happen.
func (wk *workerState) write(m ipcMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	wk.mu.Lock()
	defer wk.mu.Unlock()
	wk.out.Write(b)
	wk.out.WriteByte('\n')
	return wk.out.Flush()
}

// running reports whether a run is in progress.
func (wk *workerState) running() bool {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	return wk.cancel != nil
}

// interrupt cancels the current run, if any, with cause.
func (wk *workerState) interrupt(cause error) {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if wk.cancel != nil {
		wk.cancel(cause)
	}
}

// serve runs one job; interrupt cancels it.
func (wk *workerState) serve(j *ipcJob) Result {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	replies := make(chan hostReply, max(j.MaxHostCalls, 1))
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
	}()
	if heapBytes() > wk.memLimit/2 {
		runtime.GC() // start from a clean heap: the last run's garbage is not this run's
	}
	emit := func(ev Event) { _ = wk.write(ipcMessage{Event: &ev}) }
	call := func(c hostCall) { _ = wk.write(ipcMessage{Call: &c}) }
	res := wk.runJob(ctx, j, emit, call, replies)
	wk.mu.Lock()
	hit := wk.memoryHit
	wk.mu.Unlock()
	if hit {
		emit(Event{Kind: EventError, Error: memoryError(wk.memLimit)})
		res.Outcome, res.TimedOut = OutcomeMemoryLimit, false
	}
	return res
}

// watchdog checks the heap every watchdogInterval. Over the cap it
// interrupts the run; if the run is stuck in a builtin and the heap keeps
// growing past the cap by half, it reports the run and exits the process.
func (wk *workerState) watchdog() {
	t := time.NewTicker(watchdogInterval)
	defer t.Stop()
	for range t.C {
		if !wk.running() {
			// Between runs nothing allocates: sleep until the next run
			// starts instead of waking every 2 ms.
			t.Stop()
			<-wk.started
			t.Reset(watchdogInterval)
			continue
		}
		if heapBytes() <= wk.memLimit {
			continue
		}
		runtime.GC()
		live := liveHeapBytes()
		if live <= wk.memLimit {
			continue // garbage, not a program holding memory
		}
		wk.mu.Lock()
		if wk.cancel != nil {
			wk.memoryHit = true
			wk.cancel(errMemoryLimit)
		}
		wk.mu.Unlock()
		if live > wk.memLimit+wk.memLimit/2 {
			// Interrupt cannot stop a builtin that keeps allocating: end here.
			_ = wk.write(ipcMessage{Event: &Event{Kind: EventError, Error: memoryError(wk.memLimit)}})
			res := Result{Outcome: OutcomeMemoryLimit, Facts: map[string]json.RawMessage{}}
			_ = wk.write(ipcMessage{Result: &res})
			os.Exit(exitMemoryLimit)
		}
	}
}

var errMemoryLimit = errors.New("memory limit reached")

func memoryError(limit int64) *Error {
	return &Error{Kind: KindMemoryLimit, Message: fmt.Sprintf("run exceeded its memory limit of %d MiB", limit>>20)}
}

// heapBytes is the memory held by heap objects, live or not yet swept: a
// cheap first check.
func heapBytes() int64 { return readMetric("/memory/classes/heap/objects:bytes") }

// liveHeapBytes is the heap the last garbage collection found live.
func liveHeapBytes() int64 { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// runJob bundles (through the cache) and executes one job.
func (wk *workerState) runJob(ctx context.Context, j *ipcJob, emit func(Event), call func(hostCall), replies <-chan hostReply) Result {
	cache := wk.cache
	t0 := time.Now()
	prg, libs, errs := cache.get(j.Files, j.Entry)
	bundleMs := ms(time.Since(t0))
	if len(errs) > 0 {
		for i := range errs {
			emit(Event{Kind: EventError, Error: &errs[i]})
		}
		out := OutcomeError
		if errs[0].Kind == KindInvalidRequest {
			out = OutcomeInvalid
		}
		return Result{Outcome: out, Facts: map[string]json.RawMessage{}, TimeoutMs: j.TimeoutMs, Stats: Stats{BundleMs: bundleMs}}
	}
	jb := job{Program: prg, Libraries: cache.libs, Input: j.Input, Timeout: j.timeout(), Deterministic: j.Deterministic, Limits: j.Limits,
		Host: j.Host, Call: call, Replies: replies, MaxHostCalls: j.MaxHostCalls}
	key := prewarmKey{deterministic: j.Deterministic, limits: j.Limits, host: strings.Join(j.Host, ","), libs: strings.Join(libs, ",")}
	e := wk.takePrewarmed(key)
	if e == nil {
		e = newExecution(jb)
	}
	res := e.execute(ctx, jb, emit)
	res.Stats.BundleMs = bundleMs
	if len(libs) > 0 {
		// The next run is most often this one again. Only a run with
		// libraries gains much (~7 ms for lodash); for a plain one the
		// background work costs saturated throughput more than it saves.
		wk.prewarm(key, jb, libs)
	}
	return res
}

// prewarmKey says what a prepared runtime was prepared for.
type prewarmKey struct {
	deterministic bool
	limits        Limits
	host, libs    string
}

// prewarmed is a fresh runtime being prepared in the background while the
// worker waits for its next job: global scope set up and libraries
// evaluated, no snippet code run. A job whose key matches takes it
// (waiting for it to finish, which costs no more than building one); any
// other job discards it.
type prewarmed struct {
	key   prewarmKey
	ready chan *execution // buffered 1
}

func (wk *workerState) prewarm(key prewarmKey, j job, libs []string) {
	p := &prewarmed{key: key, ready: make(chan *execution, 1)}
	wk.next = p
	j.Program, j.Input, j.Call, j.Replies = nil, nil, nil, nil
	wk.prewarms.Go(func() { // a discarded one finishes into its buffered channel
		e := newExecution(j)
		for _, name := range libs {
			if ex := e.vm.Try(func() { e.lib(goja.FunctionCall{Arguments: []goja.Value{e.vm.ToValue(name)}}) }); ex != nil {
				break // the run will meet the same error itself
			}
		}
		p.ready <- e
	})
}

// takePrewarmed returns the prepared runtime when it matches key.
func (wk *workerState) takePrewarmed(key prewarmKey) *execution {
	p := wk.next
	wk.next = nil
	if p == nil || p.key != key {
		return nil
	}
	return <-p.ready
}

// programCache keeps compiled bundles by content hash. A *goja.Program is
// immutable and shared by the runtimes of later runs. Only the worker's
// serving goroutine uses it.
type programCache struct {
	size  int
	libs  *libraryRegistry
	m     map[[32]byte]*cached
	clock uint64
}

type cached struct {
	prg  *goja.Program
	libs []string
	errs []Error
	used uint64
}

func newProgramCache(size int, libs *libraryRegistry) *programCache {
	return &programCache{size: size, libs: libs, m: map[[32]byte]*cached{}}
}

func (c *programCache) get(files []File, entry string) (*goja.Program, []string, []Error) {
	key := bundleKey(files, entry)
	c.clock++
	if e, ok := c.m[key]; ok {
		e.used = c.clock
		return e.prg, e.libs, e.errs
	}
	e := &cached{used: c.clock}
	b := bundle(files, entry, c.libs)
	e.errs, e.libs = b.Errors, b.Libraries
	if len(e.errs) == 0 {
		prg, err := compile(b.Code)
		if err != nil {
			e.errs = []Error{{Kind: KindSyntax, Message: err.Error()}}
		}
		e.prg = prg
	}
	if len(c.m) >= c.size {
		var oldest [32]byte
		least := ^uint64(0)
		for k, v := range c.m {
			if v.used < least {
				oldest, least = k, v.used
			}
		}
		delete(c.m, oldest)
	}
	c.m[key] = e
	return e.prg, e.libs, e.errs
}

// compile parses a bundle with its inline source map. The loader refuses
// every file: a sourceMappingURL that is not inline is ignored.
func compile(code string) (*goja.Program, error) {
	ast, err := goja.Parse("bundle.js", code, parser.WithSourceMapLoader(noSourceMapFiles))
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, true)
}

func noSourceMapFiles(string) ([]byte, error) { return nil, errNoFS }

// bundleKey hashes what decides a bundle's bytes: the bundler version
// (options live in this binary), the entry and the files, each length-prefixed.
func bundleKey(files []File, entry string) [32]byte {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		for i := range 8 {
			n[i] = byte(len(s) >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(esbuildVersion)
	write(entry)
	for _, f := range files {
		write(f.Path)
		write(f.Source)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}
