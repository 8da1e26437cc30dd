package sandbox

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// Limits bounds one run inside the runtime. The pool re-checks the byte and
// event caps on its side of the pipe.
type Limits struct {
	// MaxOutputBytes caps the console text of one run. Defaults to 1 MiB.
	MaxOutputBytes int `json:"maxOutputBytes"`
	// MaxEvents caps the events of one run (logs, facts, calls, errors). Defaults to 10,000.
	MaxEvents int `json:"maxEvents"`
	// MaxTimers caps the timers pending at once. Defaults to 10,000.
	MaxTimers int `json:"maxTimers"`
	// MaxCallStack caps the JS call stack depth; deeper recursion throws a
	// RangeError the snippet can catch. Defaults to 2,000 frames.
	MaxCallStack int `json:"maxCallStack"`
	PreviewLimits
}

func (l Limits) withDefaults() Limits {
	if l.MaxOutputBytes <= 0 {
		l.MaxOutputBytes = 1 << 20
	}
	if l.MaxEvents <= 0 {
		l.MaxEvents = 10_000
	}
	if l.MaxTimers <= 0 {
		l.MaxTimers = 10_000
	}
	if l.MaxCallStack <= 0 {
		l.MaxCallStack = 2_000
	}
	l.PreviewLimits = l.PreviewLimits.withDefaults()
	return l
}

// Reasons a runtime is interrupted; they decide the outcome.
var (
	errTimeout     = errors.New("run timed out")
	errOutputLimit = errors.New("output limit reached")
	errCancelled   = errors.New("run cancelled")
	errNoFS        = errors.New("source maps must be inline: the playground reads no files")
)

// job is what one execution needs, once bundled and compiled.
type job struct {
	Program       *goja.Program
	Libraries     *libraryRegistry
	Input         json.RawMessage
	Timeout       time.Duration
	Deterministic bool
	Limits        Limits

	// Host names the host functions the snippet may call; Call sends a
	// request and Replies delivers the answers. MaxHostCalls caps the calls.
	Host         []string
	Call         func(hostCall)
	Replies      <-chan hostReply
	MaxHostCalls int
}

// execution is one run inside one fresh goja.Runtime. Its methods run on
// one goroutine at a time: the one that built it (newExecution, possibly in
// the background), then the one that calls execute. Only ctx's AfterFunc
// touches it from elsewhere, through goja's Interrupt.
type execution struct {
	vm     *goja.Runtime
	b      builtins
	lim    Limits
	emit   func(Event)
	clock  clock
	facts  *factStore
	enc    encoder // previews (console)
	jsonEn encoder // facts and output

	timers    timerHeap
	timerByID map[int64]*timer
	nextTimer int64
	timerSeq  int64

	timeout time.Duration
	input   json.RawMessage

	stats  Stats
	events int
	failed bool  // an uncaught error was reported
	stop   error // why the run must end now (a limit); nil while it may go on

	// Host calls: requests go out through call, replies come back on
	// replies; calls holds the pending ones by id.
	host     []string
	call     func(hostCall)
	replies  <-chan hostReply
	calls    map[int64]*pendingCall
	maxCalls int
	numCalls int

	libs     map[string]goja.Value // libraries evaluated in this run, by name
	registry *libraryRegistry

	main       *goja.Promise // the entry module's evaluation
	output     goja.Value
	gotOutput  bool
	rejections []*goja.Promise // rejected without a handler, to report after the current task
}

// clock tells time inside a run: wall time, or in deterministic mode a
// virtual clock that only timers advance.
type clock struct {
	virtual bool
	base    time.Time // Date.now() at the run's start in virtual mode
	elapsed time.Duration
	start   time.Time
}

