package jsonwire

import "unicode/utf8"

// The one check of a raw JSON value that crosses the process boundary
// (a fact, an output, an event's arguments: the worker is not trusted).
// check is a single pass over the bytes, without recursion or copying; it
// also says whether the value is already in the form json.Marshal writes a
// json.RawMessage in, so that AppendCompact copies such a value as it is
// and compacts only the rest (issue: data across the boundary at ≥ 100 MB/s
// each way; the worker writes its values compact, as JSON.stringify does).

// plainByte[c] is set for the bytes a JSON string holds as they are and
// json.Marshal copies unchanged: printable ASCII but the quote, the
// backslash and <, >, & (which it escapes as \u003c, \u003e, \u0026).
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&'} {
		t[c] = false
	}
	return t
}()

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// check validates the JSON value that starts at src[i] (no whitespace
// before it): RFC 8259's grammar, nested at most maxDepth (10,000) deep as
// encoding/json allows, with strings of valid UTF-8 (encoding/json lets
// invalid UTF-8 through; a WebSocket text message must not carry it). end
// is the index just past the value. plain reports that json.Marshal would
// write the value's bytes unchanged: no whitespace between its tokens and
// no <, >, &, U+2028 or U+2029 in its strings. ok is false, and end and
// plain mean nothing, when the value is invalid or missing.
func check(src []byte, i int) (end int, ok, plain bool) {
	var buf [64]byte
	stack := buf[:0] // the open containers, '{' or '[', innermost last
	plain = true
	n := len(src)
	var p bool
value: // at a value; whitespace before it skipped
	if i >= n {
		return i, false, false
	}
	switch c := src[i]; c {
	case '{', '[':
		if len(stack) >= maxDepth {
			return i, false, false
		}
		stack = append(stack, c)
		i++
		for i < n && isSpace(src[i]) {
			i, plain = i+1, false
		}
		if i < n && src[i] == c+2 { // '}' is '{'+2, ']' is '['+2
			i++
			stack = stack[:len(stack)-1]
			goto next
		}
		if c == '[' {
			goto value
		}
		goto key
	case '"':
		if i, ok, p = checkString(src, i); !ok {
			return i, false, false
		}
		plain = plain && p
	case 't':
		if n-i < 4 || string(src[i:i+4]) != "true" {
			return i, false, false
		}
		i += 4
	case 'f':
		if n-i < 5 || string(src[i:i+5]) != "false" {
			return i, false, false
		}
		i += 5
	case 'n':
		if n-i < 4 || string(src[i:i+4]) != "null" {
			return i, false, false
		}
		i += 4
	default:
		if i, ok = checkNumber(src, i); !ok {
			return i, false, false
		}
	}
next: // just past a value
	if len(stack) == 0 {
		return i, true, plain
	}
	for i < n && isSpace(src[i]) {
		i, plain = i+1, false
	}
	if i >= n {
		return i, false, false
	}
	switch top := stack[len(stack)-1]; src[i] {
	case ',':
		i++
		for i < n && isSpace(src[i]) {
			i, plain = i+1, false
		}
		if top == '[' {
			goto value
		}
		goto key
	case top + 2:
		i++
		stack = stack[:len(stack)-1]
		goto next
	default:
		return i, false, false
	}
key: // at an object member's key; whitespace before it skipped
	if i >= n || src[i] != '"' {
		return i, false, false
	}
	if i, ok, p = checkString(src, i); !ok {
		return i, false, false
	}
	plain = plain && p
	for i < n && isSpace(src[i]) {
		i, plain = i+1, false
	}
	if i >= n || src[i] != ':' {
		return i, false, false
	}
	i++
	for i < n && isSpace(src[i]) {
		i, plain = i+1, false
	}
	goto value
}

// checkString validates the string whose opening quote is src[i] (check's
// rules: escapes as RFC 8259 spells them, no control characters, valid
// UTF-8) and returns the index after its closing quote. plain is false
// when it holds <, >, &, U+2028 or U+2029, which json.Marshal escapes.
func checkString(src []byte, i int) (end int, ok, plain bool) {
	plain = true
	i++
	for {
		for i < len(src) && plainByte[src[i]] {
			i++
		}
		if i >= len(src) {
			return i, false, false
		}
		switch c := src[i]; {
		case c == '"':
			return i + 1, true, plain
		case c == '\\':
			if i+1 >= len(src) {
				return i, false, false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(src)-i < 6 || !isHex(src[i+2]) || !isHex(src[i+3]) || !isHex(src[i+4]) || !isHex(src[i+5]) {
					return i, false, false
				}
				i += 6
			default:
				return i, false, false
			}
		case c < 0x20:
			return i, false, false
		case c < utf8.RuneSelf: // <, > or &
			plain = false
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false, false
			}
			if r == '\u2028' || r == '\u2029' {
				plain = false
			}
			i += size
		}
	}
}

// checkNumber validates the number at src[i] by RFC 8259's grammar (no
// leading zeros, no lone sign or point, no bare exponent) and returns the
// index after it.
func checkNumber(src []byte, i int) (end int, ok bool) {
	n := len(src)
	if i < n && src[i] == '-' {
		i++
	}
	switch {
	case i < n && src[i] == '0':
		i++
	case i < n && src[i] >= '1' && src[i] <= '9':
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	default:
		return i, false
	}
	if i < n && src[i] == '.' {
		i++
		d := i
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i == d {
			return i, false
		}
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		d := i
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i == d {
			return i, false
		}
	}
	return i, true
}
