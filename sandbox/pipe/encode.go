package pipe

import (
	"encoding/json"
	"strconv"

	"github.com/playground-dev/playground/jsonwire"
)

// Hand-written encoders of the pipe's messages (issue 12: encoding/json's
// reflection was a few percent of a worker's CPU per run). They write the
// bytes encoding/json writes: the same field order and omissions, strings
// escaped alike (HTML characters, U+2028 and U+2029, invalid UTF-8 as
// U+FFFD), raw JSON values validated and compacted. A value they cannot
// write alike (an invalid raw value, a time outside RFC 3339) makes them
// report false, and the Writer falls back to encoding/json, which then
// reports the error. TestEncodeMatchesEncodingJSON holds them to that.

// appendValue appends the encoding of v when it is a message of the pipe;
// ok is false for anything else, or for a value it cannot write alike.
func appendValue(b []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case Message:
		return appendMessage(b, &x)
	case *Message:
		if x == nil {
			return b, false
		}
		return appendMessage(b, x)
	case Command:
		return appendCommand(b, &x)
	case *Command:
		if x == nil {
			return b, false
		}
		return appendCommand(b, x)
	}
	return b, false
}

// enc appends one JSON object's fields. ok turns false at the first value
// it cannot write as encoding/json does. The rules are jsonwire's (issue
// 24: one codec base for ws, jsonwire and the pipe): its AppendKey puts a
// comma before every key but an object's first; the methods below pair a
// key with a value, and omit a field as `omitempty` does.
type enc struct {
	b  []byte
	ok bool
}

func (e *enc) key(k string) { e.b = jsonwire.AppendKey(e.b, k) }

func (e *enc) str(k, v string) {
	e.key(k)
	e.b = jsonwire.AppendString(e.b, v)
}

func (e *enc) strOmit(k, v string) {
	if v != "" {
		e.str(k, v)
	}
}

func (e *enc) int(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *enc) intOmit(k string, v int64) {
	if v != 0 {
		e.int(k, v)
	}
}

func (e *enc) bool(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *enc) boolOmit(k string, v bool) {
	if v {
		e.bool(k, v)
	}
}

func (e *enc) raw(k string, v json.RawMessage) {
	e.key(k)
	e.rawValue(v)
}

func (e *enc) rawOmit(k string, v json.RawMessage) {
	if len(v) > 0 {
		e.raw(k, v)
	}
}

// rawValue appends v as encoding/json appends a json.RawMessage
// (jsonwire.AppendRaw): nil is null; anything else is validated and
// compacted.
func (e *enc) rawValue(v json.RawMessage) {
	var ok bool
	if e.b, ok = jsonwire.AppendRaw(e.b, v); !ok {
		e.ok = false
	}
}

func (e *enc) raws(k string, v []json.RawMessage) {
	e.key(k)
	var ok bool
	if e.b, ok = jsonwire.AppendRaws(e.b, v); !ok {
		e.ok = false
	}
}

func (e *enc) strs(k string, v []string) {
	e.key(k)
	e.b = jsonwire.AppendStrings(e.b, v)
}

// rawMap appends a map of raw values under key k (jsonwire.AppendRawMap:
// keys sorted, as encoding/json sorts them).
func (e *enc) rawMap(k string, v map[string]json.RawMessage) {
	e.key(k)
	var ok bool
	if e.b, ok = jsonwire.AppendRawMap(e.b, v); !ok {
		e.ok = false
	}
}

// open starts a nested object under key k; close ends it.
func (e *enc) open(k string) {
	e.key(k)
	e.b = append(e.b, '{')
}

func (e *enc) close() { e.b = append(e.b, '}') }

func appendMessage(b []byte, m *Message) ([]byte, bool) {
	e := enc{b: append(b, '{'), ok: true}
	e.boolOmit("ready", m.Ready)
	e.boolOmit("accepted", m.Accepted)
	if m.Event != nil {
		e.open("event")
		e.event(m.Event)
		e.close()
	}
	if c := m.Call; c != nil {
		e.open("call")
		e.int("id", c.ID)
		e.str("name", c.Name)
		e.raws("args", c.Args)
		if !c.Now.IsZero() {
			e.key("now")
			t, err := c.Now.MarshalJSON()
			if err != nil {
				return b, false
			}
			e.b = append(e.b, t...)
		}
		if c.Cancel {
			e.bool("cancel", true)
		}
		e.close()
	}
	if r := m.Result; r != nil {
		e.open("result")
		e.result(r)
		e.close()
	}
	if i := m.Idle; i != nil {
		e.open("idle")
		e.int("wait", int64(i.Wait))
		e.int("replies", int64(i.Replies))
		e.close()
	}
	e.b = append(e.b, '}')
	return e.b, e.ok
}

