package parity

import (
	"fmt"
	"github.com/playground-dev/playground/sandbox/worker/js/jsonvalue"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"
)

// goja's JSON.parse reports a syntax error in Go's words ("invalid
// character 'b' looking for beginning of object key string"); Node's
// (V8's) name the position and what was expected ("Expected property name
// or '}' in JSON at position 1"). A snippet that parses bad JSON and
// prints the error's message should read Node's. So JSON.parse is wrapped
// (needJSONParse): when goja's throws a SyntaxError for a string, the text
// is scanned again here and the error rethrown with V8's message. Valid
// JSON goja refuses (a number past float64's range, which V8 reads as
// Infinity) is a SyntaxError that says so.
//
// Patch for: goja's JSON.parse (Go's encoding/json underneath) words a
// syntax error in Go's terms and refuses numbers past float64's range.
// Upstream: dop251/goja#503 ("Improve JSON.parse error message"; the
// maintainer means to replace the JSON parser). Delete V8JSONError
// and js.installJSONParse when goja's messages are V8's.

// V8JSONError scans src as JSON.parse does (ECMA-262 §25.5.1) and returns
// V8's message (Node 20) for its first error, with positions in UTF-16
// code units; bad is false when src is valid JSON. It keeps its own stack
// of open containers: a snippet's text may nest a million levels deep.
func V8JSONError(src string) (msg string, bad bool) {
	// The text's UTF-16 code units (V8's positions count them): read from
	// the string itself when it is ASCII, the common case, so that a large
	// text costs no copy.
	var u16 []uint16
	for i := 0; i < len(src); i++ {
		if src[i] >= 0x80 {
			u16 = utf16.Encode([]rune(src))
			break
		}
	}
	n := len(src)
	if u16 != nil {
		n = len(u16)
	}
	u := func(i int) uint16 {
		if u16 == nil {
			return uint16(src[i])
		}
		return u16[i]
	}
	text := func(from, to int) string {
		from, to = max(from, 0), min(to, n)
		if u16 == nil {
			return src[from:to]
		}
		return string(utf16.Decode(u16[from:to]))
	}
	ws := func(i int) int {
		for i < n && (u(i) == ' ' || u(i) == '\t' || u(i) == '\n' || u(i) == '\r') {
			i++
		}
		return i
	}
	digit := func(i int) bool { return i < n && u(i) >= '0' && u(i) <= '9' }
	at := func(format string, pos int) (string, bool) {
		return fmt.Sprintf(format+" in JSON at position %d", pos), true
	}
	const eos = "Unexpected end of JSON input"
	unexpected := func(pos int) (string, bool) {
		switch {
		case pos >= n:
			return eos, true
		case u(pos) == '"':
			return at("Unexpected string", pos)
		case u(pos) == '-' || digit(pos):
			return at("Unexpected number", pos)
		}
		switch src {
		case "NaN", "Infinity", "undefined", "[object Object]":
			return fmt.Sprintf("%q is not valid JSON", src), true
		}
		tok := text(pos, pos+1)
		const context = 10 // V8's kMaxContextCharacters
		switch {
		case n <= 2*context:
			return fmt.Sprintf("Unexpected token '%s', \"%s\" is not valid JSON", tok, src), true
		case pos < context:
			return fmt.Sprintf("Unexpected token '%s', \"%s\"... is not valid JSON", tok, text(0, pos+context)), true
		case pos < n-context:
			return fmt.Sprintf("Unexpected token '%s', ...\"%s\"... is not valid JSON", tok, text(pos-context, pos+context)), true
		default:
			return fmt.Sprintf("Unexpected token '%s', ...\"%s\" is not valid JSON", tok, text(pos-context, n)), true
		}
	}
	// str scans the string at i (its opening quote) and returns the index
	// after its closing quote.
	str := func(i int) (int, string, bool) {
		for i++; ; i++ {
			if i >= n {
				m, _ := at("Unterminated string", n)
				return 0, m, true
			}
			switch c := u(i); {
			case c == '"':
				return i + 1, "", false
			case c < 0x20:
				m, _ := at("Bad control character in string literal", i)
				return 0, m, true
			case c == '\\':
				i++
				if i >= n {
					return 0, eos, true
				}
				switch u(i) {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				case 'u':
					for k := 1; k <= 4; k++ {
						if i+k >= n || !isHex(u(i+k)) {
							m, _ := at("Bad Unicode escape", i+k)
							return 0, m, true
						}
					}
					i += 4
				default:
					m, _ := at("Bad escaped character", i)
					return 0, m, true
				}
			}
		}
	}
	// num scans the number at i and returns the index after it.
	num := func(i int) (int, string, bool) {
		if u(i) == '-' {
			if i++; !digit(i) {
				m, _ := at("No number after minus sign", i)
				return 0, m, true
			}
		}
		if u(i) == '0' {
			if i++; digit(i) {
				m, _ := at("Unexpected number", i)
				return 0, m, true
			}
		} else {
			for digit(i) {
				i++
			}
		}
		if i < n && u(i) == '.' {
			if i++; !digit(i) {
				m, _ := at("Unterminated fractional number", i)
				return 0, m, true
			}
			for digit(i) {
				i++
			}
		}
		if i < n && (u(i) == 'e' || u(i) == 'E') {
			i++
			if i < n && (u(i) == '+' || u(i) == '-') {
				i++
			}
			if !digit(i) {
				m, _ := at("Exponent part is missing a number", i)
				return 0, m, true
			}
			for digit(i) {
				i++
			}
		}
		return i, "", false
	}
	var open []bool // the open containers, innermost last: true for an object
	i := ws(0)
	for {
		// A value starts at i.
		if i >= n {
			return eos, true
		}
		switch c := u(i); {
		case c == '{':
			i = ws(i + 1)
			if i < n && u(i) == '}' {
				i++
				break
			}
			if i >= n || u(i) != '"' {
				return at("Expected property name or '}'", i)
			}
			open = append(open, true)
			var m string
			var bad bool
			if i, m, bad = str(i); bad {
				return m, true
			}
			if i = ws(i); i >= n || u(i) != ':' {
				return at("Expected ':' after property name", i)
			}
			i = ws(i + 1)
			continue
		case c == '[':
			i = ws(i + 1)
			if i < n && u(i) == ']' {
				i++
				break
			}
			open = append(open, false)
			continue
		case c == '"':
			var m string
			var bad bool
			if i, m, bad = str(i); bad {
				return m, true
			}
		case c == '-' || (c >= '0' && c <= '9'):
			var m string
			var bad bool
			if i, m, bad = num(i); bad {
				return m, true
			}
		case c == 't' || c == 'f' || c == 'n':
			word := map[uint16]string{'t': "true", 'f': "false", 'n': "null"}[c]
			for k := 1; k < len(word); k++ {
				if i+k >= n {
					return eos, true
				}
				if u(i+k) != uint16(word[k]) {
					return unexpected(i + k)
				}
			}
			i += len(word)
		default:
			return unexpected(i)
		}
		// After a value: close what ends here, then the next element.
		for {
			i = ws(i)
			if len(open) == 0 {
				if i < n {
					return fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d", i), true
				}
				return "", false
			}
			object := open[len(open)-1]
			switch {
			case object && i < n && u(i) == '}', !object && i < n && u(i) == ']':
				open = open[:len(open)-1]
				i++
				continue
			case i < n && u(i) == ',':
				i = ws(i + 1)
				if object {
					if i >= n || u(i) != '"' {
						return at("Expected double-quoted property name", i)
					}
					var m string
					var bad bool
					if i, m, bad = str(i); bad {
						return m, true
					}
					if i = ws(i); i >= n || u(i) != ':' {
						return unexpected(i) // V8 names only the first property's colon
					}
					i = ws(i + 1)
				}
			case object:
				return at("Expected ',' or '}' after property value", i)
			default:
				return at("Expected ',' or ']' after array element", i)
			}
			break
		}
	}
}