func (c *clock) now() time.Duration {
	if c.virtual {
		return c.elapsed
	}
	return time.Since(c.start)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// newExecution creates a runtime for j and sets up its global scope. It
// runs no snippet code, so it may happen before the run (see prewarm); the
// runtime is then used by one run only.
func newExecution(j job) *execution {
	e := &execution{
		vm:        goja.New(),
		lim:       j.Limits.withDefaults(),
		emit:      func(Event) {},
		timerByID: map[int64]*timer{},
		calls:     map[int64]*pendingCall{},
		libs:      map[string]goja.Value{},
		registry:  j.Libraries,
		host:      j.Host,
		maxCalls:  j.MaxHostCalls,
	}
	e.clock = clock{virtual: j.Deterministic, start: time.Now(), base: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	e.setup(j)
	return e
}

// execute runs j on e, a runtime from newExecution made for the same
// deterministic mode, limits and host functions, to completion, its
// deadline, or ctx's end, calling emit for each event. It returns the
// result without Stats.QueueMs and BundleMs, which the caller owns.
func (e *execution) execute(ctx context.Context, j job, emit func(Event)) Result {
	e.emit, e.timeout, e.input, e.call, e.replies = emit, j.Timeout, j.Input, j.Call, j.Replies
	res := Result{Facts: map[string]json.RawMessage{}, TimeoutMs: ms(j.Timeout)}

	ctx, cancel := context.WithTimeoutCause(ctx, j.Timeout, errTimeout)
	defer cancel()
	stopWatch := context.AfterFunc(ctx, func() { e.vm.Interrupt(e.interruptCause(ctx)) })
	defer stopWatch()

	emit(Event{Kind: EventStarted, TimeoutMs: ms(j.Timeout)})
	e.clock.start = time.Now()

	err := e.run(ctx, j.Program)
	res.Stats = e.stats
	res.Stats.RunMs = ms(time.Since(e.clock.start))
	res.EndT = ms(e.clock.now())
	e.facts.flush()
	res.Facts = e.facts.snapshot()

	switch {
	case err == nil && e.stop == nil:
		res.Outcome = OutcomeOK
		if e.failed {
			res.Outcome = OutcomeError
		}
		if e.gotOutput {
			res.Output = e.jsonValue(e.output)
		}
	default:
		cause := e.stop
		if cause == nil {
			cause = err
		}
		res.Outcome, res.TimedOut = e.endWith(cause)
	}
	return res
}

// interruptCause is why ctx ended: the run's own deadline, the memory
// watchdog, or a cancel.
func (e *execution) interruptCause(ctx context.Context) error {
	switch c := context.Cause(ctx); {
	case errors.Is(c, errTimeout), errors.Is(c, errMemoryLimit):
		return c
	}
	return errCancelled
}

// endWith reports the error that stopped the run and maps it to an outcome.
func (e *execution) endWith(cause error) (Outcome, bool) {
	var ie *goja.InterruptedError
	if errors.As(cause, &ie) {
		if c, ok := ie.Value().(error); ok {
			cause = c
		}
	}
	switch {
	case errors.Is(cause, errTimeout):
		e.emitAlways(Event{Kind: EventError, Error: &Error{Kind: KindTimeout, Message: fmt.Sprintf("run exceeded its time limit of %g ms", ms(e.timeout))}})
		return OutcomeTimeout, true
	case errors.Is(cause, errOutputLimit):
		e.emitAlways(Event{Kind: EventError, Error: &Error{Kind: KindOutputLimit, Message: fmt.Sprintf("run exceeded its output limit (%d bytes of console text or %d events)", e.lim.MaxOutputBytes, e.lim.MaxEvents)}})
		return OutcomeOutputLimit, false
	case errors.Is(cause, errMemoryLimit):
		return OutcomeMemoryLimit, false // the worker reports the error
	case errors.Is(cause, errCancelled):
		return OutcomeCancelled, false
	default:
		e.emitError(&Error{Kind: KindInternal, Message: "the runtime failed: " + cause.Error()})
		return OutcomeError, false
	}
}

// setup builds the global scope: ECMAScript built-ins, console and timers.
func (e *execution) setup(j job) {
	vm := e.vm
	vm.SetMaxCallStackSize(e.lim.MaxCallStack)
	vm.SetParserOptions(parser.WithSourceMapLoader(noSourceMapFiles)) // eval and new Function too
	if j.Deterministic {
		vm.SetRandSource(newRand(0x5eed))
		vm.SetTimeSource(func() time.Time { return e.clock.base.Add(e.clock.elapsed) })
	}
	e.b = captureBuiltins(vm)
	e.enc = encoder{vm: vm, b: &e.b, lim: e.lim.PreviewLimits}
	e.jsonEn = encoder{vm: vm, b: &e.b, lim: e.lim.PreviewLimits, json: true}
	vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		if op == goja.PromiseRejectionReject {
			e.rejections = append(e.rejections, p)
			return
		}
		for i, r := range e.rejections { // PromiseRejectionHandle: a handler arrived in time
			if r == p {
				e.rejections = append(e.rejections[:i], e.rejections[i+1:]...)
				break
			}
		}
	})
	must(vm.Set("console", newConsole(e)))
	must(vm.Set("setTimeout", e.setTimer(false)))
	must(vm.Set("setInterval", e.setTimer(true)))
	must(vm.Set("clearTimeout", e.clearTimer))
	must(vm.Set("clearInterval", e.clearTimer))
	must(vm.Set("queueMicrotask", e.queueMicrotask()))
	perf := vm.NewObject()
	must(perf.Set("now", func(goja.FunctionCall) goja.Value { return vm.ToValue(ms(e.clock.now())) }))
	must(vm.Set("performance", perf))
	must(vm.Set("crypto", e.cryptoObject(j.Deterministic)))
	e.facts = newFactStore(e)
}

