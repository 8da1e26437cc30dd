package engine

import (
	"encoding/json"
	"time"

	"github.com/playground-dev/playground/sandbox"
	"github.com/playground-dev/playground/ws"
)

// This file is the one place where the engine's values become the wire's:
// sandbox requests from ws runs, ws messages from sandbox events and
// results, hello.limits from the pool's effective limits, milliseconds from
// durations, and the wire's names for outcomes and error kinds.

// ms converts d to the wire's milliseconds (a float, to the microsecond).
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// toRequest translates a wire run into a sandbox request.
func toRequest(m *ws.Run, key, session string) sandbox.Request {
	req := sandbox.Request{Entry: m.Entry, Input: m.Input, Deterministic: m.Deterministic, Record: m.Record, Mode: m.Mode, Key: key, Session: session, ID: m.ID}
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
	h := func(typ string) ws.RunHeader { return ws.RunHeader{Type: typ, ID: id, Seq: seq, T: ms(ev.T)} }
	switch ev.Kind {
	case sandbox.EventQueued:
		return ws.Queued{RunHeader: h(ws.TypeQueued), Position: ev.Position}
	case sandbox.EventStarted:
		return ws.Started{RunHeader: h(ws.TypeStarted), TimeoutMs: ms(ev.Timeout), Mode: ev.Mode}
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
		if ev.Pending {
			return ws.CallStart{RunHeader: h(ws.TypeCall), CallID: ev.CallID, Pending: true, Name: ev.Name, Args: args}
		}
		return ws.Call{RunHeader: h(ws.TypeCall), CallID: ev.CallID, Name: ev.Name, Ms: ms(ev.Duration), OK: ev.OK, Error: ev.CallError, Args: args, Result: ev.Result}
	default: // sandbox.EventError, and anything unknown is shown as an error
		e := ev.Error
		if e == nil {
			e = &sandbox.Error{Kind: sandbox.KindInternal, Message: "unknown event " + string(ev.Kind)}
		}
		return ws.Error{RunHeader: h(ws.TypeError), Kind: wireKind(e.Kind), Message: e.Message, Stack: e.Stack, File: e.File, Line: e.Line, Column: e.Column}
	}
}

func doneMessage(id string, seq uint64, res sandbox.Result, d time.Duration) ws.Done {
	facts := res.Facts
	if facts == nil {
		facts = map[string]json.RawMessage{}
	}
	done := ws.Done{
		RunHeader:  ws.RunHeader{Type: ws.TypeDone, ID: id, Seq: seq, T: ms(res.End)},
		Outcome:    wireOutcome(res.Outcome),
		DurationMs: ms(d),
		TimedOut:   res.TimedOut,
		Facts:      facts,
		Output:     res.Output,
		Stats: ws.Stats{QueueMs: ms(res.Stats.Queue), BundleMs: ms(res.Stats.Bundle), RunMs: ms(res.Stats.Run),
			Logs: res.Stats.Logs, OutputBytes: res.Stats.OutputBytes, Truncated: res.Stats.Truncated},
	}
	if res.Outcome == sandbox.OutcomeBusy {
		retry := ms(res.RetryAfter)
		done.RetryAfterMs = &retry
	}
	return done
}

// wireOutcome names an engine outcome on the wire (done.outcome). Every
// engine outcome has its own wire value (TestEveryEngineValueMaps); an
// unknown one, which only a newer engine could send, is an error.
func wireOutcome(o sandbox.Outcome) string {
	switch o {
	case sandbox.OutcomeOK:
		return ws.OutcomeOK
	case sandbox.OutcomeError:
		return ws.OutcomeError
	case sandbox.OutcomeTimeout:
		return ws.OutcomeTimeout
	case sandbox.OutcomeMemoryLimit:
		return ws.OutcomeMemoryLimit
	case sandbox.OutcomeOutputLimit:
		return ws.OutcomeOutputLimit
	case sandbox.OutcomeCancelled:
		return ws.OutcomeCancelled
	case sandbox.OutcomeBusy:
		return ws.OutcomeBusy
	case sandbox.OutcomeInvalid:
		return ws.OutcomeInvalid
	}
	return ws.OutcomeError
}

// wireKind names an engine error kind on the wire (error.kind). Every
// engine kind has its own wire value (TestEveryEngineValueMaps); an
// unknown one is INTERNAL.
func wireKind(k sandbox.ErrorKind) string {
	switch k {
	case sandbox.KindBundle:
		return ws.KindBundle
	case sandbox.KindSyntax:
		return ws.KindSyntax
	case sandbox.KindRuntime:
		return ws.KindRuntime
	case sandbox.KindTimeout:
		return ws.KindTimeout
	case sandbox.KindMemoryLimit:
		return ws.KindMemoryLimit
	case sandbox.KindOutputLimit:
		return ws.KindOutputLimit
	case sandbox.KindSecurity:
		return ws.KindSecurity
	case sandbox.KindInvalidRequest:
		return ws.KindInvalidRequest
	case sandbox.KindInternal:
		return ws.KindInternal
	}
	return ws.KindInternal
}

// ClientLimits are the per-client budgets a server announces beside the
// pool's limits. Zero caps are not announced (no cap).
type ClientLimits struct {
	PerSecond float64 // runs per second (token bucket refill)
	Burst     int     // token bucket size
	Sockets   int     // open sockets at once
	Runs      int     // active runs at once (queued or executing)
}

// MaxMessageBytes is the WebSocket read limit for a request of at most
// maxSourceBytes of source: JSON escaping can grow source up to 6×
// (\u00XX for a control byte), but the source is checked after decoding, so
// 4× plus room for the other fields keeps every honest message readable.
func MaxMessageBytes(maxSourceBytes int) int64 { return 4*int64(maxSourceBytes) + 64<<10 }

// HelloLimits is hello.limits: the pool's effective limits (Pool.Announce)
// and the rate limiter's, in the wire's units.
func HelloLimits(a sandbox.Announced, r ClientLimits) ws.Limits {
	return ws.Limits{
		TimeoutMs:       ws.Range{Default: ms(a.DefaultTimeout), Min: ms(a.MinTimeout), Max: ms(a.MaxTimeout)},
		MemoryBytes:     a.MemoryBytes,
		MaxFiles:        a.MaxFiles,
		MaxSourceBytes:  a.MaxSourceBytes,
		MaxOutputBytes:  a.Limits.MaxOutputBytes,
		MaxEvents:       a.Limits.MaxEvents,
		MaxTimers:       a.Limits.MaxTimers,
		MaxHostCalls:    a.Limits.MaxHostCalls,
		MaxMessageBytes: MaxMessageBytes(a.MaxSourceBytes),
		MaxInputBytes:   int64(a.MaxInputBytes),
		RunsPerSecond:   r.PerSecond,
		RunBurst:        r.Burst,
		PreviewDepth:    a.Limits.Depth,
		PreviewKeys:     a.Limits.Keys,
		PreviewString:   a.Limits.String,
		MaxFactsBytes:   a.Limits.MaxFactsBytes,

		MaxSocketsPerClient: r.Sockets,
		MaxRunsPerClient:    r.Runs,
	}
}