func isHex(c uint16) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// InstallJSONParse replaces JSON.parse with a wrapper that rethrows goja's
// SyntaxError with V8's wording (V8JSONError).
func (p *Patcher) InstallJSONParse() {
	vm := p.vm
	json := vm.Get("JSON").ToObject(vm)
	parse := builtinFunc(json, "parse")
	// The runtime's own parsing (input, host replies) keeps the intrinsic:
	// no snippet code has run yet, so this is it (intrinsic.Builtins.lazy would refuse
	// the wrapper as a replacement).
	p.b.JSONParse = parse
	p.replace(json, "parse", 2, func(c goja.FunctionCall) goja.Value {
		// ToString(text) once, here (its toString is the snippet's and may
		// count its calls); the intrinsic then gets the string.
		text := c.Argument(0).ToString()
		if _, reviver := goja.AssertFunction(c.Argument(1)); !reviver {
			// Plain JSON.parse at wire speed (package jsonvalue); what it
			// does not take (a syntax error, a number past float64) is the
			// intrinsic's to parse or word.
			if p.json == nil {
				p.json = jsonvalue.NewParser(vm)
			}
			if str, ok := text.(goja.String); ok {
				if v, ok := p.json.ParseString(str); ok {
					return v
				}
			}
		}
		args := append([]goja.Value{text}, c.Arguments[min(1, len(c.Arguments)):]...)
		v, err := parse(c.This, args...)
		if err == nil {
			return v
		}
		if s, ok := text.Export().(string); ok && isThrownError(err) {
			if msg, bad := V8JSONError(s); bad {
				p.h.Throw("SyntaxError", msg) // the reviver runs only after a successful parse: this is the parser's
			}
			if strings.Contains(err.Error(), "cannot unmarshal number") {
				// Valid JSON that goja's parser (Go's encoding/json) refuses:
				// a number past float64's range.
				p.h.Throw("SyntaxError", "JSON.parse: a number in this JSON is beyond ±1.8e308, which this runtime cannot read (Node reads it as ±Infinity)")
			}
		}
		panic(err) // the reviver's own error, or not a syntax error
	})
}

// isThrownError reports whether err is an error object thrown in JS (not
// the run's interrupt, a timeout or a memory limit, which pass through).
// Which class it is needs no check: on text that is not JSON only the
// parser can have thrown (a reviver runs after a successful parse).
func isThrownError(err error) bool {
	ex, ok := err.(*goja.Exception)
	if !ok {
		return false
	}
	o, ok := ex.Value().(*goja.Object)
	return ok && o.ClassName() == "Error"
}
