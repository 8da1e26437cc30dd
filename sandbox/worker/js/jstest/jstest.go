// Package jstest is the in-process test harness of the runtime and its
// modules (in the style of k6's js/modulestest): it bundles a request's
// files with the real bundler, compiles them, and runs them in a real
// js.Runtime with its event loop, on the test's goroutine, with no worker
// process. Host functions are Go functions of the test, answered through
// the same reply channel the worker uses.
//
// It is for tests only: the tests of package js and of its modules
// (inspect, parity, webapi), which run snippets end to end, use it.
package jstest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// Short names for the contract's types, so tests read like the pool's.
type (
	File   = pipe.File
	Event  = pipe.Event
	Error  = pipe.Error
	Result = pipe.Result
	Limits = pipe.Limits
)

// HostFunc answers a host call in a test.
type HostFunc func(args []json.RawMessage) (json.RawMessage, error)

// Config configures a harness. Zero fields mean the defaults of a run.
type Config struct {
	Limits     Limits
	Host       map[string]HostFunc
	Globals    []string // host functions also defined as globals (js.Job.Globals)
	LibraryDir string
	// Precompile compiles the small libraries first, as a worker does
	// before it is ready (js.Libraries.Precompile): a run then reads the
	// names it imports from the whole library instead of a chunk.
	Precompile bool
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

// Harness runs requests in fresh runtimes, sharing one library set.
type Harness struct {
	cfg  Config
	libs *js.Libraries
}

// New returns a harness for cfg.
func New(t testing.TB, cfg Config) *Harness {
	t.Helper()
	set, err := libs.New(cfg.LibraryDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Limits = cfg.Limits.WithDefaults()
	l := js.NewLibraries(set)
	if cfg.Precompile {
		l.Precompile()
	}
	return &Harness{cfg: cfg, libs: l}
}

// Recorder collects a run's events.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *Recorder) emit(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

// Logs are the text of the run's console lines.
func (r *Recorder) Logs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e.Kind == pipe.EventLog {
			out = append(out, e.Text)
		}
	}
	return out
}

// Errors are the run's error events.
func (r *Recorder) Errors() []Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Error
	for _, e := range r.events {
		if e.Kind == pipe.EventError {
			out = append(out, *e.Error)
		}
	}
	return out
}

// Files makes files from path, source pairs.
func Files(kv ...string) []File {
	var fs []File
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, File{Path: kv[i], Source: kv[i+1]})
	}
	return fs
}

// RunOK runs req, fails the test at once unless its outcome is ok, and
// returns its console lines.
func (h *Harness) RunOK(t testing.TB, req Request) []string {
	t.Helper()
	res, rec := h.Run(t, req)
	if res.Outcome != pipe.OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	return rec.Logs()
}

// Run bundles, compiles and executes req in a fresh runtime, as a worker
// does, and returns the result with the events it emitted.
func (h *Harness) Run(t testing.TB, req Request) (Result, *Recorder) {
	t.Helper()
	return h.RunContext(t.Context(), t, req)
}

// RunContext is Run within ctx.
func (h *Harness) RunContext(ctx context.Context, t testing.TB, req Request) (Result, *Recorder) {
	t.Helper()
	rec := &Recorder{}
	entry := req.Entry
	if entry == "" {
		entry = req.Files[0].Path
	}
	b := bundle.BundleMode(req.Files, entry, req.Mode, h.libs.Set())
	if len(b.Errors) > 0 {
		for i := range b.Errors {
			rec.emit(Event{Kind: pipe.EventError, Error: &b.Errors[i]})
		}
		return Result{Outcome: pipe.OutcomeError}, rec
	}
	prg, err := js.Compile(b.Code)
	if err != nil {
		rec.emit(Event{Kind: pipe.EventError, Error: &Error{Kind: pipe.KindSyntax, Message: err.Error()}})
		return Result{Outcome: pipe.OutcomeError}, rec
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
		if c.Cancel {
			return // the handlers here answer at once: nothing to cancel
		}
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

// Events are a copy of the events recorded so far.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Main runs a test binary of the runtime or a module: time.Local is
// js.Zone, as worker.Main sets it, and no goroutine may outlive the tests.
func Main(m *testing.M) {
	time.Local = js.Zone
	goleak.VerifyTestMain(m)
}

// Case is a snippet and the console lines it must print.
type Case struct {
	Name, Src string
	Want      []string
	Outcome   string // "" means ok
}

// RunCases runs each case as a subtest in a fresh runtime of one harness.
func RunCases(t *testing.T, cases []Case) {
	t.Helper()
	h := New(t, Config{})
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res, rec := h.Run(t, Request{Files: Files("main.js", c.Src), Timeout: 10 * time.Second})
			want := c.Outcome
			if want == "" {
				want = string(pipe.OutcomeOK)
			}
			if string(res.Outcome) != want {
				t.Fatalf("outcome %s (errors %+v); want %s", res.Outcome, rec.Errors(), want)
			}
			if got := rec.Logs(); strings.Join(got, "\n") != strings.Join(c.Want, "\n") {
				t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.Want, "\n"))
			}
		})
	}
}

// CheckLogs runs code as main.js, requires the run to end ok, and compares
// its console lines with want.
func CheckLogs(t *testing.T, code string, want ...string) {
	t.Helper()
	got := New(t, Config{}).RunOK(t, Request{Files: Files("main.js", code)})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
