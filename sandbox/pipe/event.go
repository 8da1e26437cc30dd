package pipe

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

// EventKind names an Event. The values match the protocol's message types;
// the run engine maps them to the wire (engine/translate.go).
type EventKind string

const (
	EventQueued  EventKind = "queued"  // Position is set
	EventStarted EventKind = "started" // Timeout and Mode are set
	EventLog     EventKind = "log"     // Level, Text, Args are set
	EventFact    EventKind = "fact"    // Key, Value, Deleted are set
	EventCall    EventKind = "call"    // CallID, Name and Args; settled (Pending false): Duration, OK, CallError, Result
	EventError   EventKind = "error"   // Error is set
)

// EventKinds lists every EventKind, for tests that check a mapping is total.
var EventKinds = []EventKind{EventQueued, EventStarted, EventLog, EventFact, EventCall, EventError}

// Event is one thing a run did, in order. It is plain data (it crosses the
// worker pipe as one JSON line) and carries no protocol ids: the session
// stamps those.
type Event struct {
	Kind EventKind `json:"kind"`
	// T is the time since execution started on the run's clock (virtual in
	// deterministic mode); 0 before it started.
	T time.Duration `json:"t"`

	Position int           `json:"position,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"` // the clamped time limit, with EventStarted
	// Mode is the mode the run executes in (ModeModule or ModeScript), with
	// EventStarted: the requested one, or the detected one when none was.
	Mode string `json:"mode,omitempty"`

	Level string            `json:"level,omitempty"`
	Text  string            `json:"text,omitempty"`
	Args  []json.RawMessage `json:"args,omitempty"`

	Key     string          `json:"key,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Deleted bool            `json:"deleted,omitempty"`

	// CallID numbers a run's host calls 1, 2, 3 … in the order they
	// started. A call sends two events with its CallID: Pending (it
	// started: Name and Args) and then settled (Duration, OK, CallError,
	// Result, and Args again for clients that read only the second).
	CallID    int64           `json:"callId,omitempty"`
	Pending   bool            `json:"pending,omitempty"`
	Name      string          `json:"name,omitempty"`
	Duration  time.Duration   `json:"duration,omitempty"` // a host call's duration
	OK        bool            `json:"ok,omitempty"`
	CallError string          `json:"callError,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"` // a call's result; Args holds its arguments

	Error *Error `json:"error,omitempty"`
}

// ErrorKind is the engine's error taxonomy. Its values are the protocol's
// error.kind (docs/protocol.md); the run engine maps them to the wire on purpose (engine/translate.go).
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

// ErrorKinds lists every ErrorKind, for tests that check a mapping is total.
var ErrorKinds = []ErrorKind{KindBundle, KindSyntax, KindRuntime, KindTimeout, KindMemoryLimit,
	KindOutputLimit, KindSecurity, KindInvalidRequest, KindInternal}

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

// Outcome is how a run ended, as the engine sees it. The session maps it to
// the protocol's done.outcome, which adds outcomes the engine never
// produces (rate_limited).
type Outcome string

const (
	OutcomeOK          Outcome = "ok"
	OutcomeError       Outcome = "error"
	OutcomeTimeout     Outcome = "timeout"
	OutcomeMemoryLimit Outcome = "memory_limit"
	OutcomeOutputLimit Outcome = "output_limit"
	OutcomeCancelled   Outcome = "cancelled"
	OutcomeBusy        Outcome = "busy"
	OutcomeInvalid     Outcome = "invalid" // the request broke a rule (no entry file, say)
)

// Outcomes lists every Outcome, for tests that check a mapping is total.
var Outcomes = []Outcome{OutcomeOK, OutcomeError, OutcomeTimeout, OutcomeMemoryLimit,
	OutcomeOutputLimit, OutcomeCancelled, OutcomeBusy, OutcomeInvalid}

// Result is what a run produced; every field is for the user. A failing
// snippet is a successful run: its failure is in Outcome and in the error
// events it emitted.
type Result struct {
	Outcome  Outcome                    `json:"outcome"`
	TimedOut bool                       `json:"timedOut"`
	Output   json.RawMessage            `json:"output,omitempty"`
	Facts    map[string]json.RawMessage `json:"facts"`
	// RetryAfter is set with OutcomeBusy.
	RetryAfter time.Duration `json:"retryAfter,omitempty"`
	// End is the run's clock at its end, since execution started: virtual
	// in deterministic mode, so done.t is reproducible too.
	End   time.Duration `json:"end"`
	Stats Stats         `json:"stats"`
	// Retire is set by a worker that exits after this result
	// (ExitAbandoned): the pool retires it rather than hand it another job.
	// It is between the processes only; clients never see it.
	Retire bool `json:"retire,omitempty"`
}

// Stats describes where a run's time and output went.
type Stats struct {
	Queue       time.Duration `json:"queue"`  // waiting for a worker
	Bundle      time.Duration `json:"bundle"` // bundling and compiling
	Run         time.Duration `json:"run"`    // executing
	Logs        int           `json:"logs"`
	OutputBytes int           `json:"outputBytes"`
	Truncated   bool          `json:"truncated"`
}
