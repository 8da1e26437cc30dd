// This file encodes the server messages a run sends (queued, started, log,
// fact, call, error, done) without reflection: they are most of what the
// server writes (issue 12). The bytes are encoding/json's, exactly
// (TestAppendMatchesEncodingJSON): the same field order, omitempty rules,
// number and string forms (HTML-safe escapes, \ufffd for invalid UTF-8,
// U+2028 and U+2029 escaped).

package ws

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/playground-dev/playground/jsonwire"
)

// Marshal encodes a server message as json.Marshal does, byte for byte.
// The run messages (Queued, Started, Log, Fact, Call, CallStart, Error,
// Done, as values or pointers) are appended without reflection; anything
// else, and a run message holding a value the fast encoder does not take
// (an invalid raw JSON value, or an infinite or NaN number, which it
// refuses), goes through json.Marshal. Its errors are json.Marshal's. The
// message is appended to a pooled scratch buffer and returned as an exact-size
// copy, as json.Marshal returns it: one allocation of the message's
// length, however long. Safe for concurrent use.
func Marshal(v any) ([]byte, error) {
	bp := scratch.Get().(*[]byte)
	e := enc{b: (*bp)[:0]}
	var out []byte
	if e.message(v) && !e.slow {
		out = append(make([]byte, 0, len(e.b)), e.b...)
	}
	if cap(e.b) <= maxScratch {
		*bp = e.b[:0]
		scratch.Put(bp)
	}
	if out == nil {
		return json.Marshal(v)
	}
	return out, nil
}

// scratch holds Marshal's buffers; one that grew past maxScratch (a large
// output or tape) is dropped rather than kept.
var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const maxScratch = 64 << 10

// message appends v when it is a run message; false for anything else
// (a nil pointer to one included: Marshal leaves it to json.Marshal).
func (e *enc) message(v any) bool {
	switch m := v.(type) {
	case Started:
		e.started(&m)
	case *Started:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.started(m)
	case Log:
		e.log(&m)
	case *Log:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.log(m)
	case Done:
		e.done(&m)
	case *Done:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.done(m)
	case Fact:
		e.fact(&m)
	case *Fact:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.fact(m)
	case Call:
		e.call(&m)
	case *Call:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.call(m)
	case CallStart:
		e.callStart(&m)
	case *CallStart:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.callStart(m)
	case Queued:
		e.queued(&m)
	case *Queued:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.queued(m)
	case Error:
		e.error(&m)
	case *Error:
		if m == nil {
			return false // json.Marshal writes null
		}
		e.error(m)
	default:
		return false
	}
	return true
}

// enc appends one message to b; slow is set when a value must go through
// json.Marshal instead.
type enc struct {
	b    []byte
	slow bool
}

func (e *enc) header(h *RunHeader) {
	e.b = append(e.b, `{"type":`...)
	e.str(h.Type)
	e.b = append(e.b, `,"id":`...)
	e.str(h.ID)
	e.b = append(e.b, `,"seq":`...)
	e.b = strconv.AppendUint(e.b, h.Seq, 10)
	e.b = append(e.b, `,"t":`...)
	e.float(h.T)
}

// The helpers below are the message bodies' names for jsonwire's
// encoding primitives, which hold the rules (issue 24: one codec base for
// ws, jsonwire and the pipe).

func (e *enc) key(k string) { e.b = append(append(append(e.b, ','), k...), ':') }

func (e *enc) str(s string) { e.b = jsonwire.AppendString(e.b, s) }

func (e *enc) int(n int64) { e.b = strconv.AppendInt(e.b, n, 10) }

func (e *enc) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

// float appends f as encoding/json does (jsonwire.AppendFloat); an
// infinite or NaN f is left to json.Marshal, which reports the error.
func (e *enc) float(f float64) {
	var ok bool
	if e.b, ok = jsonwire.AppendFloat(e.b, f); !ok {
		e.slow = true
	}
}

// raw appends a json.RawMessage as json.Marshal would
// (jsonwire.AppendRaw): nil is null, any other compacted with <, >, &,
// U+2028 and U+2029 escaped; an invalid one (an empty non-nil one
// included) is left to json.Marshal, which reports the error.
func (e *enc) raw(r json.RawMessage) {
	var ok bool
	if e.b, ok = jsonwire.AppendRaw(e.b, r); !ok {
		e.slow = true
	}
}

func (e *enc) raws(rs []json.RawMessage) {
	var ok bool
	if e.b, ok = jsonwire.AppendRaws(e.b, rs); !ok {
		e.slow = true
	}
}

