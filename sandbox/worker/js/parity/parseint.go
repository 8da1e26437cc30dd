package parity

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ExactParseInt is f, goja's parseInt of s in radix (ToInt32 of the
// argument, 0 when none), correctly rounded when it is a decimal integer
// past 2^53 (parsed again from its digits, rounded once).
//
// Patch for: goja's parseInt accumulates a long decimal in float64 and
// drifts from the correctly rounded result past 2^53 (V8 rounds once).
// Upstream: no upstream issue found as of 2026-11. Delete it, with
// js.installParseInt and its use in inspect's %i, when goja rounds once.
func ExactParseInt(s string, radix int32, f float64) float64 {
	if math.Abs(f) < 1<<53 || math.IsNaN(f) || radix != 0 && radix != 10 {
		return f
	}
	if exact, ok := decimalPrefix(s); ok {
		return exact
	}
	return f
}

// decimalPrefix is the number the leading decimal integer of s writes
// (after JavaScript's white space and a sign), correctly rounded; ok is
// false when s starts otherwise (a hex prefix, no digit).
func decimalPrefix(s string) (float64, bool) {
	s = strings.TrimLeftFunc(s, isJSSpace)
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits || strings.HasPrefix(s[digits:], "0x") || strings.HasPrefix(s[digits:], "0X") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	return f, err == nil
}

// isJSSpace reports whether r is white space or a line terminator to
// ECMA-262 (WhiteSpace, LineTerminator): what parseInt skips.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u2028', '\u2029', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}
