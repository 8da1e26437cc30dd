package js_test

// The in-process test harness is package jstest's (in the style of k6's
// js/modulestest), shared with the modules' tests.

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js"
	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
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

// The harness is package jstest's, under the names these tests use.
type (
	HostFunc = jstest.HostFunc
	Config   = jstest.Config
	Request  = jstest.Request
	harness  = jstest.Harness
	recorder = jstest.Recorder
)

func newHarness(t testing.TB, cfg Config) *harness { return jstest.New(t, cfg) }

func files(kv ...string) []File { return jstest.Files(kv...) }

// runOK runs req, fails the test at once unless its outcome is ok, and
// returns its console lines.
func runOK(t testing.TB, h *harness, req Request) []string { return h.RunOK(t, req) }

// run bundles, compiles and executes req in a fresh runtime, as a worker
// does, and returns the result with the events it emitted.
func run(t testing.TB, h *harness, req Request) (Result, *recorder) { return h.Run(t, req) }
