package js_test

// The in-process test harness (in the style of k6's js/modulestest): it
// bundles a request's files with the real bundler, compiles them, and runs
// them in a real js.Runtime with its event loop, on the test's goroutine,
// with no worker process. Host functions are Go functions of the test,
// answered through the same reply channel the worker uses.

import (
	"context"
	"encoding/json"

	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

func TestMain(m *testing.M) {
	time.Local = js.Zone // as worker.Main sets it
	goleak.VerifyTestMain(m)
}

// Short names for the contract's types, so tests read like the pool's.
type (
	File          = pipe.File
	Event         = pipe.Event
	EventKind     = pipe.EventKind
	Error         = pipe.Error
	Result        = pipe.Result
	Limits        = pipe.Limits
	PreviewLimits = pipe.PreviewLimits
)

const (
	EventStarted = pipe.EventStarted
	EventLog     = pipe.EventLog
	EventFact    = pipe.EventFact
	EventCall    = pipe.EventCall
	EventError   = pipe.EventError

	KindBundle      = pipe.KindBundle
	KindSyntax      = pipe.KindSyntax
	KindRuntime     = pipe.KindRuntime
	KindTimeout     = pipe.KindTimeout
	KindOutputLimit = pipe.KindOutputLimit
	KindSecurity    = pipe.KindSecurity

	OutcomeOK          = pipe.OutcomeOK
	OutcomeError       = pipe.OutcomeError
	OutcomeTimeout     = pipe.OutcomeTimeout
	OutcomeOutputLimit = pipe.OutcomeOutputLimit
	OutcomeCancelled   = pipe.OutcomeCancelled
	OutcomeInvalid     = pipe.OutcomeInvalid
)

// HostFunc answers a host call in a test.
type HostFunc func(args []json.RawMessage) (json.RawMessage, error)

// Config configures a harness. Zero fields mean the defaults of a run.
type Config struct {
	Limits     Limits
	Host       map[string]HostFunc
	Globals    []string // host functions also defined as globals (js.Job.Globals)
	LibraryDir string
}

// Request is one run in a test.
type Request struct {
	Files         []File
	Entry         string
	Input         json.RawMessage
	Timeout       time.Duration // zero: 5s
	Deterministic bool
	Mode          string // "" detects (bundle.Detect), as a worker does
}

type harness struct {
	cfg  Config
	libs *js.Libraries
}

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	set, err := libs.New(cfg.LibraryDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Limits = cfg.Limits.WithDefaults()
	return &harness{cfg: cfg, libs: js.NewLibraries(set)}
}

// recorder collects a run's events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) emit(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) logs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e.Kind == EventLog {
			out = append(out, e.Text)
		}
	}
	return out
}

func (r *recorder) errors() []Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Error
	for _, e := range r.events {
		if e.Kind == EventError {
			out = append(out, *e.Error)
		}
	}
	return out
}

func files(kv ...string) []File {
	var fs []File
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, File{Path: kv[i], Source: kv[i+1]})
	}
	return fs
}

// runOK runs req, fails the test at once unless its outcome is ok, and
// returns its console lines.
func runOK(t testing.TB, h *harness, req Request) []string {
	t.Helper()
	res, rec := run(t, h, req)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.errors())
	}
	return rec.logs()
}

// run bundles, compiles and executes req in a fresh runtime, as a worker
// does, and returns the result with the events it emitted.
func run(t testing.TB, h *harness, req Request) (Result, *recorder) {
	t.Helper()
	return runContext(t.Context(), t, h, req)
}

func runContext(ctx context.Context, t testing.TB, h *harness, req Request) (Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	entry := req.Entry
	if entry == "" {
		entry = req.Files[0].Path
	}
	b := bundle.BundleMode(req.Files, entry, req.Mode, h.libs.Set())
	if len(b.Errors) > 0 {
		for i := range b.Errors {
			rec.emit(Event{Kind: EventError, Error: &b.Errors[i]})
		}
		return Result{Outcome: OutcomeError}, rec
	}
	prg, err := js.Compile(b.Code)
	if err != nil {
		rec.emit(Event{Kind: EventError, Error: &Error{Kind: KindSyntax, Message: err.Error()}})
		return Result{Outcome: OutcomeError}, rec
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	replies := make(chan pipe.HostReply, h.cfg.Limits.MaxHostCalls)
	var host []string
	for name := range h.cfg.Host {
		host = append(host, name)
	}
	call := func(c pipe.HostCall) {
		start := time.Now()
		r := pipe.HostReply{ID: c.ID}
		if res, err := h.cfg.Host[c.Name](c.Args); err != nil {
			r.Error = err.Error()
		} else {
			r.Result = res
		}
		r.Duration = time.Since(start)
		replies <- r
	}
	job := js.Job{Program: prg, Libraries: h.libs, Input: req.Input, Timeout: timeout, Deterministic: req.Deterministic,
		Limits: h.cfg.Limits, Mode: b.Mode, Entry: entry, Host: host, Globals: h.cfg.Globals, Call: call, Replies: replies}
	res := js.New(job).Execute(ctx, job, rec.emit)
	return res, rec
}