// queueMicrotaskSource defines queueMicrotask in JS over the intrinsic
// Promise, captured before snippet code runs. (A Go function that calls back
// into JS from inside a microtask makes goja retain memory per call.)
const queueMicrotaskSource = `(function (P, then) {
	const resolved = P.resolve();
	return function queueMicrotask(callback) {
		if (typeof callback !== "function") throw new TypeError("queueMicrotask: the callback must be a function");
		then.call(resolved, () => { callback(); });
	};
})(Promise, Promise.prototype.then)`

var queueMicrotaskProgram = goja.MustCompile("queueMicrotask.js", queueMicrotaskSource, true)

func (e *execution) queueMicrotask() goja.Value {
	v, err := e.vm.RunProgram(queueMicrotaskProgram)
	must(err)
	return v
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// run evaluates the bundle and then drives the event loop until nothing is
// pending. A non-nil error means the runtime was interrupted.
func (e *execution) run(ctx context.Context, prg *goja.Program) error {
	fnv, err := e.vm.RunProgram(prg)
	if err != nil {
		return e.uncaught(err)
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return errors.New("bundle did not evaluate to a function")
	}
	rt := e.vm.NewObject()
	must(rt.Set("facts", e.facts.obj))
	input, err := e.parseInput()
	if err != nil {
		return e.uncaught(err)
	}
	must(rt.Set("input", input))
	must(rt.Set("host", e.hostObject()))
	must(rt.Set("lib", e.lib))
	must(rt.Set("done", func(c goja.FunctionCall) goja.Value {
		e.output, e.gotOutput = c.Argument(0), true
		return goja.Undefined()
	}))
	pv, err := fn(goja.Undefined(), rt)
	if err != nil {
		return e.uncaught(err)
	}
	e.main, _ = pv.Export().(*goja.Promise)
	if err := e.afterTask(); err != nil {
		return err
	}
	return e.loop(ctx)
}

// parseInput turns the run's input JSON into a deep-frozen value.
func (e *execution) parseInput() (goja.Value, error) {
	if len(e.input) == 0 {
		return goja.Undefined(), nil
	}
	v, err := e.b.jsonParse(goja.Undefined(), e.vm.ToValue(string(e.input)))
	if err != nil {
		return nil, err
	}
	e.deepFreeze(v, 0)
	return v, nil
}

// deepFreeze freezes a value parsed from JSON (plain data: no accessors, no
// cycles) down to the depth JSON nesting allows.
func (e *execution) deepFreeze(v goja.Value, depth int) {
	o, ok := v.(*goja.Object)
	if !ok || depth > 1000 {
		return
	}
	for _, k := range o.Keys() {
		e.deepFreeze(o.Get(k), depth+1)
	}
	_, _ = e.b.freeze(goja.Undefined(), o)
}

// throw raises a JS error of the named built-in class (TypeError, RangeError) with msg.
func (e *execution) throw(class, msg string) {
	ctor := e.vm.Get(class)
	o, err := e.vm.New(ctor, e.vm.ToValue(msg))
	if err != nil {
		panic(e.vm.NewTypeError(msg))
	}
	panic(o)
}

// afterTask runs after every macrotask (microtasks have drained): it reports
// unhandled rejections, flushes nested fact changes and checks limits.
func (e *execution) afterTask() error {
	if e.stop != nil {
		return e.stop
	}
	for _, p := range e.rejections {
		if p != e.main && p.State() == goja.PromiseStateRejected {
			e.reportThrown(p.Result(), true)
		}
	}
	if e.main != nil && e.main.State() == goja.PromiseStateRejected {
		e.reportThrown(e.main.Result(), false) // the entry module threw: an uncaught exception
		e.main = nil
	}
	e.rejections = e.rejections[:0]
	e.facts.flush()
	return e.stop
}

// loop fires timers in order until none is left, the context ends, or a
// limit stops the run.
func (e *execution) loop(ctx context.Context) error {
	var wait *time.Timer
	defer func() {
		if wait != nil {
			wait.Stop()
		}
	}()
	for len(e.timers) > 0 || len(e.calls) > 0 {
		var timerC <-chan time.Time
		var next *timer
		if len(e.timers) > 0 {
			next = e.timers[0]
			d := next.when - e.clock.now()
			switch {
			case d <= 0:
			case e.clock.virtual && len(e.calls) == 0:
				e.clock.elapsed = next.when // virtual time jumps to the next timer
			case e.clock.virtual:
				next = nil // a host call is pending: it comes first
			default:
				if wait == nil {
					wait = time.NewTimer(d)
				} else {
					wait.Reset(d)
				}
				timerC, next = wait.C, nil
			}
		}
		if next == nil {
			select {
			case <-ctx.Done():
				return e.interruptCause(ctx)
			case <-timerC:
				continue // the timer is due now: fire it on the next pass
			case r := <-e.replies:
				e.settleCall(r)
				if err := e.afterTask(); err != nil {
					return err
				}
				continue
			}
		}
		if ctx.Err() != nil {
			return e.interruptCause(ctx)
		}
		t := next
		heap.Pop(&e.timers)
		if t.interval {
			t.when = max(t.when+t.delay, e.clock.now())
			e.timerSeq++
			t.seq = e.timerSeq
			heap.Push(&e.timers, t)
		} else {
			delete(e.timerByID, t.id)
		}
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			if err := e.uncaught(err); err != nil {
				return err
			}
		}
		if err := e.afterTask(); err != nil {
			return err
		}
	}
	if e.main != nil && e.main.State() == goja.PromiseStatePending {
		e.emitError(&Error{Kind: KindRuntime, Message: "top-level await never settled: the entry module was still waiting when nothing was left to run"})
		e.failed = true
	}
	return nil
}

