package api

import (
	"encoding/json"
	"strings"

	"github.com/playground-dev/playground/ws"
)

// Result is one run's whole transcript, as POST /api/v1/run answers it
// without streaming and as the MCP tool returns it. The first group of
// fields is the protocol's (done's fields plus the events collected by
// kind); Success, Error, ErrorType and ExecutionTimeMs are the names agent
// frameworks' "Execute Code" actions map 1:1. Times are in milliseconds.
type Result struct {
	// ID is the run id (given in the request, or generated "http-…").
	ID string `json:"id"`
	// Outcome is done.outcome: ok, error, timeout, memory_limit,
	// output_limit, cancelled, rate_limited, busy or invalid.
	Outcome string `json:"outcome"`
	// Output is the run's output (the entry module's default export, or
	// the script's output): any JSON, null when there is none.
	Output json.RawMessage `json:"output"`
	// Facts is the final facts snapshot.
	Facts map[string]json.RawMessage `json:"facts"`
	Logs  []Log                      `json:"logs"`
	// Errors are the run's error events in order; the first one ended the run.
	Errors []Error `json:"errors"`
	// Calls are the host function calls that finished, in order.
	Calls []Call `json:"calls"`
	// DurationMs is done.durationMs: from the request's arrival to done.
	DurationMs float64 `json:"durationMs"`
	TimedOut   bool    `json:"timedOut"`
	// TimeoutMs is the clamped time limit the run was given (0 when it never started).
	TimeoutMs       float64  `json:"timeoutMs"`
	RetryAfterMs    *float64 `json:"retryAfterMs,omitempty"`
	Stats           ws.Stats `json:"stats"`
	Success         bool     `json:"success"`         // outcome is ok
	Error           *string  `json:"error"`           // the first error's message; null on success
	ErrorType       *string  `json:"errorType"`       // the first error's kind; null on success
	ExecutionTimeMs float64  `json:"executionTimeMs"` // the same as durationMs
	// Tape is done.tape, the run's tape, when the run asked for one
	// ("record": true; docs/protocol.md, "Run tapes").
	Tape json.RawMessage `json:"tape,omitempty"`
}

// Log is one console call.
type Log struct {
	Level string            `json:"level"`
	Text  string            `json:"text"`
	Args  []json.RawMessage `json:"args"` // value previews (docs/protocol.md)
	T     float64           `json:"t"`
}

// Error is one error event. File, Line and Column (1-based) point into the
// user's file when known.
type Error struct {
	Kind    string  `json:"kind"`
	Message string  `json:"message"`
	Stack   string  `json:"stack,omitempty"`
	File    string  `json:"file,omitempty"`
	Line    int     `json:"line,omitempty"`
	Column  int     `json:"column,omitempty"`
	T       float64 `json:"t"`
}

// Call is one finished host function call.
type Call struct {
	Name   string            `json:"name"`
	Ms     float64           `json:"ms"`
	OK     bool              `json:"ok"`
	Error  string            `json:"error,omitempty"`
	Args   []json.RawMessage `json:"args"`
	Result json.RawMessage   `json:"result,omitempty"`
	T      float64           `json:"t"`
}

// collector builds a Result from a run's messages. It is not safe for
// concurrent use (engine.Engine calls send from one goroutine at a time).
type collector struct{ r Result }

func newCollector(id string) *collector {
	return &collector{r: Result{ID: id, Facts: map[string]json.RawMessage{}, Logs: []Log{}, Errors: []Error{}, Calls: []Call{}, Output: json.RawMessage("null")}}
}

// add takes one message of the run (a ws server message value).
func (c *collector) add(v any) {
	switch m := v.(type) {
	case ws.Started:
		c.r.TimeoutMs = m.TimeoutMs
	case ws.Log:
		c.r.Logs = append(c.r.Logs, Log{Level: m.Level, Text: m.Text, Args: m.Args, T: m.T})
	case ws.Call:
		c.r.Calls = append(c.r.Calls, Call{Name: m.Name, Ms: m.Ms, OK: m.OK, Error: m.Error, Args: m.Args, Result: m.Result, T: m.T})
	case ws.Error:
		c.r.Errors = append(c.r.Errors, Error{Kind: m.Kind, Message: m.Message, Stack: m.Stack, File: m.File, Line: m.Line, Column: m.Column, T: m.T})
	case ws.Done:
		c.done(m)
	}
}

func (c *collector) done(d ws.Done) {
	r := &c.r
	r.Outcome, r.DurationMs, r.TimedOut, r.RetryAfterMs, r.Stats = d.Outcome, d.DurationMs, d.TimedOut, d.RetryAfterMs, d.Stats
	if d.Facts != nil {
		r.Facts = d.Facts
	}
	if len(d.Output) > 0 {
		r.Output = d.Output
	}
	r.ExecutionTimeMs = d.DurationMs
	r.Tape = d.Tape
	r.Success = d.Outcome == ws.OutcomeOK
	if r.Success {
		return
	}
	kind, msg := strings.ToUpper(d.Outcome), "the run ended with outcome "+d.Outcome
	if len(r.Errors) > 0 {
		kind, msg = r.Errors[0].Kind, r.Errors[0].Message
	}
	r.Error, r.ErrorType = &msg, &kind
}
