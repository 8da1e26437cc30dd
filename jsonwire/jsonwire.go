// Package jsonwire writes and reads JSON bytes exactly as encoding/json
// does, without reflection: it is the one codec base of the hand-written
// encoders and decoders of the worker pipe (sandbox/pipe), of the
// WebSocket protocol (ws) and of the HTTP API's run answer (web/api), which
// keep only their messages' shapes (issue
// 12: reflection was a few percent of a run's CPU in each process; issue
// 24: the fast paths in one place).
//
// Encoding: AppendString, AppendKey, AppendFloat, AppendRaw, AppendRaws,
// AppendStrings, AppendRawMap and AppendCompact append what json.Marshal
// writes for a value (RFC 8259 text, HTML-safe strings); those that can
// meet a value json.Marshal refuses, or a raw value that is not valid
// UTF-8 (which json.Marshal copies), report false. Decoding: a Scanner reads
// a JSON text (Top, Object, Array, Key, Str, Bool, Int64, Int, Float64,
// Raw, Raws, Strs, RawMap, Skip) and stores what json.Unmarshal would; a
// false means "not the plain form": the caller hands the text to
// encoding/json. The functions hold no state and are safe for concurrent
// use; a Scanner is used by one goroutine at a time.
package jsonwire

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it (HTML-safe: <, >, & as \u003c…; U+2028 and U+2029 escaped;
// invalid UTF-8 as \ufffd).
func AppendString(dst []byte, s string) []byte {
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
			i++
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

// maxDepth is encoding/json's nesting limit: deeper values are errors.
const maxDepth = 10000

// AppendCompact appends the JSON value src as encoding/json writes a
// json.RawMessage: without insignificant spaces, with <, >, & and U+2028,
// U+2029 in its strings escaped. It reports false (and appends nothing)
// when src is not exactly one valid JSON value (whitespace around it
// allowed), nested at most 10,000 deep, with strings of valid UTF-8: the
// UTF-8 rule is stricter than encoding/json's, whose fallback then decides
// (the callers hand such a value to json.Marshal, which reports the
// errors). One pass checks src (check); a src already in that form, as
// the worker writes its values, is then copied, any other compacted.
func AppendCompact(dst, src []byte) ([]byte, bool) {
	i := skipSpace(src, 0)
	end, ok, plain := check(src, i)
	if !ok || skipSpace(src, end) != len(src) {
		return dst, false
	}
	if plain && i == 0 && end == len(src) {
		return append(dst, src...), true
	}
	s := Scanner{Src: src, I: i}
	return s.compact(dst), true
}

// skipSpace is the index of the first byte of src at or after i that is
// not JSON whitespace.
func skipSpace(src []byte, i int) int {
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	return i
}

// Scanner walks one JSON text from Src[I]: it validates values and skips
// them (Skip). A decoder embeds it and reads Src and I directly.
type Scanner struct {
	Src []byte
	I   int
}

// Skip validates the JSON value at I (check's rules: the UTF-8 of its
// strings included) and moves I past it. On false, I is unchanged.
func (s *Scanner) Skip() bool {
	end, ok, _ := check(s.Src, s.I)
	if ok {
		s.I = end
	}
	return ok
}

// SkipSpace moves I past JSON whitespace.
func (s *Scanner) SkipSpace() { s.I = skipSpace(s.Src, s.I) }

// compact appends the compact, escaped form of the value at s.I, which
// check has found valid, and moves I past it.
func (s *Scanner) compact(dst []byte) []byte {
	switch c := s.Src[s.I]; {
	case c == '{' || c == '[':
		end := c + 2 // '}' is '{'+2, ']' is '['+2
		s.I++
		dst = append(dst, c)
		s.SkipSpace()
		if s.Src[s.I] == end {
			s.I++
			return append(dst, end)
		}
		for {
			if c == '{' {
				dst = s.string(dst)
				s.SkipSpace()
				s.I++ // the colon
				dst = append(dst, ':')
				s.SkipSpace()
			}
			dst = s.compact(dst)
			s.SkipSpace()
			if s.Src[s.I] == end {
				s.I++
				return append(dst, end)
			}
			s.I++ // the comma
			dst = append(dst, ',')
			s.SkipSpace()
		}
	case c == '"':
		return s.string(dst)
	default: // a number or a literal: no spaces, no escapes
		start := s.I
		if c == 't' || c == 'n' {
			s.I += 4
		} else if c == 'f' {
			s.I += 5
		} else {
			s.I, _ = checkNumber(s.Src, s.I)
		}
		return append(dst, s.Src[start:s.I]...)
	}
}

// number validates the number at s.I by JSON's grammar and moves I past
// it.
func (s *Scanner) number() bool {
	end, ok := checkNumber(s.Src, s.I)
	if ok {
		s.I = end
	}
	return ok
}

// string appends the string at s.I (its quote), which check has found
// valid, with <, >, &, U+2028 and U+2029 escaped, and moves I past it.
func (s *Scanner) string(dst []byte) []byte {
	src := s.Src
	i := s.I + 1
	start := s.I
	for {
		c := src[i]
		switch {
		case c == '"':
			i++
			s.I = i
			return append(dst, src[start:i]...)
		case c == '\\':
			if src[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			i++
			start = i
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			i += 3
			start = i
		default:
			i++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Unquote reads the JSON string whose opening quote is src[at] as
// encoding/json unquotes it: escapes resolved, a lone surrogate and each
// byte of invalid UTF-8 as U+FFFD. next is the index after its closing
// quote; ok is false when src[at:] does not start with a valid string.
func Unquote(src []byte, at int) (s string, next int, ok bool) {
	if at >= len(src) || src[at] != '"' {
		return "", 0, false
	}
	i := at + 1
	start := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return string(src[start:i]), i + 1, true
		case c == '\\':
			return unquoteSlow(src, start, i)
		case c < 0x20:
			return "", 0, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return unquoteSlow(src, start, i)
			}
			i += size
		}
	}
	return "", 0, false
}

// unquoteSlow finishes Unquote from i, with src[start:i] plain.
func unquoteSlow(src []byte, start, i int) (string, int, bool) {
	b := make([]byte, 0, i-start+64) // grows as needed: the rest of the line may hold much more
	b = append(b, src[start:i]...)
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return ownedString(b), i + 1, true
		case c < 0x20:
			return "", 0, false
		case c == '\\':
			if i+1 >= len(src) {
				return "", 0, false
			}
			switch e := src[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(src[i+2:])
				if r < 0 {
					return "", 0, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2 := uEscape(src[i:]); r2 >= 0 {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return "", 0, false
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, src[i:i+size]...)
			}
			i += size
		}
	}
	return "", 0, false
}

// ownedString is b as a string without a copy when b is used tightly: b
// is unquoteSlow's own buffer, never written again, so the string may
// share it (one allocation fewer per escaped string; source files are full
// of \n). One that left much capacity unused is copied instead, so that
// the string does not hold it.
func ownedString(b []byte) string {
	if cap(b)-len(b) > len(b)/4+64 {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// hex4 is the value of the 4 hex digits b starts with, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// uEscape is the value of the \uXXXX escape b starts with, or -1.
func uEscape(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	return hex4(b[2:])
}