// uncaught reports a JS exception thrown out of a task. It returns the
// error back when the runtime was interrupted instead.
func (e *execution) uncaught(err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		return err
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		e.reportException(ex)
		return e.stop
	}
	var se *goja.StackOverflowError
	if errors.As(err, &se) {
		// goja's stack overflow is uncatchable by design (runtime.go,
		// SetMaxCallStackSize), so it ends the task it happened in.
		er := &Error{Kind: KindRuntime, Message: "RangeError: Maximum call stack size exceeded"}
		if frames := userFrames(se.Stack()); len(frames) > 0 {
			er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
			er.Stack = formatStack(er.Message, frames)
		}
		e.emitError(er)
		e.failed = true
		return e.stop
	}
	return err
}

func (e *execution) reportException(ex *goja.Exception) {
	er := e.thrownError(ex.Value())
	securityError(er)
	frames := userFrames(ex.Stack())
	if len(frames) > 0 {
		er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
		er.Stack = formatStack(er.Message, frames)
	}
	e.emitError(er)
	e.failed = true
}

// reportThrown reports a rejection reason (no Go-side stack: the stack is
// the one the error object captured, if any).
func (e *execution) reportThrown(v goja.Value, inPromise bool) {
	er := e.thrownError(v)
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		if s := e.enc.dataString(o, "stack"); s != "" {
			frames := parseStack(s)
			if len(frames) > 0 {
				er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
				er.Stack = formatStack(er.Message, frames)
			}
		}
	}
	securityError(er)
	if inPromise {
		er.Message = "Uncaught (in promise) " + er.Message
		if er.Stack != "" {
			er.Stack = "Uncaught (in promise) " + er.Stack
		}
	}
	e.emitError(er)
	e.failed = true
}

