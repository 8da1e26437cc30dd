package sandbox

import (
	"encoding/json"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The engine's public types are the pipe contract's (sandbox/pipe), so that
// what a worker sends is what a caller receives, with no copy in between.
type (
	File      = pipe.File
	Event     = pipe.Event
	EventKind = pipe.EventKind
	Error     = pipe.Error
	ErrorKind = pipe.ErrorKind
	Outcome   = pipe.Outcome
	Result    = pipe.Result
	Stats     = pipe.Stats
	Limits    = pipe.Limits
	// PreviewLimits caps value previews; they are part of Limits.
	PreviewLimits = pipe.PreviewLimits
)

// Event kinds, error kinds and outcomes: see their documentation in sandbox/pipe.
const (
	EventQueued  = pipe.EventQueued
	EventStarted = pipe.EventStarted
	EventLog     = pipe.EventLog
	EventFact    = pipe.EventFact
	EventCall    = pipe.EventCall
	EventError   = pipe.EventError

	KindBundle         = pipe.KindBundle
	KindSyntax         = pipe.KindSyntax
	KindRuntime        = pipe.KindRuntime
	KindTimeout        = pipe.KindTimeout
	KindMemoryLimit    = pipe.KindMemoryLimit
	KindOutputLimit    = pipe.KindOutputLimit
	KindSecurity       = pipe.KindSecurity
	KindInvalidRequest = pipe.KindInvalidRequest
	KindInternal       = pipe.KindInternal

	OutcomeOK          = pipe.OutcomeOK
	OutcomeError       = pipe.OutcomeError
	OutcomeTimeout     = pipe.OutcomeTimeout
	OutcomeMemoryLimit = pipe.OutcomeMemoryLimit
	OutcomeOutputLimit = pipe.OutcomeOutputLimit
	OutcomeCancelled   = pipe.OutcomeCancelled
	OutcomeBusy        = pipe.OutcomeBusy
	OutcomeInvalid     = pipe.OutcomeInvalid
)

// Every value of each enumeration, for callers that map them (the session
// maps them to the wire and tests that the mapping is total).
var (
	EventKinds = pipe.EventKinds
	ErrorKinds = pipe.ErrorKinds
	Outcomes   = pipe.Outcomes
)

// Modes of a Request.
const (
	ModeModule = pipe.ModeModule // ES modules; the entry's default export is the output
	ModeScript = pipe.ModeScript // agent code: input and output globals, require, top-level return
)

// Request is one run.
type Request struct {
	Files []File `json:"files"`
	// Entry is the path of the entry module; it must name one of Files.
	// Empty means DefaultEntry(Files).
	Entry string `json:"entry,omitempty"`
	// Input is the run's input JSON, exposed read-only as `input`. Empty
	// means undefined.
	Input json.RawMessage `json:"input,omitempty"`
	// Timeout bounds the run from the instant the pool hands it to a
	// worker (pipe.Job.Deadline): bundling, compiling and executing (the
	// worker counts each against it), not its wait in the queue. It is
	// clamped into [Config.MinTimeout, Config.MaxTimeout]; zero means
	// Config.DefaultTimeout.
	Timeout time.Duration `json:"timeout"`
	// Deterministic seeds Math.random and gives Date a virtual clock.
	Deterministic bool `json:"deterministic,omitempty"`
	// Mode is ModeModule or ModeScript. Empty detects it in the worker: a
	// single file without import/export that calls require, assigns the
	// output global or returns at top level is a script, anything else a
	// module. The started event says which mode ran (Event.Mode).
	Mode string `json:"mode,omitempty"`
	// Record says the run records a tape (docs/protocol.md, "Run tapes"):
	// host functions see it as HostCall.Recording. Not sent to workers.
	Record bool `json:"-"`
	// HostTape, when set, answers the run's host calls from a tape (a
	// replay: no host function runs) or is told each answer (a recording).
	// Not sent to workers.
	HostTape HostTape `json:"-"`
	// MaxOutputBytes, when positive and below the pool's
	// Config.Limits.MaxOutputBytes, is this run's output cap instead: a
	// transport that must hold a whole done message (a socket's outbox)
	// asks for less than the pool allows.
	MaxOutputBytes int `json:"-"`
	// Key identifies the client for fair queueing (its IP or API key name).
	// Not sent to workers: they get an opaque token of it (pipe.Job.Client)
	// that keys their caches per client.
	Key string `json:"-"`
	// Session identifies the caller's session for host functions that keep
	// state per browser tab. Not sent to workers.
	Session string `json:"-"`
	// ID is the caller's run id, for the server log only. Not sent to workers.
	ID string `json:"-"`

	seq int64 // the pool's number for the run (HostCall.Run), set by Pool.Run
}

// DefaultEntry is the entry module chosen when a request names none, as
// docs/protocol.md defines it: src/main.ts, else main.ts, index.ts, src/index.ts,
// main.js, index.js, else the only file. It returns "" when none applies.
func DefaultEntry(files []File) string {
	has := make(map[string]bool, len(files))
	for _, f := range files {
		has[f.Path] = true
	}
	for _, p := range []string{"src/main.ts", "main.ts", "index.ts", "src/index.ts", "main.js", "index.js"} {
		if has[p] {
			return p
		}
	}
	if len(files) == 1 {
		return files[0].Path
	}
	return ""
}
