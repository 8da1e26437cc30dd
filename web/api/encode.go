package api

import (
	"encoding/json"
	"strconv"

	"github.com/playground-dev/playground/jsonwire"
)

// marshalResult is json.Marshal(r), byte for byte
// (TestMarshalResultMatchesEncodingJSON), written with jsonwire's
// appenders: encoding/json compacts every raw value again with its own
// scanner, a quarter of the server's CPU for an output of 10,000 rows
// (issue 21). A value jsonwire refuses (a raw value that is not JSON, a
// NaN) falls back to json.Marshal, which reports it.
func marshalResult(r *Result) ([]byte, error) {
	if b, ok := appendResult(make([]byte, 0, 512+len(r.Output)), r); ok {
		return b, nil
	}
	return json.Marshal(r)
}

// appendResult appends r as json.Marshal writes it, or reports false.
func appendResult(b []byte, r *Result) ([]byte, bool) {
	ok := true
	float := func(f float64) {
		var fine bool
		b, fine = jsonwire.AppendFloat(b, f)
		ok = ok && fine
	}
	raw := func(v json.RawMessage) {
		var fine bool
		b, fine = jsonwire.AppendRaw(b, v)
		ok = ok && fine
	}
	raws := func(v []json.RawMessage) {
		var fine bool
		b, fine = jsonwire.AppendRaws(b, v)
		ok = ok && fine
	}
	optString := func(s *string) {
		if s == nil {
			b = append(b, "null"...)
			return
		}
		b = jsonwire.AppendString(b, *s)
	}
	b = append(b, '{')
	b = jsonwire.AppendKey(b, "id")
	b = jsonwire.AppendString(b, r.ID)
	b = jsonwire.AppendKey(b, "outcome")
	b = jsonwire.AppendString(b, r.Outcome)
	b = jsonwire.AppendKey(b, "output")
	raw(r.Output)
	b = jsonwire.AppendKey(b, "facts")
	var fine bool
	b, fine = jsonwire.AppendRawMap(b, r.Facts)
	ok = ok && fine
	b = jsonwire.AppendKey(b, "logs")
	if r.Logs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range r.Logs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = jsonwire.AppendKey(b, "level")
			b = jsonwire.AppendString(b, l.Level)
			b = jsonwire.AppendKey(b, "text")
			b = jsonwire.AppendString(b, l.Text)
			b = jsonwire.AppendKey(b, "args")
			raws(l.Args)
			b = jsonwire.AppendKey(b, "t")
			float(l.T)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = jsonwire.AppendKey(b, "errors")
	if r.Errors == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range r.Errors {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = jsonwire.AppendKey(b, "kind")
			b = jsonwire.AppendString(b, e.Kind)
			b = jsonwire.AppendKey(b, "message")
			b = jsonwire.AppendString(b, e.Message)
			if e.Stack != "" {
				b = jsonwire.AppendKey(b, "stack")
				b = jsonwire.AppendString(b, e.Stack)
			}
			if e.File != "" {
				b = jsonwire.AppendKey(b, "file")
				b = jsonwire.AppendString(b, e.File)
			}
			if e.Line != 0 {
				b = jsonwire.AppendKey(b, "line")
				b = strconv.AppendInt(b, int64(e.Line), 10)
			}
			if e.Column != 0 {
				b = jsonwire.AppendKey(b, "column")
				b = strconv.AppendInt(b, int64(e.Column), 10)
			}
			b = jsonwire.AppendKey(b, "t")
			float(e.T)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = jsonwire.AppendKey(b, "calls")
	if r.Calls == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range r.Calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			b = jsonwire.AppendKey(b, "name")
			b = jsonwire.AppendString(b, c.Name)
			b = jsonwire.AppendKey(b, "ms")
			float(c.Ms)
			b = jsonwire.AppendKey(b, "ok")
			b = strconv.AppendBool(b, c.OK)
			if c.Error != "" {
				b = jsonwire.AppendKey(b, "error")
				b = jsonwire.AppendString(b, c.Error)
			}
			b = jsonwire.AppendKey(b, "args")
			raws(c.Args)
			if len(c.Result) > 0 {
				b = jsonwire.AppendKey(b, "result")
				raw(c.Result)
			}
			b = jsonwire.AppendKey(b, "t")
			float(c.T)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = jsonwire.AppendKey(b, "durationMs")
	float(r.DurationMs)
	b = jsonwire.AppendKey(b, "timedOut")
	b = strconv.AppendBool(b, r.TimedOut)
	b = jsonwire.AppendKey(b, "timeoutMs")
	float(r.TimeoutMs)
	if r.RetryAfterMs != nil {
		b = jsonwire.AppendKey(b, "retryAfterMs")
		float(*r.RetryAfterMs)
	}
	b = jsonwire.AppendKey(b, "stats")
	s := r.Stats
	b = append(b, '{')
	b = jsonwire.AppendKey(b, "queueMs")
	float(s.QueueMs)
	b = jsonwire.AppendKey(b, "bundleMs")
	float(s.BundleMs)
	b = jsonwire.AppendKey(b, "runMs")
	float(s.RunMs)
	b = jsonwire.AppendKey(b, "logs")
	b = strconv.AppendInt(b, int64(s.Logs), 10)
	b = jsonwire.AppendKey(b, "outputBytes")
	b = strconv.AppendInt(b, int64(s.OutputBytes), 10)
	b = jsonwire.AppendKey(b, "truncated")
	b = strconv.AppendBool(b, s.Truncated)
	b = append(b, '}')
	b = jsonwire.AppendKey(b, "success")
	b = strconv.AppendBool(b, r.Success)
	b = jsonwire.AppendKey(b, "error")
	optString(r.Error)
	b = jsonwire.AppendKey(b, "errorType")
	optString(r.ErrorType)
	b = jsonwire.AppendKey(b, "executionTimeMs")
	float(r.ExecutionTimeMs)
	if len(r.Tape) > 0 {
		b = jsonwire.AppendKey(b, "tape")
		raw(r.Tape)
	}
	return append(b, '}'), ok
}
