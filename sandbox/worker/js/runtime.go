package js

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
	"github.com/playground-dev/playground/sandbox/worker/js/intl"
	"github.com/playground-dev/playground/sandbox/worker/js/jsonvalue"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
	"github.com/playground-dev/playground/sandbox/worker/js/regexpidx"
	"github.com/playground-dev/playground/sandbox/worker/js/rewrite"
	"github.com/playground-dev/playground/sandbox/worker/js/webapi"
)

// Reasons a runtime is interrupted; they decide the outcome. The worker
// cancels a run's context with ErrCancelled (the parent said cancel, or
// went away) or ErrMemoryLimit (its heap watchdog) as the cause.
var (
	ErrCancelled   = errors.New("run cancelled")
	ErrMemoryLimit = errors.New("memory limit reached")
	errTimeout     = errors.New("run timed out")
	errOutputLimit = errors.New("output limit reached")
	errOutputDepth = errors.New("output nested too deep")
	errUncaught    = errors.New("uncaught exception") // the error event was sent; the run ends

	errNoFS = errors.New("source maps must be inline: the playground reads no files")
)

// Zone is the time zone of every run's Date: UTC, under the name Node
// (ICU) prints in a date's string: "Thu Jan 01 1970 00:00:00 GMT+0000
// (Coordinated Universal Time)". goja formats and computes local time with
// time.Local, so a worker process sets time.Local to Zone before its first
// run (worker.Main). Intl's default time zone is UTC as well
// (intl.DateTimeFormat), so Date's local-time methods and Intl agree
// whatever the machine's TZ is.
var Zone = time.FixedZone("Coordinated Universal Time", 0)

// Job is what one run needs, once bundled and compiled. A runtime is made
// for a Job's Deterministic, Limits and Host (New); its Program, Input,
// Timeout, Call and Replies are used by Execute.
type Job struct {
	Program *goja.Program
	// Libraries compiles the libraries the bundle imports (FieldLib); one
	// per worker, shared by its runtimes.
	Libraries *Libraries
	Input     json.RawMessage
	// Timeout is the run's time limit as its request announced it (the
	// started event and a TIMEOUT error say it); Deadline, when set, is
	// when that limit ends, counted from the parent's sending of the job
	// (pipe.Job.Deadline; bundling spent part of it), and otherwise
	// Timeout counts from Execute.
	Timeout       time.Duration
	Deadline      time.Time
	Deterministic bool
	// Client is the client this runtime serves (pipe.Job.Client, an
	// opaque token): the caches it fills for later runs — the RegExp
	// programs (parity), the library chunks of the names it uses
	// (Libraries) — are keyed by it, so that no client hits, or times,
	// another's entries (issue 22). New reads it.
	Client string
	Limits pipe.Limits
	// Mode is the bundle's mode (bundle.Result.Mode): pipe.ModeScript
	// defines the script globals (input, output, require); anything else
	// runs the bundle as modules. Entry is the entry file's path, whose
	// line 1 is shifted in script mode (bundle.ScriptPrefix).
	Mode  string
	Entry string

	// Host names the host functions the snippet may call; Call sends a
	// request and Replies delivers the answers.
	Host    []string
	Globals []string // host functions or namespaces also defined as globals (pipe.Job.Globals)
	Call    func(pipe.HostCall)
	Replies <-chan pipe.HostReply
}

