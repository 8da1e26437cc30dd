// This file encodes the server messages a run sends (queued, started, log,
// fact, call, error, done) without reflection: they are most of what the
// server writes (issue 12). The bytes are encoding/json's, exactly
// (TestAppendMatchesEncodingJSON): the same field order, omitempty rules,
// number and string forms (HTML-safe escapes, \ufffd for invalid UTF-8,
// U+2028 and U+2029 escaped).

package ws

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Marshal encodes a server message as json.Marshal does, byte for byte.
// The run messages (Queued, Started, Log, Fact, Call, CallStart, Error,
// Done, as values or pointers) are appended without reflection; anything
// else, and a run message holding a value the fast encoder does not take
// (a raw JSON value with whitespace or <, >, &, U+2028, U+2029, which
// json.Marshal rewrites, or an infinite or NaN number, which it refuses),
// goes through json.Marshal. Its errors are json.Marshal's.
func Marshal(v any) ([]byte, error) {
	var e enc
	switch m := v.(type) {
	case Started:
		e.started(&m)
	case *Started:
		e.started(m)
	case Log:
		e.log(&m)
	case *Log:
		e.log(m)
	case Done:
		e.done(&m)
	case *Done:
		e.done(m)
	case Fact:
		e.fact(&m)
	case *Fact:
		e.fact(m)
	case Call:
		e.call(&m)
	case *Call:
		e.call(m)
	case CallStart:
		e.callStart(&m)
	case *CallStart:
		e.callStart(m)
	case Queued:
		e.queued(&m)
	case *Queued:
		e.queued(m)
	case Error:
		e.error(&m)
	case *Error:
		e.error(m)
	default:
		return json.Marshal(v)
	}
	if e.slow {
		return json.Marshal(v)
	}
	return e.b, nil
}

// enc appends one message to b; slow is set when a value must go through
// json.Marshal instead.
type enc struct {
	b    []byte
	slow bool
}

func (e *enc) header(h *RunHeader) {
	if e.b == nil {
		e.b = make([]byte, 0, 256)
	}
	e.b = append(e.b, `{"type":`...)
	e.str(h.Type)
	e.b = append(e.b, `,"id":`...)
	e.str(h.ID)
	e.b = append(e.b, `,"seq":`...)
	e.b = strconv.AppendUint(e.b, h.Seq, 10)
	e.b = append(e.b, `,"t":`...)
	e.float(h.T)
}

func (e *enc) key(k string) { e.b = append(append(append(e.b, ','), k...), ':') }

func (e *enc) str(s string) { e.b = appendString(e.b, s) }

func (e *enc) int(n int64) { e.b = strconv.AppendInt(e.b, n, 10) }

func (e *enc) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

// float appends f as encoding/json does (ES6 number to string: 'f' form
// between 1e-6 and 1e21, else 'e' without a padded exponent).
func (e *enc) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.slow = true
		return
	}
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, fmt, -1, 64)
	if fmt == 'e' {
		n := len(e.b)
		if n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
}

// raw appends a json.RawMessage as json.Marshal would: an empty one is
// null. json.Marshal also validates it, strips insignificant whitespace
// and escapes <, >, &, U+2028 and U+2029; a value that could need any of
// that is left to it (slow).
func (e *enc) raw(r json.RawMessage) {
	if len(r) == 0 {
		e.b = append(e.b, "null"...)
		return
	}
	if !compactSafe(r) || !json.Valid(r) {
		e.slow = true
		return
	}
	e.b = append(e.b, r...)
}

// compactSafe reports whether json.Marshal leaves the valid JSON r as it
// is: no whitespace between tokens, no HTML character, no U+2028 or
// U+2029 (E2 80 A8, E2 80 A9 in UTF-8).
func compactSafe(r []byte) bool {
	inString, escaped := false, false
	for i, c := range r {
		switch {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2:
			if i+2 < len(r) && r[i+1] == 0x80 && (r[i+2] == 0xA8 || r[i+2] == 0xA9) {
				return false
			}
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

func (e *enc) raws(rs []json.RawMessage) {
	if rs == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, r := range rs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.raw(r)
	}
	e.b = append(e.b, ']')
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
	switch {
	case m.Facts == nil:
		e.b = append(e.b, "null"...)
	case len(m.Facts) == 0:
		e.b = append(e.b, "{}"...)
	default:
		keys := make([]string, 0, len(m.Facts))
		for k := range m.Facts {
			keys = append(keys, k)
		}
		slices.Sort(keys) // as encoding/json orders a map's keys
		e.b = append(e.b, '{')
		for i, k := range keys {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.str(k)
			e.b = append(e.b, ':')
			e.raw(m.Facts[k])
		}
		e.b = append(e.b, '}')
	}
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
	e.b = append(e.b, "}}"...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json's
// HTML-safe encoder does.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