// rawMap appends a map of raw values as json.Marshal would
// (jsonwire.AppendRawMap: keys sorted).
func (e *enc) rawMap(m map[string]json.RawMessage) {
	var ok bool
	if e.b, ok = jsonwire.AppendRawMap(e.b, m); !ok {
		e.slow = true
	}
}

func (e *enc) queued(m *Queued) {
	e.header(&m.RunHeader)
	e.key(`"position"`)
	e.int(int64(m.Position))
	e.b = append(e.b, '}')
}

func (e *enc) started(m *Started) {
	e.header(&m.RunHeader)
	e.key(`"timeoutMs"`)
	e.float(m.TimeoutMs)
	if m.Mode != "" {
		e.key(`"mode"`)
		e.str(m.Mode)
	}
	if m.Watch != "" {
		e.key(`"watch"`)
		e.str(m.Watch)
	}
	e.b = append(e.b, '}')
}

func (e *enc) log(m *Log) {
	e.header(&m.RunHeader)
	e.key(`"level"`)
	e.str(m.Level)
	e.key(`"text"`)
	e.str(m.Text)
	e.key(`"args"`)
	e.raws(m.Args)
	e.b = append(e.b, '}')
}

func (e *enc) fact(m *Fact) {
	e.header(&m.RunHeader)
	e.key(`"key"`)
	e.str(m.Key)
	e.key(`"value"`)
	e.raw(m.Value)
	if m.Deleted {
		e.key(`"deleted"`)
		e.bool(true)
	}
	e.b = append(e.b, '}')
}

func (e *enc) call(m *Call) {
	e.header(&m.RunHeader)
	if m.CallID != 0 {
		e.key(`"callId"`)
		e.int(m.CallID)
	}
	e.key(`"name"`)
	e.str(m.Name)
	e.key(`"ms"`)
	e.float(m.Ms)
	e.key(`"ok"`)
	e.bool(m.OK)
	if m.Error != "" {
		e.key(`"error"`)
		e.str(m.Error)
	}
	e.key(`"args"`)
	e.raws(m.Args)
	if len(m.Result) > 0 {
		e.key(`"result"`)
		e.raw(m.Result)
	}
	e.b = append(e.b, '}')
}

func (e *enc) callStart(m *CallStart) {
	e.header(&m.RunHeader)
	e.key(`"callId"`)
	e.int(m.CallID)
	e.key(`"pending"`)
	e.bool(m.Pending)
	e.key(`"name"`)
	e.str(m.Name)
	e.key(`"args"`)
	e.raws(m.Args)
	e.b = append(e.b, '}')
}

func (e *enc) error(m *Error) {
	e.header(&m.RunHeader)
	e.key(`"kind"`)
	e.str(m.Kind)
	e.key(`"message"`)
	e.str(m.Message)
	if m.Stack != "" {
		e.key(`"stack"`)
		e.str(m.Stack)
	}
	if m.File != "" {
		e.key(`"file"`)
		e.str(m.File)
	}
	if m.Line != 0 {
		e.key(`"line"`)
		e.int(int64(m.Line))
	}
	if m.Column != 0 {
		e.key(`"column"`)
		e.int(int64(m.Column))
	}
	e.b = append(e.b, '}')
}

func (e *enc) done(m *Done) {
	e.header(&m.RunHeader)
	e.key(`"outcome"`)
	e.str(m.Outcome)
	e.key(`"durationMs"`)
	e.float(m.DurationMs)
	e.key(`"timedOut"`)
	e.bool(m.TimedOut)
	e.key(`"facts"`)
	e.rawMap(m.Facts)
	if len(m.Output) > 0 {
		e.key(`"output"`)
		e.raw(m.Output)
	}
	if m.RetryAfterMs != nil {
		e.key(`"retryAfterMs"`)
		e.float(*m.RetryAfterMs)
	}
	e.key(`"stats"`)
	s := &m.Stats
	e.b = append(e.b, `{"queueMs":`...)
	e.float(s.QueueMs)
	e.key(`"bundleMs"`)
	e.float(s.BundleMs)
	e.key(`"runMs"`)
	e.float(s.RunMs)
	e.key(`"logs"`)
	e.int(int64(s.Logs))
	e.key(`"outputBytes"`)
	e.int(int64(s.OutputBytes))
	e.key(`"truncated"`)
	e.bool(s.Truncated)
	e.b = append(e.b, '}')
	if len(m.Tape) > 0 {
		e.key(`"tape"`)
		e.raw(m.Tape)
	}
	e.b = append(e.b, '}')
}