// Runtime is one run inside one fresh goja.Runtime. Its methods run on one
// goroutine at a time: the one that built it (New, possibly in the
// background while the worker waits for a job), then the one that calls
// Execute. Only ctx's AfterFunc touches it from elsewhere, through goja's
// Interrupt. A Runtime serves one run only.
type Runtime struct {
	vm     *goja.Runtime
	b      inspect.Builtins
	lim    pipe.Limits
	emit   func(pipe.Event)
	clock  clock
	facts  *factStore
	enc    inspect.Encoder // previews (console)
	jsonEn inspect.Encoder // facts and output
	// jsonIn and jsonOut move plain data in and out at wire speed
	// (package jsonvalue), made at their first use: a hello run has neither.
	jsonIn  *jsonvalue.Parser
	jsonOut *jsonvalue.Encoder
	// jsonDeep: the last jsonValue that did not fit was too deep, not too
	// large (its error says which).
	jsonDeep bool
	parity   parity.Patcher // the goja-versus-V8 patches (package parity)

	timers         timerHeap
	timerByID      map[int64]*timer                      // the pending ones
	refTimers      int                                   // pending and not unref'd: the run goes on while there are any
	timeoutProto   *goja.Object                          // Timeout.prototype, made at the first timer (timeout.go)
	timerKey       *goja.Symbol                          // a handle's own key for its timer (timeout.go)
	disposeSymbol  *goja.Symbol                          // Symbol.dispose, when the run has it (polyfill.go)
	tree           *parsedProgram                        // the program parsed, at the first V8 wording that needs it (v8message.go)
	typeErrorProto *goja.Object                          // the intrinsic TypeError.prototype, at the first caught error (v8message.go)
	reworded       map[string]string                     // caught's wordings by goja's message (v8message.go)
	onIdle         func(wait time.Duration, replies int) // OnIdle (loop.go)
	nextTimer      int64
	timerSeq       int64

	timeout time.Duration
	input   json.RawMessage

	stats  pipe.Stats
	events int
	failed bool  // an uncaught error was reported
	stop   error // why the run must end now (a limit); nil while it may go on

	// Host calls: requests go out through call, replies come back on
	// replies; calls holds the pending ones by id.
	host     []string
	globals  []string
	call     func(pipe.HostCall)
	replies  <-chan pipe.HostReply
	calls    map[int64]*pendingCall
	numCalls int

	libs     map[string]goja.Value // libraries evaluated in this run, by name
	registry *Libraries
	client   string // Job.Client: the key of the chunks lib asks registry for

	main      *goja.Promise // the entry module's evaluation
	output    goja.Value
	gotOutput bool
	script    bool                  // script mode: the output is the return value or the output global
	entry     string                // the entry file (script mode shifts its line 1)
	security  map[*goja.Object]bool // errors the runtime threw as SECURITY_ERROR
	poly      polyfills
	loc       *intl.Locale // locale.go: made on first use, for parity.Patcher.InstallLocale
	// installed is what install added; consoleSet whether it defined
	// console (every run has one).
	installed     need
	consoleSet    bool
	deterministic bool
	useHost       bool                  // the program may call a host function (mayCallHost)
	program       *goja.Program         // the run's (Execute), for its summary (usage.go)
	goThrown      map[*goja.Object]bool // errors the runtime's Go code threw (throw)
	rejections    []*goja.Promise       // rejected without a handler, to report after the current task
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

// millis is d in milliseconds, the unit of JavaScript's clocks
// (performance.now, console.time).
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// New creates a runtime for j's Deterministic, Limits, Host and Libraries
// and sets up its global scope. It runs no snippet code, so it may happen
// before the run (the worker prepares the next runtime while it waits).
func New(j Job) *Runtime {
	e := &Runtime{
		vm:        goja.New(),
		lim:       j.Limits.WithDefaults(),
		emit:      func(pipe.Event) {},
		timerByID: map[int64]*timer{},
		calls:     map[int64]*pendingCall{},
		libs:      map[string]goja.Value{},
		registry:  j.Libraries,
		client:    j.Client,
		host:      j.Host,
	}
	e.clock = clock{virtual: j.Deterministic, start: time.Now(), base: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	e.setup(j)
	return e
}

// Execute runs j's program on e, a runtime from New made for the same
// deterministic mode, limits and host functions, to completion, its
// deadline (j.Deadline, or j.Timeout from now), or ctx's end, calling emit for each event on the
// calling goroutine. It returns the result without Stats.Queue and
// Stats.Bundle, which the caller owns. A failing snippet is a result, not
// an error: see Result.Outcome.
func (e *Runtime) Execute(ctx context.Context, j Job, emit func(pipe.Event)) pipe.Result {
	e.emit, e.timeout, e.input, e.call, e.replies = emit, j.Timeout, j.Input, j.Call, j.Replies
	e.globals = j.Globals
	e.script, e.entry = j.Mode == pipe.ModeScript, j.Entry
	e.install(e.needsOf(j), loopGuardsOf(j.Program)) // before any of the program's code
	mode := pipe.ModeModule
	if e.script {
		mode = pipe.ModeScript
	}
	res := pipe.Result{Facts: map[string]json.RawMessage{}}

	deadline := j.Deadline
	if deadline.IsZero() {
		deadline = time.Now().Add(j.Timeout)
	}
	ctx, cancel := context.WithDeadlineCause(ctx, deadline, errTimeout)
	defer cancel()
	stopWatch := context.AfterFunc(ctx, func() { e.vm.Interrupt(e.interruptCause(ctx)) })
	defer stopWatch()

	e.program = j.Program
	e.useHost = e.mayCallHost(summaryOf(j.Program))
	if e.useHost {
		// Host replies are parsed while snippet code runs: find JSON.parse
		// now, while it is surely the intrinsic (intrinsic.Builtins.Init).
		_, _ = e.b.JSONParse(goja.Undefined(), e.vm.ToValue("0"))
	}
	emit(pipe.Event{Kind: pipe.EventStarted, Timeout: j.Timeout, Mode: mode})
	e.clock.start = time.Now()

	err := e.run(ctx, j.Program)
	res.Stats = e.stats
	res.Stats.Run = time.Since(e.clock.start)
	res.End = e.clock.now()
	e.facts.final(err == nil && e.stop == nil)
	res.Facts = e.facts.snapshot()

	switch {
	case err == nil && e.stop == nil:
		res.Outcome = pipe.OutcomeOK
		if e.failed {
			res.Outcome = pipe.OutcomeError
		}
		out, ok, err := e.endOutput()
		switch {
		case err != nil:
			// A getter of the output threw, or the deadline or a cancel
			// stopped it.
			if stop := e.uncaught(err); stop != nil {
				res.Outcome, res.TimedOut = e.endWith(stop)
			}
		case e.stop != nil: // a getter was stopped (jsonValue)
			res.Outcome, res.TimedOut = e.endWith(e.stop)
		case !ok && e.jsonDeep:
			res.Outcome, res.TimedOut = e.endWith(errOutputDepth)
		case !ok:
			res.Outcome, res.TimedOut = e.endWith(errOutputLimit)
		default:
			res.Output = out
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

// mayCallHost reports whether a program with summary s may call a host
// function: the run has some, and the program spells the runtime object's
// host (the "playground" module's), or one of the host globals, or may
// reach anything. Otherwise the run builds neither the host object nor
// the host globals (a program cannot tell: it names none of them).
func (e *Runtime) mayCallHost(s *summary) bool {
	if len(e.host) == 0 {
		return false
	}
	if s.spells(bundle.FieldHost) {
		return true
	}
	for _, g := range e.globals {
		root, _, _ := strings.Cut(g, ".")
		if s.spells(root) {
			return true
		}
	}
	return false
}

// interruptCause is why ctx ended: the run's own deadline, the memory
// watchdog, or a cancel.
func (e *Runtime) interruptCause(ctx context.Context) error {
	switch c := context.Cause(ctx); {
	case errors.Is(c, errTimeout), errors.Is(c, ErrMemoryLimit):
		return c
	}
	return ErrCancelled
}

// endWith reports the error that stopped the run and maps it to an outcome.
func (e *Runtime) endWith(cause error) (pipe.Outcome, bool) {
	var ie *goja.InterruptedError
	if errors.As(cause, &ie) {
		if c, ok := ie.Value().(error); ok {
			cause = c
		}
	}
	switch {
	case errors.Is(cause, errTimeout):
		e.emitAlways(pipe.Event{Kind: pipe.EventError, Error: pipe.TimeoutError(e.timeout)})
		return pipe.OutcomeTimeout, true
	case errors.Is(cause, errFactsLimit):
		e.emitAlways(pipe.Event{Kind: pipe.EventError, Error: pipe.FactsLimitError(e.lim)})
		return pipe.OutcomeOutputLimit, false
	case errors.Is(cause, errFactsDepth):
		e.emitAlways(pipe.Event{Kind: pipe.EventError, Error: pipe.DepthLimitError("a fact", inspect.MaxJSONDepth)})
		return pipe.OutcomeOutputLimit, false
	case errors.Is(cause, errOutputDepth):
		e.emitAlways(pipe.Event{Kind: pipe.EventError, Error: pipe.DepthLimitError("the output", inspect.MaxJSONDepth)})
		return pipe.OutcomeOutputLimit, false
	case errors.Is(cause, errOutputLimit):
		e.emitAlways(pipe.Event{Kind: pipe.EventError, Error: pipe.OutputLimitError(e.lim)})
		return pipe.OutcomeOutputLimit, false
	case errors.Is(cause, ErrMemoryLimit):
		return pipe.OutcomeMemoryLimit, false // the worker reports the error
	case errors.Is(cause, errUncaught):
		return pipe.OutcomeError, false
	case errors.Is(cause, ErrCancelled):
		return pipe.OutcomeCancelled, false
	default:
		e.emitError(&pipe.Error{Kind: pipe.KindInternal, Message: "the runtime failed: " + cause.Error()})
		return pipe.OutcomeError, false
	}
}

// setup builds what every run needs (the builtins the runtime itself
// calls, the encoders, the rejection tracker, the facts store) and, when j
// names its program, the globals and additions that program may reach
// (install). A runtime made without a program (the worker prepares one
// before the next job arrives) gets those in Execute.
func (e *Runtime) setup(j Job) {
	vm := e.vm
	vm.SetMaxCallStackSize(e.lim.MaxCallStack)
	vm.SetParserOptions(parser.WithSourceMapLoader(noSourceMapFiles)) // eval and new Function too
	if j.Deterministic {
		vm.SetRandSource(newRand(0x5eed))
		vm.SetTimeSource(func() time.Time { return e.clock.base.Add(e.clock.elapsed) })
	}
	e.b.Init(vm)
	e.enc = inspect.NewEncoder(vm, &e.b, e.lim.PreviewLimits, (*inspectHost)(e), true)
	e.jsonEn = inspect.NewJSONEncoder(vm, &e.b, (*inspectHost)(e))
	e.parity.Init(vm, &e.b.Builtins, (*parityHost)(e))
	// Before anything compiles a RegExp: the caches it fills for later
	// runs are keyed by the client (issue 22).
	e.parity.SetClient(j.Client)
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
	e.deterministic = j.Deterministic
	e.facts = newFactStore(e)
	if j.Program != nil {
		e.install(e.needsOf(j), loopGuardsOf(j.Program))
	}
}

// needsOf is what j's run may reach: its program's summary (usage.go), or
// everything in script mode (its require is a global any code may find).
func (e *Runtime) needsOf(j Job) need {
	if j.Mode == pipe.ModeScript {
		return needAll
	}
	return usageOf(j.Program)
}

// install adds the globals and Node-compatibility additions of n that are
// not installed yet. It must run before any code that could reach them:
// it reads the built-ins it wraps as goja made them. The order is the one
// a runtime with everything gets, so that the global object's properties
// are listed in the same order however they were installed (only a
// program that needs everything can list them).
func (e *Runtime) install(n need, loops []string) {
	n &= installable &^ e.installed
	if n == 0 && e.consoleSet {
		return
	}
	e.installed |= n
	vm := e.vm
	if n&needRegExp != 0 {
		e.parity.Indices = regexpidx.New(vm).Decorate // the d flag (issue 23)
		e.parity.InstallRegExp()
	}
	if n&needLocale != 0 {
		e.parity.InstallLocale()
	}
	if n&needJSONParse != 0 {
		e.parity.InstallJSONParse()
	}
	if n&needJSONStringify != 0 {
		e.parity.InstallJSONStringify()
	}
	if n&needCaptureStack != 0 {
		e.installCaptureStackTrace()
	}
	if !e.consoleSet || n&needConsole != 0 {
		// Every run has a console, with the methods its program may reach
		// (all of them once it may list them). More methods later (a job
		// that needs more than New's) make a new one in the same place:
		// no code has seen the old one.
		e.consoleSet = true
		must(vm.Set("console", newConsole(e, e.installed&needConsole)))
	}
	timers := []struct {
		bit  need
		name string
		fn   func(goja.FunctionCall) goja.Value
		len  int
	}{
		{needSetTimeout, "setTimeout", nil, 5}, {needSetInterval, "setInterval", nil, 5},
		{needClearTimeout, "clearTimeout", e.clearTimer, 1}, {needClearInterval, "clearInterval", e.clearTimer, 1},
	}
	for _, t := range timers {
		if n&t.bit == 0 {
			continue
		}
		fn := t.fn
		if fn == nil {
			fn = e.setTimer(t.name == "setInterval")
		}
		must(vm.Set(t.name, fn))
	}
	if n&needQueueMicrotask != 0 {
		must(vm.Set("queueMicrotask", e.queueMicrotask()))
	}
	var perf *goja.Object
	if n&needPerformance != 0 {
		perf = vm.NewObject()
		must(perf.Set("now", func(goja.FunctionCall) goja.Value { return vm.ToValue(millis(e.clock.now())) }))
		must(vm.Set("performance", perf))
	}
	if n&needCrypto != 0 {
		var next func() float64
		if e.deterministic {
			next = newRand(0xc0ffee)
		}
		must(vm.Set("crypto", webapi.Crypto(vm, (*webapiHost)(e), next)))
	}
	g := vm.GlobalObject()
	for _, t := range timers {
		if n&t.bit != 0 {
			e.parity.NameNatives(g, t.name)
		}
	}
	if perf != nil {
		e.parity.NameNatives(perf) // console and crypto name theirs (setNative)
	}
	e.installPolyfills(n, loops)
	if n&needFactsGlobal != 0 {
		e.facts.defineGlobal()
	}
}

// installable limits what install adds: only BenchmarkNewHello narrows
// it, to measure what each addition costs a run.
var installable = needAll

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

func (e *Runtime) queueMicrotask() goja.Value {
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
func (e *Runtime) run(ctx context.Context, prg *goja.Program) (err error) {
	defer e.recoverEngineFault(&err) // a Go panic inside a builtin ends the run, not the worker
	fnv, err := e.vm.RunProgram(prg)
	if err != nil {
		return e.uncaught(err)
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return errors.New("bundle did not evaluate to a function")
	}
	rt := e.vm.NewObject()
	must(rt.Set(bundle.FieldFacts, e.facts.obj))
	if len(e.input) == 0 {
		must(rt.Set(bundle.FieldInput, goja.Undefined()))
	} else {
		// Built when the program first reads it (the "playground"
		// module's input): a script that reads only its own mutable copy
		// (scriptGlobals) never pays for the frozen one.
		var input goja.Value
		get := func(goja.FunctionCall) goja.Value {
			if input == nil {
				v, err := e.parseInput()
				if err != nil {
					panic(err)
				}
				input = v
			}
			return input
		}
		must(rt.DefineAccessorProperty(bundle.FieldInput, e.vm.ToValue(get), nil, goja.FLAG_FALSE, goja.FLAG_TRUE))
	}
	if e.script {
		if err := e.scriptGlobals(); err != nil {
			return e.uncaught(err)
		}
	}
	if e.useHost {
		// Not enumerable, as lib: reached by its name only.
		must(rt.DefineDataProperty(bundle.FieldHost, e.hostObject(), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	// Not enumerable: a program reaches lib only by its name (usage.go),
	// not by listing the runtime object's values.
	must(rt.DefineDataProperty(bundle.FieldLib, e.vm.ToValue(e.lib), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	if s := summaryOf(e.program); s != nil && s.catches {
		must(rt.DefineDataProperty(bundle.FieldCaught, e.vm.ToValue(e.caught), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	}
	if s := summaryOf(e.program); s != nil && s.errorReads {
		must(rt.DefineDataProperty(bundle.FieldErrorRead, e.vm.ToValue(e.errorRead), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	}
	if s := summaryOf(e.program); s != nil && (s.builds || s.loops) {
		rewrite.DefineNatives(e.vm, rt)
	}
	must(rt.Set(bundle.FieldDone, func(c goja.FunctionCall) goja.Value {
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

// throw raises a JS error of the named built-in class (TypeError, RangeError) with msg.
func (e *Runtime) throw(class, msg string) {
	ctor := e.vm.Get(class)
	o, err := e.vm.New(ctor, e.vm.ToValue(msg))
	if err != nil {
		panic(e.vm.NewTypeError(msg))
	}
	e.markGoThrown(o)
	panic(o)
}

// markGoThrown records an error the runtime's Go code throws, so that its
// report may read its stack (see reportThrown).
func (e *Runtime) markGoThrown(o *goja.Object) {
	if e.goThrown == nil {
		e.goThrown = map[*goja.Object]bool{}
	}
	e.goThrown[o] = true
}

// afterTask runs after every macrotask (microtasks have drained): it reports
// unhandled rejections, flushes nested fact changes and checks limits.
func (e *Runtime) afterTask() error {
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
	e.facts.taskEnd()
	return e.stop
}

// emitError sends an error event (counted against the event cap).
func (e *Runtime) emitError(er *pipe.Error) {
	e.send(pipe.Event{Kind: pipe.EventError, Error: er})
}

// send emits ev unless the event cap is reached, in which case the run stops
// with output_limit.
func (e *Runtime) send(ev pipe.Event) bool {
	if e.stop != nil {
		return false
	}
	if e.events >= e.lim.MaxEvents {
		e.limit(errOutputLimit)
		return false
	}
	// Every event's content counts against the output cap, as the pool
	// counts it (pipe.OutputBytes): the run ends itself at the cap instead
	// of the pool killing the worker for a fact, call or error past it.
	size := pipe.OutputBytes(&ev)
	if e.stats.OutputBytes+size > e.lim.MaxOutputBytes {
		e.stats.Truncated = true
		e.limit(errOutputLimit)
		return false
	}
	e.stats.OutputBytes += size
	e.events++
	e.emitAlways(ev)
	return true
}

func (e *Runtime) emitAlways(ev pipe.Event) {
	ev.T = e.clock.now()
	e.emit(ev)
}

// limit stops the run for cause at the next instruction.
func (e *Runtime) limit(cause error) {
	if e.stop == nil {
		e.stop = cause
		e.vm.Interrupt(cause)
	}
}
