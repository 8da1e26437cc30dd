package ws

import (
	"encoding/json"
	"strconv"

	"github.com/playground-dev/playground/jsonwire"
)

// parseRun decodes a run message the way strict(b, &runFields{}) does,
// without reflection (issue 12: the client's run message was a tenth of
// the server's CPU per run). It takes only the plain form: the known
// fields spelled exactly, each at most once, none null, strings in valid
// UTF-8 without unpaired surrogate escapes. ok false means "not that
// form": the caller decodes b with encoding/json, which gives the same
// result for what this takes (TestParseRunMatchesEncodingJSON) and the
// precise error for the rest.
func parseRun(b []byte) (m runFields, ok bool) {
	p := parser{b: b}
	if !p.byte('{') {
		return m, false
	}
	var seen uint8
	if p.peek() == '}' {
		p.i++
	} else {
		for {
			key, ok := p.rawKey()
			if !ok || !p.byte(':') {
				return m, false
			}
			var bit uint8
			switch string(key) {
			case "type":
				bit = 1
				m.Type, ok = p.str()
			case "id":
				bit = 2
				m.ID, ok = p.str()
			case "files":
				bit = 4
				var files []File
				files, ok = p.files()
				m.Files = &files
			case "entry":
				bit = 8
				var s string
				s, ok = p.str()
				m.Entry = &s
			case "input":
				bit = 16
				m.Input, ok = p.rawValue()
			case "timeoutMs":
				bit = 32
				var f float64
				f, ok = p.number()
				m.TimeoutMs = &f
			case "deterministic":
				bit = 64
				var v bool
				v, ok = p.boolean()
				m.Deterministic = &v
			case "mode":
				bit = 128
				var s string
				s, ok = p.str()
				m.Mode = &s
			default:
				return m, false
			}
			if !ok || seen&bit != 0 {
				return m, false
			}
			seen |= bit
			if p.peek() == ',' {
				p.i++
				continue
			}
			if !p.byte('}') {
				return m, false
			}
			break
		}
	}
	p.ws()
	return m, p.i == len(p.b)
}

type parser struct {
	b []byte
	i int
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (p *parser) peek() byte {
	p.ws()
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// byte consumes c after whitespace.
func (p *parser) byte(c byte) bool {
	if p.peek() != c {
		return false
	}
	p.i++
	return true
}

// rawKey reads an object key that has no escape (every known key); it
// points into b.
func (p *parser) rawKey() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			p.i++
			return p.b[start : p.i-1], true
		}
		if c == '\\' || c < 0x20 {
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// str reads a string as encoding/json unquotes it (jsonwire.Unquote: the
// same result as the strict path's json.Unmarshal).
func (p *parser) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	s, next, ok := jsonwire.Unquote(p.b, p.i-1)
	if !ok {
		return "", false
	}
	p.i = next
	return s, true
}

// files reads the files array: objects of path and source.
func (p *parser) files() ([]File, bool) {
	if !p.byte('[') {
		return nil, false
	}
	files := make([]File, 0, 4)
	if p.peek() == ']' {
		p.i++
		return files, true
	}
	for {
		if !p.byte('{') {
			return nil, false
		}
		var f File
		var seen uint8
		if p.peek() == '}' {
			p.i++
		} else {
			for {
				key, ok := p.rawKey()
				if !ok || !p.byte(':') {
					return nil, false
				}
				var bit uint8
				switch string(key) {
				case "path":
					bit = 1
					f.Path, ok = p.str()
				case "source":
					bit = 2
					f.Source, ok = p.str()
				default:
					return nil, false
				}
				if !ok || seen&bit != 0 {
					return nil, false
				}
				seen |= bit
				if p.peek() == ',' {
					p.i++
					continue
				}
				if !p.byte('}') {
					return nil, false
				}
				break
			}
		}
		files = append(files, f)
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return files, true
		default:
			return nil, false
		}
	}
}

// number reads a JSON number (RFC 8259 grammar) as a float64.
func (p *parser) number() (float64, bool) {
	p.ws()
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.i < len(p.b) && '1' <= p.b[p.i] && p.b[p.i] <= '9':
		p.digits()
	default:
		return 0, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if !p.digits() {
			return 0, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if !p.digits() {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	return f, err == nil
}

func (p *parser) digits() bool {
	start := p.i
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

func (p *parser) boolean() (bool, bool) {
	p.ws()
	switch {
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		p.i += 4
		return true, true
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// rawValue reads any JSON value other than null (which encoding/json
// stores as RawMessage("null"): left to it), validated as encoding/json
// validates it (jsonwire.Scanner), and returns a copy of its bytes, as
// encoding/json stores a RawMessage.
func (p *parser) rawValue() (json.RawMessage, bool) {
	p.ws()
	sc := jsonwire.Scanner{Src: p.b, I: p.i}
	if !sc.Skip() || string(p.b[p.i:sc.I]) == "null" {
		return nil, false
	}
	v := p.b[p.i:sc.I]
	p.i = sc.I
	return append(json.RawMessage(nil), v...), true
}
