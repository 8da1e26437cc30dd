package ws

import (
	"encoding/json"

	"github.com/playground-dev/playground/jsonwire"
)

// parseRun decodes a run message the way strict(b, &runFields{}) does,
// without reflection (issue 12: the client's run message was a tenth of
// the server's CPU per run). It takes only the plain form: the known
// fields spelled exactly, each at most once, none null. ok false means
// "not that form": the caller decodes b with encoding/json, which gives
// the same result for what this takes (TestParseRunMatchesEncodingJSON)
// and the precise error for the rest. The scanning is jsonwire's (issue
// 24: one codec base for ws, jsonwire and the pipe); this file holds the
// message's shape.
func parseRun(b []byte) (m runFields, ok bool) {
	p := parser{jsonwire.Scanner{Src: b}}
	ok = p.Top(func() bool {
		return p.Object(runKeys, func(k int) bool {
			switch k {
			case 0:
				return p.Str(&m.Type)
			case 1:
				return p.Str(&m.ID)
			case 2:
				m.Files = new([]File)
				return p.files(m.Files)
			case 3:
				m.Entry = new(string)
				return p.Str(m.Entry)
			case 4:
				return p.rawValue(&m.Input)
			case 5:
				m.TimeoutMs = new(float64)
				return p.Float64(m.TimeoutMs)
			case 6:
				m.Deterministic = new(bool)
				return p.Bool(m.Deterministic)
			default:
				m.Mode = new(string)
				return p.Str(m.Mode)
			}
		})
	})
	return m, ok
}

// runKeys are the run message's fields parseRun takes; any other (record,
// detach) leaves the message to encoding/json.
var runKeys = []string{"type", "id", "files", "entry", "input", "timeoutMs", "deterministic", "mode"}

// fileKeys are a file's fields.
var fileKeys = []string{"path", "source"}

type parser struct{ jsonwire.Scanner }

// files reads the files array (ScanFiles).
func (p *parser) files(v *[]File) bool { return ScanFiles(&p.Scanner, v) }

// ScanFiles reads a run's files array at s.I, objects of path and source
// only, as json.Unmarshal reads it into v, in jsonwire's plain form (see
// jsonwire.Scanner: false means "not this form", and the caller decodes
// the whole text with encoding/json). The HTTP API's request decoder
// shares it.
func ScanFiles(s *jsonwire.Scanner, v *[]File) bool {
	files := make([]File, 0, 4)
	ok := s.Array(func() bool {
		var f File
		ok := s.Object(fileKeys, func(k int) bool {
			if k == 0 {
				return s.Str(&f.Path)
			}
			return s.Str(&f.Source)
		})
		files = append(files, f)
		return ok
	})
	*v = files
	return ok
}

// rawValue reads any JSON value other than null (which encoding/json
// stores as RawMessage("null"): left to it), validated as encoding/json
// validates it (jsonwire.Scanner.Raw), and stores a copy of its bytes, as
// encoding/json stores a RawMessage: b is the socket's buffer, reused.
func (p *parser) rawValue(v *json.RawMessage) bool {
	var r json.RawMessage
	if !p.Raw(&r) {
		return false
	}
	*v = append(json.RawMessage(nil), r...)
	return true
}
