package sandbox

import (
	"encoding/json"
	"time"
)

// File is one source file of a snippet. Path is relative and '/'-separated
// (the protocol's path rules are checked by the caller); Source is its text.
type File struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Request is one run. The zero Timeout means Config.DefaultTimeout.
type Request struct {
	Files []File `json:"files"`
	// Entry is the path of the entry module; it must name one of Files.
	// Empty means DefaultEntry(Files).
	Entry string `json:"entry,omitempty"`
	// Input is the run's input JSON, exposed read-only as `input`. Empty means undefined.
	Input json.RawMessage `json:"input,omitempty"`
	// Timeout bounds execution (bundling excluded). It is clamped into
	// [Config.MinTimeout, Config.MaxTimeout].
	Timeout time.Duration `json:"timeout"`
	// Deterministic seeds Math.random and gives Date a virtual clock.
	Deterministic bool `json:"deterministic,omitempty"`
	// Mode is "module" (the default when empty) or "script".
	Mode string `json:"mode,omitempty"`
	// Key identifies the client for fair queueing (its IP). Not sent to workers.
	Key string `json:"-"`
	// Session identifies the caller's session for host functions that keep
	// state per browser tab. Not sent to workers.
	Session string `json:"-"`
}

// DefaultEntry is the entry module chosen when a request names none, as
// PROTOCOL.md defines it: src/main.ts, else main.ts, index.ts, src/index.ts,
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

// EventKind names an Event. The values match the protocol's message types.
type EventKind string

const (
	EventQueued  EventKind = "queued"  // Position is set
	EventStarted EventKind = "started" // TimeoutMs is set
	EventLog     EventKind = "log"     // Level, Text, Args are set
	EventFact    EventKind = "fact"    // Key, Value, Deleted are set
	EventCall    EventKind = "call"    // Name, Ms, OK, CallError, Args, Result are set
	EventError   EventKind = "error"   // Error is set
)

// Event is one thing a run did, in order. It is plain data (it crosses the
// worker pipe as one JSON line) and carries no protocol ids: the session
// stamps those.
type Event struct {
	Kind EventKind `json:"kind"`
	// T is milliseconds since execution started (0 before it started).
	T float64 `json:"t"`

	Position  int     `json:"position,omitempty"`
	TimeoutMs float64 `json:"timeoutMs,omitempty"`

	Level string            `json:"level,omitempty"`
	Text  string            `json:"text,omitempty"`
	Args  []json.RawMessage `json:"args,omitempty"`

	Key     string          `json:"key,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Deleted bool            `json:"deleted,omitempty"`

	Name      string          `json:"name,omitempty"`
	Ms        float64         `json:"ms,omitempty"`
	OK        bool            `json:"ok,omitempty"`
	CallError string          `json:"callError,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"` // a call's result; Args holds its arguments

	Error *Error `json:"error,omitempty"`
}

// ErrorKind is the protocol's error taxonomy (PROTOCOL.md, error.kind).
type ErrorKind string

const (
	KindBundle         ErrorKind = "BUNDLE_ERROR"
	KindSyntax         ErrorKind = "SYNTAX_ERROR"
	KindRuntime        ErrorKind = "RUNTIME_ERROR"
	KindTimeout        ErrorKind = "TIMEOUT"
	KindMemoryLimit    ErrorKind = "MEMORY_LIMIT"
	KindOutputLimit    ErrorKind = "OUTPUT_LIMIT"
	KindSecurity       ErrorKind = "SECURITY_ERROR"
	KindInvalidRequest ErrorKind = "INVALID_REQUEST"
	KindInternal       ErrorKind = "INTERNAL"
)

// Error is a problem a run reports to its user. File, Line and Column
// (1-based; Column counts UTF-16 code units, as editors do) point into the
// user's original file when known.
type Error struct {
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
	Stack   string    `json:"stack,omitempty"`
	File    string    `json:"file,omitempty"`
	Line    int       `json:"line,omitempty"`
	Column  int       `json:"column,omitempty"`
}

// Outcome is how a run ended (PROTOCOL.md, done.outcome).
type Outcome string

const (
	OutcomeOK          Outcome = "ok"
	OutcomeError       Outcome = "error"
	OutcomeTimeout     Outcome = "timeout"
	OutcomeMemoryLimit Outcome = "memory_limit"
	OutcomeOutputLimit Outcome = "output_limit"
	OutcomeCancelled   Outcome = "cancelled"
	OutcomeBusy        Outcome = "busy"
	OutcomeInvalid     Outcome = "invalid" // the request broke a protocol rule (no entry file, say)
)

// Result is what a run produced; every field is for the user. A failing
// snippet is a successful Run: its failure is in Outcome and in the error
// events it emitted.
type Result struct {
	Outcome  Outcome                    `json:"outcome"`
	TimedOut bool                       `json:"timedOut"`
	Output   json.RawMessage            `json:"output,omitempty"`
	Facts    map[string]json.RawMessage `json:"facts"`
	// RetryAfter is set with OutcomeBusy.
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	// TimeoutMs is the clamped timeout the run was given.
	TimeoutMs float64 `json:"timeoutMs"`
	// EndT is the run's clock at its end, in ms since execution started:
	// virtual in deterministic mode, so done.t is reproducible too.
	EndT  float64 `json:"endT"`
	Stats Stats   `json:"stats"`
}

// Stats describes where a run's time and output went. Durations are in ms.
type Stats struct {
	QueueMs     float64 `json:"queueMs"`
	BundleMs    float64 `json:"bundleMs"`
	RunMs       float64 `json:"runMs"`
	Logs        int     `json:"logs"`
	OutputBytes int     `json:"outputBytes"`
	Truncated   bool    `json:"truncated"`
}
