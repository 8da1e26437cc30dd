package jsonwire

import (
	"encoding/json"
	"strconv"
)

// The decoding primitives of the hand-written decoders (ws's run message,
// the pipe's lines). Each reads one JSON value (RFC 8259) at I, which must
// be at the value's first byte (Object and Array skip the whitespace
// around the values they walk; Top skips it around the whole text), and
// stores it as json.Unmarshal would into the Go type named. Each reports
// false, leaving its target in an unspecified state, when the value is not
// in the plain form it takes: a null, a value of another JSON type, a
// number out of the target's range or (for integers) with a fraction or an
// exponent, an object key it does not know or one seen twice. False means
// "not this form", not "invalid": the caller then decodes the whole text
// with encoding/json, which gives the precise result or error. None of them
// reads past len(Src) or panics on any input.

// Top reads a whole JSON text: whitespace, the one value value reads,
// whitespace, and nothing after. It reports whether value did and the text
// ended there.
func (s *Scanner) Top(value func() bool) bool {
	s.SkipSpace()
	if !value() {
		return false
	}
	s.SkipSpace()
	return s.I == len(s.Src)
}

// Object reads an object whose keys are all among keys (at most 64),
// spelled exactly and each at most once, calling field at each member with
// its key's index in keys, I at the member's value. It reports false on
// any other key (encoding/json would match keys case-insensitively, take a
// key with escapes, keep the last of repeated ones: those are left to it),
// when field does, or when the object is malformed.
func (s *Scanner) Object(keys []string, field func(k int) bool) bool {
	var seen uint64
	return s.list('{', '}', func() bool {
		k := s.Key(keys)
		if k < 0 || k >= 64 || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		return s.colon() && field(k)
	})
}

// Key reads an object key written without escapes and returns its index in
// keys, or -1 (I then unspecified) when it is not a string, has an escape
// or is not among keys.
func (s *Scanner) Key(keys []string) int {
	if s.I >= len(s.Src) || s.Src[s.I] != '"' {
		return -1
	}
	j := s.I + 1
	for j < len(s.Src) && s.Src[j] != '"' && s.Src[j] != '\\' {
		j++
	}
	if j >= len(s.Src) || s.Src[j] != '"' {
		return -1
	}
	k := s.Src[s.I+1 : j]
	s.I = j + 1
	for n, want := range keys {
		if string(k) == want {
			return n
		}
	}
	return -1
}

// Array reads an array, calling elem with I at each element. It reports
// false when elem does or the array is malformed.
func (s *Scanner) Array(elem func() bool) bool { return s.list('[', ']', elem) }

// list is the one walker of Array, Object and RawMap: it reads the open
// byte, then items separated by commas up to the close byte, with
// whitespace around each; item reads one (I at its first byte: an
// element, or a member's key). It reports false when item does or the
// text is malformed.
func (s *Scanner) list(open, close byte, item func() bool) bool {
	if s.I >= len(s.Src) || s.Src[s.I] != open {
		return false
	}
	s.I++
	s.SkipSpace()
	if s.I < len(s.Src) && s.Src[s.I] == close {
		s.I++
		return true
	}
	for {
		if !item() {
			return false
		}
		s.SkipSpace()
		if s.I >= len(s.Src) {
			return false
		}
		switch s.Src[s.I] {
		case ',':
			s.I++
			s.SkipSpace()
		case close:
			s.I++
			return true
		default:
			return false
		}
	}
}

// colon reads the colon after a member's key, with the whitespace around
// it, leaving I at the member's value.
func (s *Scanner) colon() bool {
	s.SkipSpace()
	if s.I >= len(s.Src) || s.Src[s.I] != ':' {
		return false
	}
	s.I++
	s.SkipSpace()
	return true
}

// Str reads a string into v as json.Unmarshal does (Unquote: escapes
// resolved, invalid UTF-8 and lone surrogates as U+FFFD). It reports false
// for anything but a valid string.
func (s *Scanner) Str(v *string) bool {
	str, next, ok := Unquote(s.Src, s.I)
	if ok {
		*v, s.I = str, next
	}
	return ok
}

// Bool reads true or false into v; false for anything else.
func (s *Scanner) Bool(v *bool) bool {
	switch {
	case len(s.Src)-s.I >= 4 && string(s.Src[s.I:s.I+4]) == "true":
		*v = true
		s.I += 4
	case len(s.Src)-s.I >= 5 && string(s.Src[s.I:s.I+5]) == "false":
		*v = false
		s.I += 5
	default:
		return false
	}
	return true
}

