package pipe

import (
	"encoding/json"
	"time"

	"github.com/playground-dev/playground/jsonwire"
)

// Hand-written decoders of the pipe's messages (issue 12: encoding/json's
// reflection was several percent of each end's CPU per run). They decode
// the lines the encoders write; a line they do not take exactly as
// encoding/json would (an unknown or repeated key, a null, a number with a
// fraction, anything invalid) is decoded by encoding/json instead, so the
// result is always json.Unmarshal's. TestDecodeMatchesEncodingJSON holds
// them to that.

// DecodeMessage decodes a worker's line into m as json.Unmarshal does.
// The raw JSON values of m (event arguments, values, results, facts) may
// share line's memory: line must not change while m is used.
func DecodeMessage(line []byte, m *Message) error {
	d := decoder{jsonwire.Scanner{Src: line}}
	if d.top(func() bool { return d.message(m) }) {
		return nil
	}
	*m = Message{}
	return json.Unmarshal(line, m)
}

// DecodeCommand decodes a parent's line into c as json.Unmarshal does.
// The raw JSON values of c (a job's input, a reply's result) may share
// line's memory: line must not change while c is used.
func DecodeCommand(line []byte, c *Command) error {
	d := decoder{jsonwire.Scanner{Src: line}}
	if d.top(func() bool { return d.command(c) }) {
		return nil
	}
	*c = Command{}
	return json.Unmarshal(line, c)
}

// decoder embeds jsonwire.Scanner, which holds the scanning rules (issue
// 24: one codec base for ws, jsonwire and the pipe); the methods below
// are the names the message bodies use for its primitives, and the pipe's
// own durations (integer nanoseconds, as encoding/json writes a
// time.Duration).
type decoder struct{ jsonwire.Scanner }

// top decodes the whole line with value, which must consume one value.
func (d *decoder) top(value func() bool) bool { return d.Top(value) }

// object walks an object whose keys are all among keys, each at most once,
// calling field with the key's index at its value (jsonwire's Object).
func (d *decoder) object(keys []string, field func(k int) bool) bool { return d.Object(keys, field) }

// array walks an array, calling elem at each element.
func (d *decoder) array(elem func() bool) bool { return d.Array(elem) }

func (d *decoder) bool(v *bool) bool { return d.Bool(v) }

// int64 reads an integer written without fraction or exponent.
func (d *decoder) int64(v *int64) bool { return d.Int64(v) }

func (d *decoder) int(v *int) bool { return d.Int(v) }

func (d *decoder) duration(v *time.Duration) bool {
	var n int64
	if !d.Int64(&n) {
		return false
	}
	*v = time.Duration(n)
	return true
}

// raw reads any value but null (encoding/json's handling of a null for a
// raw value is its own) and returns its bytes, sharing the line's memory.
func (d *decoder) raw(v *json.RawMessage) bool { return d.Raw(v) }

func (d *decoder) raws(v *[]json.RawMessage) bool { return d.Raws(v) }

func (d *decoder) strs(v *[]string) bool { return d.Strs(v) }

// str reads a string as encoding/json unquotes it (jsonwire.Unquote).
func (d *decoder) str(v *string) bool { return d.Str(v) }

var (
	messageKeys = []string{"ready", "accepted", "event", "call", "result", "idle"}
	eventKeys   = []string{"kind", "t", "position", "timeout", "mode", "level", "text", "args", "key", "value",
		"deleted", "callId", "pending", "name", "duration", "ok", "callError", "result", "error"}
	errorKeys   = []string{"kind", "message", "stack", "file", "line", "column"}
	callKeys    = []string{"id", "name", "args", "now", "cancel"}
	resultKeys  = []string{"outcome", "timedOut", "output", "facts", "retryAfter", "end", "stats", "retire"}
	statsKeys   = []string{"queue", "bundle", "run", "logs", "outputBytes", "truncated"}
	idleKeys    = []string{"wait", "replies"}
	commandKeys = []string{"op", "job", "reply"}
	jobKeys     = []string{"files", "entry", "input", "timeout", "deterministic", "mode", "limits", "host", "globals", "client", "deadline"}
	fileKeys    = []string{"path", "source"}
	limitsKeys  = []string{"maxOutputBytes", "maxEvents", "maxTimers", "maxCallStack", "maxHostCalls", "maxFactsBytes",
		"previewDepth", "previewKeys", "previewString"}
	replyKeys = []string{"id", "result", "error", "duration"}
)

func (d *decoder) message(m *Message) bool {
	return d.object(messageKeys, func(k int) bool {
		switch k {
		case 0:
			return d.bool(&m.Ready)
		case 1:
			return d.bool(&m.Accepted)
		case 2:
			m.Event = new(Event)
			return d.event(m.Event)
		case 3:
			m.Call = new(HostCall)
			return d.call(m.Call)
		case 4:
			m.Result = new(Result)
			return d.result(m.Result)
		default:
			m.Idle = new(Idle)
			return d.object(idleKeys, func(k int) bool {
				if k == 0 {
					return d.duration(&m.Idle.Wait)
				}
				return d.int(&m.Idle.Replies)
			})
		}
	})
}

