package sandbox

import (
	"encoding/json"
	"time"
)

// The parent and a worker speak newline-delimited JSON over the worker's
// stdin and stdout. This file is the one home of those types.
//
//	worker → parent: {"ready":true}                 once, when it can take jobs
//	parent → worker: {"op":"run","job":{…}}         start a run
//	worker → parent: {"event":{…}}                  each event, as it happens
//	parent → worker: {"op":"cancel"}                interrupt the current run
//	worker → parent: {"call":{"id":1,"name":…}}     a host function call
//	parent → worker: {"op":"reply","reply":{…}}     its answer
//	worker → parent: {"result":{…}}                 the run's end
//
// The parent trusts nothing the worker says about sizes: it re-counts
// events and bytes and caps the length of a line.

// ipcRequest is a message to a worker.
type ipcRequest struct {
	Op    string     `json:"op"` // "run", "cancel" or "reply"
	Job   *ipcJob    `json:"job,omitempty"`
	Reply *hostReply `json:"reply,omitempty"`
}

// ipcJob is one run as a worker receives it.
type ipcJob struct {
	Files         []File          `json:"files"`
	Entry         string          `json:"entry"`
	Input         json.RawMessage `json:"input,omitempty"`
	TimeoutMs     float64         `json:"timeoutMs"`
	Deterministic bool            `json:"deterministic,omitempty"`
	Limits        Limits          `json:"limits"`
	Host          []string        `json:"host,omitempty"`
	MaxHostCalls  int             `json:"maxHostCalls"`
}

func (j *ipcJob) timeout() time.Duration {
	return time.Duration(j.TimeoutMs * float64(time.Millisecond))
}

// ipcMessage is a message from a worker: exactly one field is set.
type ipcMessage struct {
	Ready  bool      `json:"ready,omitempty"`
	Event  *Event    `json:"event,omitempty"`
	Call   *hostCall `json:"call,omitempty"`
	Result *Result   `json:"result,omitempty"`
}

// Environment variables a worker is started with.
const (
	envWorkerMemory = "PLAYGROUND_WORKER_MEMORY_BYTES" // the heap cap of one run, in bytes
)

// exitMemoryLimit is the exit code of a worker that stopped itself because
// a run exceeded its memory limit (after reporting the result).
const exitMemoryLimit = 3
