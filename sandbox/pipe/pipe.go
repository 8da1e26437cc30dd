// Package pipe is the contract between the pool (the server process,
// package sandbox) and a worker process (package sandbox/worker): the
// messages they exchange, their framing, how a worker is started, and the
// limits and memory layout a job carries. Both ends import it; it imports
// neither, nor goja or esbuild, so it is what would travel if workers moved
// to other hosts.
//
// The parent and a worker speak newline-delimited JSON over the worker's
// stdin and stdout, one object per line (framing.go):
//
//	worker → parent: {"ready":true}                  once, when it can take jobs
//	parent → worker: {"op":"run","job":{…}}          start a run (Job)
//	worker → parent: {"accepted":true}              it took the job (alive and answering); sent
//	                                                 with the first event when the bundle is cached
//	worker → parent: {"event":{…}}                   each event, as it happens (Event)
//	parent → worker: {"op":"cancel"}                 interrupt the current run
//	worker → parent: {"call":{"id":1,"name":…}}      a host function call (HostCall)
//	parent → worker: {"op":"reply","reply":{…}}      its answer (HostReply)
//	worker → parent: {"idle":{"wait":…,"replies":…}} it waits only on timers (Idle)
//	worker → parent: {"result":{…}}                  the run's end (Result)
//
// Durations cross the pipe as time.Duration (JSON integers of
// nanoseconds): both ends are Go, and milliseconds exist only on the
// client wire (package ws), converted in one place (engine/translate.go).
//
// The parent trusts nothing the worker says about sizes: it re-counts
// events and bytes and caps the length of a line.
package pipe

import (
	"encoding/json"
	"time"
)

// Ops of a Command.
const (
	OpRun    = "run"
	OpCancel = "cancel"
	OpReply  = "reply"
)

// Modes of a Job (and of the protocol's run.mode).
const (
	ModeModule = "module" // ES modules; the entry's default export is the output
	ModeScript = "script" // agent code: input, output and require globals, top-level return
)

// Command is a message to a worker (parent → worker).
type Command struct {
	Op    string     `json:"op"` // OpRun, OpCancel or OpReply
	Job   *Job       `json:"job,omitempty"`
	Reply *HostReply `json:"reply,omitempty"`
}

// Message is a message from a worker (worker → parent): exactly one field
// is set.
type Message struct {
	Ready    bool      `json:"ready,omitempty"`
	Accepted bool      `json:"accepted,omitempty"`
	Event    *Event    `json:"event,omitempty"`
	Call     *HostCall `json:"call,omitempty"`
	Result   *Result   `json:"result,omitempty"`
	Idle     *Idle     `json:"idle,omitempty"`
}

// Valid reports whether exactly one field of m is set.
func (m *Message) Valid() bool {
	n := 0
	for _, set := range []bool{m.Ready, m.Accepted, m.Event != nil, m.Call != nil, m.Result != nil, m.Idle != nil} {
		if set {
			n++
		}
	}
	return n == 1
}

// Job is one run as a worker receives it.
type Job struct {
	Files []File          `json:"files"`
	Entry string          `json:"entry"` // names one of Files
	Input json.RawMessage `json:"input,omitempty"`
	// Timeout is the run's time limit: bundling, compiling and executing
	// all count against it, as one deadline (Deadline; the worker's
	// runJob); events announce Timeout itself.
	Timeout time.Duration `json:"timeout"`
	// Deadline is when the run's time is up, in Unix nanoseconds of the
	// wall clock the parent and its workers share: the parent sets it to
	// Timeout from the instant it sends the job and kills the worker
	// KillGrace after the same instant plus Timeout (sandbox's exec), and
	// the worker's bundling, compiling and executing end by it. 0 (a
	// hand-made job): Timeout from the worker's taking the job.
	Deadline      int64 `json:"deadline,omitempty"`
	Deterministic bool  `json:"deterministic,omitempty"`
	// Mode is ModeModule, ModeScript, or empty: the worker then detects
	// a script (bundle.Detect) and runs everything else as a module.
	Mode   string `json:"mode,omitempty"`
	Limits Limits `json:"limits"`
	// Host names the host functions the snippet may call (host.<name>).
	Host []string `json:"host,omitempty"`
	// Globals names the host functions (or, for a dotted name's first
	// segment, namespaces such as "kv") also defined as globals, so that
	// `await log("hi")` runs as written. The parent has checked that none
	// is in ReservedGlobals.
	Globals []string `json:"globals,omitempty"`
	// Client is an opaque token of the client the run is for (ClientToken
	// of sandbox.Request.Key): never the raw IP or API key. The worker
	// keys what it caches across runs by it (compiled programs, RegExp
	// programs, a prepared runtime) so that no client hits, or times,
	// another client's entries; it is used for nothing else. Empty: one
	// anonymous client.
	Client string `json:"client,omitempty"`
}

// HostCall is a snippet's call of a host function, worker → parent. ID is
// unique within the worker process, so that a late reply to an earlier
// run's call matches nothing.
type HostCall struct {
	ID   int64             `json:"id"`
	Name string            `json:"name"`
	Args []json.RawMessage `json:"args"`
	// Now is the run's clock at the call: the virtual clock (Date.now())
	// in deterministic mode, so that a handler that answers with the time
	// keeps the run reproducible; wall time otherwise.
	Now time.Time `json:"now,omitzero"`
	// Cancel asks the parent to cancel the call ID made earlier (a
	// fetch's AbortSignal): its handler's ctx ends. Name is the call's;
	// Args is empty. It is not a call: it counts against no limit, and
	// the call's reply still comes (the worker drops it).
	Cancel bool `json:"cancel,omitempty"`
}

// HostReply answers a HostCall, parent → worker: Result is the JSON the
// promise resolves to (empty: undefined), or Error the text it rejects
// with. Duration is how long the handler took.
type HostReply struct {
	ID       int64           `json:"id"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	Duration time.Duration   `json:"duration"`
}

// IdleMin is the shortest wait a worker announces with an Idle message: a
// run whose next timer is nearer sends nothing (a message per short wait
// would cost more than parking could save).
const IdleMin = 10 * time.Millisecond

// Idle says the run has nothing to do until its next timer, Wait from
// when the message was sent (at least IdleMin; on the real clock: a
// deterministic run never waits), or until a host reply arrives. Replies
// is how many host replies the run had received by then: the parent
// ignores an Idle that crossed a reply it sent (the worker is then busy
// with that reply, not idle). The worker does not wait for an answer;
// the parent may stop (SIGSTOP) the idle process and continue it before
// the timer is due (package sandbox, park.go).
type Idle struct {
	Wait    time.Duration `json:"wait"`
	Replies int           `json:"replies"`
}
