// This file holds the messages the server sends to a client (server → client).

package ws

import "encoding/json"

// RunHeader starts every server message that belongs to a run.
type RunHeader struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	// Seq numbers a run's messages 1, 2, 3 … with no gaps.
	Seq uint64 `json:"seq"`
	// T is milliseconds since the run started executing; 0 before that.
	T float64 `json:"t"`
}

// Header returns h: every run message embeds a RunHeader, so each has
// this method, and a value of any of them (or a pointer to one) gives its
// type and seq without encoding or decoding it.
func (h RunHeader) Header() RunHeader { return h }

// Hello is the first message on every socket.
type Hello struct {
	Type     string   `json:"type"`
	Protocol string   `json:"protocol"`
	Session  string   `json:"session"`
	Limits   Limits   `json:"limits"`
	Modules  []string `json:"modules"`
	// Host lists the host functions snippets may call as host.<name>().
	Host []string `json:"host"`
	// HostGlobals lists the names snippets may also call as globals
	// (-host-globals): a host function's name ("sleep": await sleep(10)), or
	// a namespace of dotted ones ("kv": kv.get(…)). Omitted when none.
	HostGlobals []string `json:"hostGlobals,omitempty"`
}

// Limits announces every limit the server enforces. Times are in ms, sizes in bytes.
type Limits struct {
	TimeoutMs       Range `json:"timeoutMs"`
	MemoryBytes     int64 `json:"memoryBytes"`
	MaxFiles        int   `json:"maxFiles"`
	MaxSourceBytes  int   `json:"maxSourceBytes"`
	MaxOutputBytes  int   `json:"maxOutputBytes"`
	MaxEvents       int   `json:"maxEvents"`
	MaxTimers       int   `json:"maxTimers"`
	MaxHostCalls    int   `json:"maxHostCalls"`
	MaxMessageBytes int64 `json:"maxMessageBytes"`
	// MaxInputBytes caps a run's input JSON over the HTTP API, MCP and
	// the CLI, whose requests may be that much larger than maxMessageBytes
	// (a socket's input fits its message). 0: not announced.
	MaxInputBytes int64   `json:"maxInputBytes,omitempty"`
	RunsPerSecond float64 `json:"runsPerSecond"`
	RunBurst      int     `json:"runBurst"`
	PreviewDepth  int     `json:"previewDepth"`
	PreviewKeys   int     `json:"previewKeys"`
	PreviewString int     `json:"previewString"`
	// MaxFactsBytes caps done.facts (keys and JSON values, in bytes).
	MaxFactsBytes int `json:"maxFactsBytes,omitempty"`
	// MaxSocketsPerClient and MaxRunsPerClient cap what one client (an IP,
	// or an API key) holds at once: open sockets, and runs between their
	// run message and their done. 0: no cap.
	MaxSocketsPerClient int `json:"maxSocketsPerClient,omitempty"`
	MaxRunsPerClient    int `json:"maxRunsPerClient,omitempty"`
}

// Range is a default value and the bounds it is clamped into.
type Range struct {
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
}

// Queued says the run waits for a sandbox slot; Position 1 is next.
type Queued struct {
	RunHeader
	Position int `json:"position"`
}

// Started says execution began with the clamped TimeoutMs.
type Started struct {
	RunHeader
	TimeoutMs float64 `json:"timeoutMs"`
	// Mode is the mode the run executes in, "module" or "script" (detected
	// when the run named none).
	Mode string `json:"mode,omitempty"`
	// Watch is the run's watch token: unguessable, scoped to this run; a
	// watcher or a reattaching client presents it (docs/protocol.md,
	// "Watchers and reattach"). Empty when the server offers no watching.
	Watch string `json:"watch,omitempty"`
}

// Log is one console call: Text as a console prints it, Args as previews.
type Log struct {
	RunHeader
	Level string            `json:"level"`
	Text  string            `json:"text"`
	Args  []json.RawMessage `json:"args"`
}

// Fact says a fact changed; Value is null with Deleted when it was removed.
type Fact struct {
	RunHeader
	Key     string          `json:"key"`
	Value   json.RawMessage `json:"value"`
	Deleted bool            `json:"deleted,omitempty"`
}

