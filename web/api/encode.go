package api

import (
	"encoding/json"
	"strconv"

	"github.com/playground-dev/playground/jsonwire"
)

// marshalResult encodes r as json.Marshal does, byte for byte, without
// reflection: the answer of a run can carry megabytes of output and facts,
// which json.Marshal checks at about 250 MB/s and jsonwire at over 1 GB/s
// (issue: data across the boundary at ≥ 100 MB/s each way). A value the
// fast path does not take (an invalid raw value, an infinite or NaN
// number) goes through json.Marshal, whose bytes and errors are returned.
// TestMarshalResultMatchesEncodingJSON holds it to that.
func marshalResult(r *Result) ([]byte, error) {
	if b, ok := appendResult(nil, r); ok {
		return b, nil
	}
	return json.Marshal(r)
}

// appendResult appends r's encoding; ok is false at the first value it
// cannot write as json.Marshal does.
func appendResult(b []byte, r *Result) (_ []byte, ok bool) {
	e := enc{b: append(b, `{"id":`...), ok: true}
	e.b = jsonwire.AppendString(e.b, r.ID)
	e.b = append(e.b, `,"outcome":`...)
	e.b = jsonwire.AppendString(e.b, r.Outcome)
	e.b = append(e.b, `,"output":`...)
	e.raw(r.Output)
	e.b = append(e.b, `,"facts":`...)
	e.b, ok = jsonwire.AppendRawMap(e.b, r.Facts)
	e.ok = e.ok && ok
	e.b = append(e.b, `,"logs":`...)
	appendList(&e, r.Logs, (*enc).log)
	e.b = append(e.b, `,"errors":`...)
	appendList(&e, r.Errors, (*enc).error)
	e.b = append(e.b, `,"calls":`...)
	appendList(&e, r.Calls, (*enc).call)
	e.b = append(e.b, `,"durationMs":`...)
	e.float(r.DurationMs)
	e.b = append(e.b, `,"timedOut":`...)
	e.b = strconv.AppendBool(e.b, r.TimedOut)
	e.b = append(e.b, `,"timeoutMs":`...)
	e.float(r.TimeoutMs)
	if r.RetryAfterMs != nil {
		e.b = append(e.b, `,"retryAfterMs":`...)
		e.float(*r.RetryAfterMs)
	}
	s := &r.Stats
	e.b = append(e.b, `,"stats":{"queueMs":`...)
	e.float(s.QueueMs)
	e.b = append(e.b, `,"bundleMs":`...)
	e.float(s.BundleMs)
	e.b = append(e.b, `,"runMs":`...)
	e.float(s.RunMs)
	e.b = append(e.b, `,"logs":`...)
	e.b = strconv.AppendInt(e.b, int64(s.Logs), 10)
	e.b = append(e.b, `,"outputBytes":`...)
	e.b = strconv.AppendInt(e.b, int64(s.OutputBytes), 10)
	e.b = append(e.b, `,"truncated":`...)
	e.b = strconv.AppendBool(e.b, s.Truncated)
	e.b = append(e.b, `},"success":`...)
	e.b = strconv.AppendBool(e.b, r.Success)
	e.b = append(e.b, `,"error":`...)
	e.strPtr(r.Error)
	e.b = append(e.b, `,"errorType":`...)
	e.strPtr(r.ErrorType)
	e.b = append(e.b, `,"executionTimeMs":`...)
	e.float(r.ExecutionTimeMs)
	if len(r.Tape) > 0 {
		e.b = append(e.b, `,"tape":`...)
		e.raw(r.Tape)
	}
	e.b = append(e.b, '}')
	return e.b, e.ok
}

// enc appends to b; ok turns false at the first value it cannot write
// as json.Marshal does.
type enc struct {
	b  []byte
	ok bool
}

func (e *enc) raw(r json.RawMessage) {
	var ok bool
	e.b, ok = jsonwire.AppendRaw(e.b, r)
	e.ok = e.ok && ok
}

func (e *enc) raws(rs []json.RawMessage) {
	var ok bool
	e.b, ok = jsonwire.AppendRaws(e.b, rs)
	e.ok = e.ok && ok
}

func (e *enc) float(f float64) {
	var ok bool
	e.b, ok = jsonwire.AppendFloat(e.b, f)
	e.ok = e.ok && ok
}

// strPtr appends *s, or null for a nil s.
func (e *enc) strPtr(s *string) {
	if s == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = jsonwire.AppendString(e.b, *s)
}

// appendList appends xs as json.Marshal writes a slice: null for nil, else an
// array of item's encodings.
func appendList[T any](e *enc, xs []T, item func(*enc, *T)) {
	if xs == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i := range xs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		item(e, &xs[i])
	}
	e.b = append(e.b, ']')
}

func (e *enc) log(l *Log) {
	e.b = append(e.b, `{"level":`...)
	e.b = jsonwire.AppendString(e.b, l.Level)
	e.b = append(e.b, `,"text":`...)
	e.b = jsonwire.AppendString(e.b, l.Text)
	e.b = append(e.b, `,"args":`...)
	e.raws(l.Args)
	e.b = append(e.b, `,"t":`...)
	e.float(l.T)
	e.b = append(e.b, '}')
}

func (e *enc) error(x *Error) {
	e.b = append(e.b, `{"kind":`...)
	e.b = jsonwire.AppendString(e.b, x.Kind)
	e.b = append(e.b, `,"message":`...)
	e.b = jsonwire.AppendString(e.b, x.Message)
	if x.Stack != "" {
		e.b = append(e.b, `,"stack":`...)
		e.b = jsonwire.AppendString(e.b, x.Stack)
	}
	if x.File != "" {
		e.b = append(e.b, `,"file":`...)
		e.b = jsonwire.AppendString(e.b, x.File)
	}
	if x.Line != 0 {
		e.b = append(e.b, `,"line":`...)
		e.b = strconv.AppendInt(e.b, int64(x.Line), 10)
	}
	if x.Column != 0 {
		e.b = append(e.b, `,"column":`...)
		e.b = strconv.AppendInt(e.b, int64(x.Column), 10)
	}
	e.b = append(e.b, `,"t":`...)
	e.float(x.T)
	e.b = append(e.b, '}')
}

func (e *enc) call(c *Call) {
	e.b = append(e.b, `{"name":`...)
	e.b = jsonwire.AppendString(e.b, c.Name)
	e.b = append(e.b, `,"ms":`...)
	e.float(c.Ms)
	e.b = append(e.b, `,"ok":`...)
	e.b = strconv.AppendBool(e.b, c.OK)
	if c.Error != "" {
		e.b = append(e.b, `,"error":`...)
		e.b = jsonwire.AppendString(e.b, c.Error)
	}
	e.b = append(e.b, `,"args":`...)
	e.raws(c.Args)
	if len(c.Result) > 0 {
		e.b = append(e.b, `,"result":`...)
		e.raw(c.Result)
	}
	e.b = append(e.b, `,"t":`...)
	e.float(c.T)
	e.b = append(e.b, '}')
}