func (e *enc) event(ev *Event) {
	e.str("kind", string(ev.Kind))
	e.int("t", int64(ev.T))
	e.intOmit("position", int64(ev.Position))
	e.intOmit("timeout", int64(ev.Timeout))
	e.strOmit("mode", ev.Mode)
	e.strOmit("level", ev.Level)
	e.strOmit("text", ev.Text)
	if len(ev.Args) > 0 {
		e.raws("args", ev.Args)
	}
	e.strOmit("key", ev.Key)
	e.rawOmit("value", ev.Value)
	e.boolOmit("deleted", ev.Deleted)
	e.intOmit("callId", ev.CallID)
	e.boolOmit("pending", ev.Pending)
	e.strOmit("name", ev.Name)
	e.intOmit("duration", int64(ev.Duration))
	e.boolOmit("ok", ev.OK)
	e.strOmit("callError", ev.CallError)
	e.rawOmit("result", ev.Result)
	if er := ev.Error; er != nil {
		e.open("error")
		e.str("kind", string(er.Kind))
		e.str("message", er.Message)
		e.strOmit("stack", er.Stack)
		e.strOmit("file", er.File)
		e.intOmit("line", int64(er.Line))
		e.intOmit("column", int64(er.Column))
		e.close()
	}
}

func (e *enc) result(r *Result) {
	e.str("outcome", string(r.Outcome))
	e.bool("timedOut", r.TimedOut)
	e.rawOmit("output", r.Output)
	e.rawMap("facts", r.Facts)
	e.intOmit("retryAfter", int64(r.RetryAfter))
	e.int("end", int64(r.End))
	e.open("stats")
	s := &r.Stats
	e.int("queue", int64(s.Queue))
	e.int("bundle", int64(s.Bundle))
	e.int("run", int64(s.Run))
	e.int("logs", int64(s.Logs))
	e.int("outputBytes", int64(s.OutputBytes))
	e.bool("truncated", s.Truncated)
	e.close()
	e.boolOmit("retire", r.Retire)
}

func appendCommand(b []byte, c *Command) ([]byte, bool) {
	e := enc{b: append(b, '{'), ok: true}
	e.str("op", c.Op)
	if j := c.Job; j != nil {
		e.open("job")
		e.job(j)
		e.close()
	}
	if r := c.Reply; r != nil {
		e.open("reply")
		e.int("id", r.ID)
		e.rawOmit("result", r.Result)
		e.strOmit("error", r.Error)
		e.int("duration", int64(r.Duration))
		e.close()
	}
	e.b = append(e.b, '}')
	return e.b, e.ok
}

func (e *enc) job(j *Job) {
	e.key("files")
	if j.Files == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '[')
		for i := range j.Files {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, `{"path":`...)
			e.b = jsonwire.AppendString(e.b, j.Files[i].Path)
			e.b = append(e.b, `,"source":`...)
			e.b = jsonwire.AppendString(e.b, j.Files[i].Source)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	e.str("entry", j.Entry)
	e.rawOmit("input", j.Input)
	e.int("timeout", int64(j.Timeout))
	e.intOmit("deadline", j.Deadline)
	e.boolOmit("deterministic", j.Deterministic)
	e.strOmit("mode", j.Mode)
	e.open("limits")
	l := &j.Limits
	e.int("maxOutputBytes", int64(l.MaxOutputBytes))
	e.int("maxEvents", int64(l.MaxEvents))
	e.int("maxTimers", int64(l.MaxTimers))
	e.int("maxCallStack", int64(l.MaxCallStack))
	e.int("maxHostCalls", int64(l.MaxHostCalls))
	e.intOmit("maxFactsBytes", int64(l.MaxFactsBytes))
	e.int("previewDepth", int64(l.Depth))
	e.int("previewKeys", int64(l.Keys))
	e.int("previewString", int64(l.String))
	e.close()
	if len(j.Host) > 0 {
		e.strs("host", j.Host)
	}
	if len(j.Globals) > 0 {
		e.strs("globals", j.Globals)
	}
	e.strOmit("client", j.Client)
}
