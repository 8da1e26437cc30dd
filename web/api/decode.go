package api

import (
	"github.com/playground-dev/playground/jsonwire"
	"github.com/playground-dev/playground/ws"
)

// requestKeys are RunRequest's fields, spelled as its JSON tags.
var requestKeys = []string{"id", "files", "code", "entry", "input", "inputData", "timeoutMs", "deterministic", "mode", "wait", "record"}

// parseRunRequest decodes a run request in one pass (jsonwire, issue 21:
// the encoding/json decoder read an input of 10,000 rows three times, ≈ 5
// ms), the way decodeRunRequest's encoding/json decoder would, for the
// plain form: the known fields spelled exactly, each at most once, none
// null, nothing after the object. ok false means "not that form": the
// caller decodes b with encoding/json, which gives the same result for
// what this takes (TestParseRunRequestMatchesEncodingJSON) and the precise
// error for the rest. The raw input shares b's bytes.
func parseRunRequest(b []byte) (q RunRequest, ok bool) {
	s := jsonwire.Scanner{Src: b}
	ok = s.Top(func() bool {
		return s.Object(requestKeys, func(k int) bool {
			switch requestKeys[k] {
			case "id":
				q.ID = new(string)
				return s.Str(q.ID)
			case "files":
				return ws.ScanFiles(&s, &q.Files)
			case "code":
				q.Code = new(string)
				return s.Str(q.Code)
			case "entry":
				q.Entry = new(string)
				return s.Str(q.Entry)
			case "input":
				return s.Raw(&q.Input)
			case "inputData":
				return s.Raw(&q.InputData)
			case "timeoutMs":
				q.TimeoutMs = new(float64)
				return s.Float64(q.TimeoutMs)
			case "deterministic":
				q.Deterministic = new(bool)
				return s.Bool(q.Deterministic)
			case "mode":
				q.Mode = new(string)
				return s.Str(q.Mode)
			case "wait":
				q.Wait = new(bool)
				return s.Bool(q.Wait)
			default: // record
				q.Record = new(bool)
				return s.Bool(q.Record)
			}
		})
	})
	return q, ok
}
