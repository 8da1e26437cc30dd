package ws

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
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

// str reads a string as encoding/json decodes it into a Go string.
func (p *parser) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.i
	// The common case: no escape, ASCII or valid UTF-8.
	ascii := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// escaped finishes a string from start that has an escape at p.i.
func (p *parser) escaped(start int) (string, bool) {
	out := make([]byte, 0, p.i-start+64)
	out = append(out, p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(out) {
				return "", false
			}
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				if p.i+1 >= len(p.b) || p.b[p.i] != '\\' || p.b[p.i+1] != 'u' {
					return "", false // unpaired: encoding/json's replacement rules are left to it
				}
				p.i += 2
				r2, ok := p.hex4()
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	p.i += 4
	return r, true
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
// stores as RawMessage("null"): left to it) and returns a copy of its
// bytes, as encoding/json stores a RawMessage.
func (p *parser) rawValue() (json.RawMessage, bool) {
	p.ws()
	start := p.i
	if !p.skip(0) || string(p.b[start:p.i]) == "null" {
		return nil, false
	}
	v := p.b[start:p.i]
	if !json.Valid(v) {
		return nil, false
	}
	return append(json.RawMessage(nil), v...), true
}

// maxSkipDepth bounds the nesting rawValue follows (encoding/json's own
// limit is 10000).
const maxSkipDepth = 1000

// skip moves past one JSON value; json.Valid checks it afterwards.
func (p *parser) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	switch c := p.peek(); {
	case c == '"':
		p.i++
		for p.i < len(p.b) {
			switch p.b[p.i] {
			case '\\':
				p.i += 2
				continue
			case '"':
				p.i++
				return true
			}
			p.i++
		}
		return false
	case c == '{' || c == '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		p.i++
		if p.peek() == closer {
			p.i++
			return true
		}
		for {
			if c == '{' {
				if !p.skip(depth+1) || !p.byte(':') {
					return false
				}
			}
			if !p.skip(depth + 1) {
				return false
			}
			switch p.peek() {
			case ',':
				p.i++
			case closer:
				p.i++
				return true
			default:
				return false
			}
		}
	case c == 't' || c == 'f' || c == 'n':
		for p.i < len(p.b) && 'a' <= p.b[p.i] && p.b[p.i] <= 'z' {
			p.i++
		}
		return true
	case c == '-' || ('0' <= c && c <= '9'):
		for p.i < len(p.b) {
			switch c := p.b[p.i]; {
			case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
				p.i++
				continue
			}
			break
		}
		return true
	}
	return false
}