// hostGlobals are what snippets reach for when they want the host. They
// are not defined (typeof stays "undefined", as libraries feature-detect);
// using one is reported as a SECURITY_ERROR rather than a bare ReferenceError.
var hostGlobals = []string{
	"process", "require", "module", "exports", "__dirname", "__filename", "global", "Buffer",
	"fetch", "XMLHttpRequest", "WebSocket", "EventSource", "navigator", "window", "document",
	"localStorage", "sessionStorage", "indexedDB", "importScripts", "Deno", "Bun",
	"setImmediate", "clearImmediate", "Worker", "SharedArrayBuffer", "WebAssembly",
}

// securityError turns "ReferenceError: process is not defined" into a
// SECURITY_ERROR that says the capability is not available.
func securityError(er *Error) {
	name, ok := strings.CutPrefix(er.Message, "ReferenceError: ")
	if !ok {
		return
	}
	name, ok = strings.CutSuffix(name, " is not defined")
	name = strings.TrimPrefix(name, aliasPrefix)
	if !ok || !slices.Contains(hostGlobals, name) {
		return
	}
	er.Kind = KindSecurity
	er.Message = fmt.Sprintf("%s is not available in the playground: snippets get ECMAScript built-ins, console, timers and the \"playground\" module, nothing of the host (ReferenceError: %s is not defined)", name, name)
	if i := strings.IndexByte(er.Stack, '\n'); i >= 0 {
		er.Stack = er.Message + er.Stack[i:]
	}
}

// thrownError describes a thrown value as "Name: message" without running
// snippet code.
func (e *execution) thrownError(v goja.Value) *Error {
	msg := render(e.enc.encode(v), true)
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		msg = e.enc.errorName(o)
		if m := e.enc.str(e.enc.dataString(o, "message")); m != "" {
			msg += ": " + m
		}
	}
	return &Error{Kind: KindRuntime, Message: msg}
}

// frame is one user frame of a stack, in the user's original file.
type frame struct {
	fn           string
	file         string
	line, column int
}

// userFrames keeps the frames that map into the snippet's files; bundle
// helpers, the runtime module and native frames are dropped.
func userFrames(stack []goja.StackFrame) []frame {
	var out []frame
	for _, f := range stack {
		p := f.Position()
		file, ok := strings.CutPrefix(p.Filename, nsFile+":")
		if !ok {
			continue
		}
		fn := f.FuncName()
		if strings.HasPrefix(fn, nsFile+":") {
			fn = "" // module code
		}
		out = append(out, frame{fn: fn, file: file, line: p.Line, column: p.Column + 1})
	}
	return out
}