// Int64 reads an integer written without fraction or exponent (RFC 8259's
// int, with its optional minus) into v, as json.Unmarshal fills an int64.
// It reports false for a number with a fraction or an exponent (which
// encoding/json refuses for an integer, even 1e3 or 1.0), one outside
// [-2⁶³, 2⁶³-1] (encoding/json's overflow error), a leading zero (invalid
// JSON) and anything but a number.
func (s *Scanner) Int64(v *int64) bool {
	i := s.I
	neg := i < len(s.Src) && s.Src[i] == '-'
	if neg {
		i++
	}
	start := i
	var n uint64
	for i < len(s.Src) && s.Src[i] >= '0' && s.Src[i] <= '9' {
		if n > (1<<63)/10 {
			return false
		}
		n = n*10 + uint64(s.Src[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 1 && s.Src[start] == '0' || n > 1<<63 || !neg && n == 1<<63 {
		return false
	}
	if i < len(s.Src) && (s.Src[i] == '.' || s.Src[i] == 'e' || s.Src[i] == 'E') {
		return false
	}
	s.I = i
	if neg {
		*v = -int64(n)
	} else {
		*v = int64(n)
	}
	return true
}

// Int is Int64 for an int: false also when the value does not fit the
// platform's int (encoding/json's overflow error).
func (s *Scanner) Int(v *int) bool {
	var n int64
	if !s.Int64(&n) || int64(int(n)) != n {
		return false
	}
	*v = int(n)
	return true
}

// Float64 reads a number (RFC 8259 section 6 grammar) into v as
// json.Unmarshal fills a float64 (strconv.ParseFloat, round to nearest).
// It reports false for anything but a number and for a number beyond
// ±math.MaxFloat64 such as 1e999 (encoding/json's range error).
func (s *Scanner) Float64(v *float64) bool {
	start := s.I
	if !s.number() {
		return false
	}
	f, err := strconv.ParseFloat(string(s.Src[start:s.I]), 64)
	if err != nil {
		s.I = start
		return false
	}
	*v = f
	return true
}

// Raw reads any valid JSON value but null into v, as its bytes in Src
// (shared, not copied; v's capacity ends with the value, so an append to v
// never writes into Src), as json.Unmarshal fills a json.RawMessage. It
// reports false for null (encoding/json stores the literal null, or leaves
// a pointer nil: its own rule) and for an invalid value, nested deeper than
// 10,000 included.
func (s *Scanner) Raw(v *json.RawMessage) bool {
	start := s.I
	if !s.Skip() {
		return false
	}
	if string(s.Src[start:s.I]) == "null" {
		return false
	}
	*v = s.Src[start:s.I:s.I]
	return true
}

// Raws reads an array of raw values (Raw) into v: an empty, non-nil slice
// for [], as json.Unmarshal makes it.
func (s *Scanner) Raws(v *[]json.RawMessage) bool {
	out := []json.RawMessage{}
	ok := s.Array(func() bool {
		var r json.RawMessage
		if !s.Raw(&r) {
			return false
		}
		out = append(out, r)
		return true
	})
	*v = out
	return ok
}

// Strs reads an array of strings (Str) into v: an empty, non-nil slice for
// [], as json.Unmarshal makes it.
func (s *Scanner) Strs(v *[]string) bool {
	out := []string{}
	ok := s.Array(func() bool {
		var str string
		if !s.Str(&str) {
			return false
		}
		out = append(out, str)
		return true
	})
	*v = out
	return ok
}

// RawMap reads an object of raw values (Raw) with any keys into v, as
// json.Unmarshal fills a map[string]json.RawMessage: keys unquoted (Str),
// a repeated key's last value kept, a new non-nil map for {}.
func (s *Scanner) RawMap(v *map[string]json.RawMessage) bool {
	if s.I >= len(s.Src) || s.Src[s.I] != '{' {
		return false
	}
	m := map[string]json.RawMessage{}
	*v = m
	return s.list('{', '}', func() bool {
		var k string
		var r json.RawMessage
		if !s.Str(&k) || !s.colon() || !s.Raw(&r) {
			return false
		}
		m[k] = r
		return true
	})
}