func (d *decoder) event(ev *Event) bool {
	return d.object(eventKeys, func(k int) bool {
		switch k {
		case 0:
			var s string
			ok := d.str(&s)
			ev.Kind = EventKind(s)
			return ok
		case 1:
			return d.duration(&ev.T)
		case 2:
			return d.int(&ev.Position)
		case 3:
			return d.duration(&ev.Timeout)
		case 4:
			return d.str(&ev.Mode)
		case 5:
			return d.str(&ev.Level)
		case 6:
			return d.str(&ev.Text)
		case 7:
			return d.raws(&ev.Args)
		case 8:
			return d.str(&ev.Key)
		case 9:
			return d.raw(&ev.Value)
		case 10:
			return d.bool(&ev.Deleted)
		case 11:
			return d.int64(&ev.CallID)
		case 12:
			return d.bool(&ev.Pending)
		case 13:
			return d.str(&ev.Name)
		case 14:
			return d.duration(&ev.Duration)
		case 15:
			return d.bool(&ev.OK)
		case 16:
			return d.str(&ev.CallError)
		case 17:
			return d.raw(&ev.Result)
		default:
			ev.Error = new(Error)
			return d.error(ev.Error)
		}
	})
}

func (d *decoder) error(e *Error) bool {
	return d.object(errorKeys, func(k int) bool {
		switch k {
		case 0:
			var s string
			ok := d.str(&s)
			e.Kind = ErrorKind(s)
			return ok
		case 1:
			return d.str(&e.Message)
		case 2:
			return d.str(&e.Stack)
		case 3:
			return d.str(&e.File)
		case 4:
			return d.int(&e.Line)
		default:
			return d.int(&e.Column)
		}
	})
}

func (d *decoder) call(c *HostCall) bool {
	return d.object(callKeys, func(k int) bool {
		switch k {
		case 0:
			return d.int64(&c.ID)
		case 1:
			return d.str(&c.Name)
		case 2:
			return d.raws(&c.Args)
		case 4:
			return d.bool(&c.Cancel)
		default:
			start := d.I
			if d.I >= len(d.Src) || d.Src[d.I] != '"' {
				return false
			}
			if !d.Skip() {
				return false
			}
			return c.Now.UnmarshalJSON(d.Src[start:d.I]) == nil
		}
	})
}

func (d *decoder) result(r *Result) bool {
	return d.object(resultKeys, func(k int) bool {
		switch k {
		case 0:
			var s string
			ok := d.str(&s)
			r.Outcome = Outcome(s)
			return ok
		case 1:
			return d.bool(&r.TimedOut)
		case 2:
			return d.raw(&r.Output)
		case 3:
			return d.facts(&r.Facts)
		case 4:
			return d.duration(&r.RetryAfter)
		case 5:
			return d.duration(&r.End)
		case 6:
			s := &r.Stats
			return d.object(statsKeys, func(k int) bool {
				switch k {
				case 0:
					return d.duration(&s.Queue)
				case 1:
					return d.duration(&s.Bundle)
				case 2:
					return d.duration(&s.Run)
				case 3:
					return d.int(&s.Logs)
				case 4:
					return d.int(&s.OutputBytes)
				default:
					return d.bool(&s.Truncated)
				}
			})
		default:
			return d.bool(&r.Retire)
		}
	})
}

// facts reads an object of raw values with any keys.
func (d *decoder) facts(v *map[string]json.RawMessage) bool { return d.RawMap(v) }

func (d *decoder) command(c *Command) bool {
	return d.object(commandKeys, func(k int) bool {
		switch k {
		case 0:
			return d.str(&c.Op)
		case 1:
			c.Job = new(Job)
			return d.job(c.Job)
		default:
			r := new(HostReply)
			c.Reply = r
			return d.object(replyKeys, func(k int) bool {
				switch k {
				case 0:
					return d.int64(&r.ID)
				case 1:
					return d.raw(&r.Result)
				case 2:
					return d.str(&r.Error)
				default:
					return d.duration(&r.Duration)
				}
			})
		}
	})
}

func (d *decoder) job(j *Job) bool {
	return d.object(jobKeys, func(k int) bool {
		switch k {
		case 0:
			j.Files = []File{}
			return d.array(func() bool {
				var f File
				ok := d.object(fileKeys, func(k int) bool {
					if k == 0 {
						return d.str(&f.Path)
					}
					return d.str(&f.Source)
				})
				j.Files = append(j.Files, f)
				return ok
			})
		case 1:
			return d.str(&j.Entry)
		case 2:
			return d.raw(&j.Input)
		case 3:
			return d.duration(&j.Timeout)
		case 4:
			return d.bool(&j.Deterministic)
		case 5:
			return d.str(&j.Mode)
		case 6:
			l := &j.Limits
			return d.object(limitsKeys, func(k int) bool {
				switch k {
				case 0:
					return d.int(&l.MaxOutputBytes)
				case 1:
					return d.int(&l.MaxEvents)
				case 2:
					return d.int(&l.MaxTimers)
				case 3:
					return d.int(&l.MaxCallStack)
				case 4:
					return d.int(&l.MaxHostCalls)
				case 5:
					return d.int(&l.MaxFactsBytes)
				case 6:
					return d.int(&l.Depth)
				case 7:
					return d.int(&l.Keys)
				default:
					return d.int(&l.String)
				}
			})
		case 7:
			return d.strs(&j.Host)
		case 8:
			return d.strs(&j.Globals)
		case 9:
			return d.str(&j.Client)
		default:
			return d.int64(&j.Deadline)
		}
	})
}