// parseStack reads goja's stack text ("at fn (file:line:col(pc))") back into
// frames, for errors that reach us as values.
func parseStack(s string) []frame {
	var out []frame
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "at ")
		if !ok {
			continue
		}
		fn := ""
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			fn, rest = rest[:i], rest[i+2:len(rest)-1]
			if strings.HasPrefix(fn, nsFile+":") {
				fn = ""
			}
		}
		rest, ok = strings.CutPrefix(rest, nsFile+":")
		if !ok {
			continue
		}
		if i := strings.LastIndexByte(rest, '('); i >= 0 {
			rest = rest[:i]
		}
		parts := strings.Split(rest, ":")
		if len(parts) < 3 {
			continue
		}
		ln, err1 := strconv.Atoi(parts[len(parts)-2])
		col, err2 := strconv.Atoi(parts[len(parts)-1])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, frame{fn: fn, file: strings.Join(parts[:len(parts)-2], ":"), line: ln, column: col + 1})
	}
	return out
}

// maxStackFrames caps the frames a reported stack shows (deep recursion
// has thousands).
const maxStackFrames = 30

func formatStack(msg string, frames []frame) string {
	var b strings.Builder
	b.WriteString(msg)
	for i, f := range frames {
		if i == maxStackFrames {
			fmt.Fprintf(&b, "\n    ... %d more frames", len(frames)-i)
			break
		}
		if f.fn != "" {
			fmt.Fprintf(&b, "\n    at %s (%s:%d:%d)", f.fn, f.file, f.line, f.column)
		} else {
			fmt.Fprintf(&b, "\n    at %s:%d:%d", f.file, f.line, f.column)
		}
	}
	return b.String()
}

// emitError sends an error event (counted against the event cap).
func (e *execution) emitError(er *Error) {
	e.send(Event{Kind: EventError, Error: er})
}

// send emits ev unless the event cap is reached, in which case the run stops
// with output_limit.
func (e *execution) send(ev Event) bool {
	if e.stop != nil {
		return false
	}
	if e.events >= e.lim.MaxEvents {
		e.limit(errOutputLimit)
		return false
	}
	e.events++
	e.emitAlways(ev)
	return true
}

func (e *execution) emitAlways(ev Event) {
	ev.T = ms(e.clock.now())
	e.emit(ev)
}

// limit stops the run for cause at the next instruction.
func (e *execution) limit(cause error) {
	if e.stop == nil {
		e.stop = cause
		e.vm.Interrupt(cause)
	}
}

// jsonValue encodes v for facts and output.
func (e *execution) jsonValue(v goja.Value) json.RawMessage {
	b, err := json.Marshal(e.jsonEn.encode(v))
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

// timer is one pending setTimeout or setInterval.
type timer struct {
	id       int64
	when     time.Duration // on the run's clock
	delay    time.Duration
	seq      int64 // FIFO among timers due at the same time
	interval bool
	fn       goja.Callable
	args     []goja.Value
	index    int
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when != h[j].when {
		return h[i].when < h[j].when
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

func (e *execution) setTimer(interval bool) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			e.throw("TypeError", "the callback must be a function (the playground does not evaluate strings)")
		}
		if len(e.timers) >= e.lim.MaxTimers {
			e.throw("RangeError", fmt.Sprintf("too many pending timers (limit %d)", e.lim.MaxTimers))
		}
		d := c.Argument(1).ToFloat()
		if math.IsNaN(d) || d < 0 {
			d = 0
		}
		if interval && d < 1 {
			d = 1
		}
		delay := time.Duration(min(d, 1e9) * float64(time.Millisecond))
		e.nextTimer++
		e.timerSeq++
		t := &timer{id: e.nextTimer, when: e.clock.now() + delay, delay: delay, seq: e.timerSeq, interval: interval, fn: fn}
		if len(c.Arguments) > 2 {
			t.args = append([]goja.Value(nil), c.Arguments[2:]...)
		}
		heap.Push(&e.timers, t)
		e.timerByID[t.id] = t
		return e.vm.ToValue(t.id)
	}
}

func (e *execution) clearTimer(c goja.FunctionCall) goja.Value {
	id := c.Argument(0).ToInteger()
	if t, ok := e.timerByID[id]; ok {
		if t.index >= 0 {
			heap.Remove(&e.timers, t.index)
		}
		delete(e.timerByID, id)
	}
	return goja.Undefined()
}
