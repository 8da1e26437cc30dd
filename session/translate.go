package session

import (
	"encoding/json"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// toRequest translates a wire run into a sandbox request.
func toRequest(m *ws.Run, key, session string) sandbox.Request {
	req := sandbox.Request{Entry: m.Entry, Input: m.Input, Deterministic: m.Deterministic, Mode: m.Mode, Key: key, Session: session}
	req.Files = make([]sandbox.File, len(m.Files))
	for i, f := range m.Files {
		req.Files[i] = sandbox.File{Path: f.Path, Source: f.Source}
	}
	if m.TimeoutMs != nil {
		req.Timeout = time.Duration(min(*m.TimeoutMs, 1e9) * float64(time.Millisecond))
	}
	return req
}

// toWire translates a sandbox event into its wire message, so that no
// internal field reaches the client.
func toWire(id string, seq uint64, ev sandbox.Event) any {
	h := func(typ string) ws.RunHeader { return ws.RunHeader{Type: typ, ID: id, Seq: seq, T: ev.T} }
	switch ev.Kind {
	case sandbox.EventQueued:
		return ws.Queued{RunHeader: h(ws.TypeQueued), Position: ev.Position}
	case sandbox.EventStarted:
		return ws.Started{RunHeader: h(ws.TypeStarted), TimeoutMs: ev.TimeoutMs}
	case sandbox.EventLog:
		args := ev.Args
		if args == nil {
			args = []json.RawMessage{}
		}
		return ws.Log{RunHeader: h(ws.TypeLog), Level: ev.Level, Text: ev.Text, Args: args}
	case sandbox.EventFact:
		v := ev.Value
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		return ws.Fact{RunHeader: h(ws.TypeFact), Key: ev.Key, Value: v, Deleted: ev.Deleted}
	case sandbox.EventCall:
		args := ev.Args
		if args == nil {
			args = []json.RawMessage{}
		}
		return ws.Call{RunHeader: h(ws.TypeCall), Name: ev.Name, Ms: ev.Ms, OK: ev.OK, Error: ev.CallError, Args: args, Result: ev.Result}
	default: // sandbox.EventError, and anything unknown is shown as an error
		e := ev.Error
		if e == nil {
			e = &sandbox.Error{Kind: sandbox.KindInternal, Message: "unknown event " + string(ev.Kind)}
		}
		return ws.Error{RunHeader: h(ws.TypeError), Kind: string(e.Kind), Message: e.Message, Stack: e.Stack, File: e.File, Line: e.Line, Column: e.Column}
	}
}

func doneMessage(id string, seq uint64, res sandbox.Result, d time.Duration) ws.Done {
	facts := res.Facts
	if facts == nil {
		facts = map[string]json.RawMessage{}
	}
	done := ws.Done{
		RunHeader:  ws.RunHeader{Type: ws.TypeDone, ID: id, Seq: seq, T: res.EndT},
		Outcome:    string(res.Outcome),
		DurationMs: float64(d.Microseconds()) / 1000,
		TimedOut:   res.TimedOut,
		Facts:      facts,
		Output:     res.Output,
		Stats: ws.Stats{QueueMs: res.Stats.QueueMs, BundleMs: res.Stats.BundleMs, RunMs: res.Stats.RunMs,
			Logs: res.Stats.Logs, OutputBytes: res.Stats.OutputBytes, Truncated: res.Stats.Truncated},
	}
	if res.Outcome == sandbox.OutcomeBusy {
		ms := float64(res.RetryAfter.Milliseconds())
		done.RetryAfterMs = &ms
	}
	return done
}
