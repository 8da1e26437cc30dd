package jsonwire

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

// The encoding primitives of the hand-written encoders (ws's server
// messages, the pipe's lines), beside AppendString and AppendCompact. Each
// appends to dst the bytes json.Marshal writes for the Go value named and
// returns the extended slice, as strconv's Append functions do. Those that
// can meet a value json.Marshal refuses report false and then return dst
// as it was: the caller falls back to json.Marshal, which reports the
// error. Integers and booleans need nothing of their own: json.Marshal
// writes them as strconv.AppendInt, AppendUint and AppendBool do.

// AppendKey appends an object member's key and colon, preceded by a comma
// unless dst ends with the object's opening brace, so that a run of
// AppendKey and value appends after '{' writes a well-formed object. k is
// written as it is, between quotes: it must be a key that needs no
// escaping (the encoders' keys are constants of letters).
func AppendKey(dst []byte, k string) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, k...)
	return append(dst, '"', ':')
}

// AppendFloat appends f as json.Marshal writes a float64: the shortest
// decimal that reads back as f, in 'f' form for 1e-6 ≤ |f| < 1e21 (and 0)
// and otherwise in 'e' form with the exponent's sign and without a leading
// zero (1e-7, 1e+21), as ECMAScript's Number::toString does (ECMA-262
// section 6.1.6.1.20; encoding/json's floatEncoder). It reports false for
// ±Inf and NaN, which json.Marshal refuses (json.UnsupportedValueError).
func AppendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	dst = strconv.AppendFloat(dst, f, fmt, -1, 64)
	if fmt == 'e' {
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// AppendRaw appends r as json.Marshal writes a json.RawMessage: null for a
// nil one, any other compacted with its strings made HTML-safe
// (AppendCompact). It reports false when r is not exactly one valid JSON
// value, an empty non-nil r included (json.Marshal's "unexpected end of
// JSON input"), and when its strings are not valid UTF-8 (json.Marshal
// copies them: a caller's fallback to it writes the same bytes).
func AppendRaw(dst []byte, r json.RawMessage) ([]byte, bool) {
	if r == nil {
		return append(dst, "null"...), true
	}
	return AppendCompact(dst, r)
}

// AppendRaws appends rs as json.Marshal writes a []json.RawMessage: null
// for nil, else an array of AppendRaw's values. It reports false when one
// of them is invalid.
func AppendRaws(dst []byte, rs []json.RawMessage) ([]byte, bool) {
	if rs == nil {
		return append(dst, "null"...), true
	}
	n := len(dst)
	dst = append(dst, '[')
	for i, r := range rs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		if dst, ok = AppendRaw(dst, r); !ok {
			return dst[:n], false
		}
	}
	return append(dst, ']'), true
}

// AppendStrings appends ss as json.Marshal writes a []string: null for
// nil, else an array of AppendString's strings.
func AppendStrings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}

// AppendRawMap appends m as json.Marshal writes a
// map[string]json.RawMessage: null for nil, else an object with the keys
// in sorted (byte-wise) order, as encoding/json sorts a map's string keys,
// escaped by AppendString, and the values by AppendRaw. It reports false
// when a value is invalid.
func AppendRawMap(dst []byte, m map[string]json.RawMessage) ([]byte, bool) {
	if m == nil {
		return append(dst, "null"...), true
	}
	if len(m) == 0 {
		return append(dst, '{', '}'), true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	n := len(dst)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		var ok bool
		if dst, ok = AppendRaw(dst, m[k]); !ok {
			return dst[:n], false
		}
	}
	return append(dst, '}'), true
}