// Call says a host function call finished after Ms milliseconds. Args
// are the arguments' JSON and Result the value it resolved to (omitted when
// undefined; a result over 16 KiB is shown as {"$t":"more","count":bytes}).
type Call struct {
	RunHeader
	// CallID matches the CallStart that announced this call (1, 2, 3 … per run).
	CallID int64             `json:"callId,omitempty"`
	Name   string            `json:"name"`
	Ms     float64           `json:"ms"`
	OK     bool              `json:"ok"`
	Error  string            `json:"error,omitempty"`
	Args   []json.RawMessage `json:"args"`
	Result json.RawMessage   `json:"result,omitempty"`
}

// CallStart announces a host call as it starts (type "call", Pending
// true): the Call with the same CallID settles it. It has no ms or ok.
type CallStart struct {
	RunHeader
	CallID  int64             `json:"callId"`
	Pending bool              `json:"pending"`
	Name    string            `json:"name"`
	Args    []json.RawMessage `json:"args"`
}

// Error reports a problem; File, Line, Column (1-based) are in the user's file.
type Error struct {
	RunHeader
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

// Done is the last message of every run, sent exactly once.
type Done struct {
	RunHeader
	Outcome      string                     `json:"outcome"`
	DurationMs   float64                    `json:"durationMs"`
	TimedOut     bool                       `json:"timedOut"`
	Facts        map[string]json.RawMessage `json:"facts"`
	Output       json.RawMessage            `json:"output,omitempty"`
	RetryAfterMs *float64                   `json:"retryAfterMs,omitempty"`
	Stats        Stats                      `json:"stats"`
	// Tape is the run's tape when the run asked for one (run.record):
	// docs/protocol.md, "Run tapes".
	Tape json.RawMessage `json:"tape,omitempty"`
}

// Stats says where a run's time and output went.
type Stats struct {
	QueueMs     float64 `json:"queueMs"`
	BundleMs    float64 `json:"bundleMs"`
	RunMs       float64 `json:"runMs"`
	Logs        int     `json:"logs"`
	OutputBytes int     `json:"outputBytes"`
	Truncated   bool    `json:"truncated"`
}

// Pong answers a Ping with its T.
type Pong struct {
	Type string          `json:"type"`
	T    json.RawMessage `json:"t,omitempty"`
}

// ProtocolError answers a message the server cannot understand.
type ProtocolError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	ID      string `json:"id,omitempty"`
}

// WatchError ends a watch (type "watch_error") that did not end with the
// run's done: Reason is one of the WatchReason constants, Message a
// sentence for a human. An unknown id and a wrong or expired token give
// the same answer, WatchNotFound.
type WatchError struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Reasons of a watch_error.
const (
	WatchNotFound        = "not_found"         // no such run, or the token is wrong or expired
	WatchGone            = "gone"              // the messages after the cursor are no longer held
	WatchTooManyWatchers = "too_many_watchers" // the run has as many watchers as the server allows
	WatchDropped         = "dropped"           // the watcher fell behind the run's buffer, or the server closed
	WatchUnavailable     = "unavailable"       // the run's stream on another instance could not be read
)

// Outcomes of a run (done.outcome).
const (
	OutcomeOK          = "ok"
	OutcomeError       = "error"
	OutcomeTimeout     = "timeout"
	OutcomeMemoryLimit = "memory_limit"
	OutcomeOutputLimit = "output_limit"
	OutcomeCancelled   = "cancelled"
	OutcomeRateLimited = "rate_limited"
	OutcomeBusy        = "busy"
	OutcomeInvalid     = "invalid"
)

// Error kinds (error.kind).
const (
	KindBundle         = "BUNDLE_ERROR"
	KindSyntax         = "SYNTAX_ERROR"
	KindRuntime        = "RUNTIME_ERROR"
	KindTimeout        = "TIMEOUT"
	KindMemoryLimit    = "MEMORY_LIMIT"
	KindOutputLimit    = "OUTPUT_LIMIT"
	KindSecurity       = "SECURITY_ERROR"
	KindInvalidRequest = "INVALID_REQUEST" // the run broke a protocol rule
	KindInternal       = "INTERNAL"
)
