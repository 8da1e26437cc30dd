package parity

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/dop251/goja"
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

// InstallParseInt replaces parseInt (Number.parseInt is the same
// function): goja accumulates decimal digits in a float64, so past 2^53
// its result drifts from the correctly rounded one V8 gives
// (parseInt("123456789012345678901") was 123456789012345670000, Node's
// 123456789012345680000). The intrinsic parses; a decimal result that
// large is parsed again from its digits, rounded once. The arguments are
// converted once, in ECMA-262's order (string, then radix).
func (p *Patcher) InstallParseInt() {
	vm := p.vm
	global := vm.GlobalObject()
	parseInt := builtinFunc(global, "parseInt")
	replaced := func(c goja.FunctionCall) goja.Value {
		s := c.Argument(0).ToString()
		radix := goja.Value(goja.Undefined())
		if !goja.IsUndefined(c.Argument(1)) {
			radix = vm.ToValue(c.Argument(1).ToNumber())
		}
		v := call(parseInt, goja.Undefined(), s, radix)
		if f := ExactParseInt(s.String(), toInt32(radix.ToFloat()), v.ToFloat()); f != v.ToFloat() {
			return vm.ToValue(f)
		}
		return v
	}
	// %i keeps the intrinsic, read before any snippet code (intrinsic.Builtins.lazy
	// would refuse the wrapper as a replacement), and corrects it alike.
	p.b.ParseInt = parseInt
	p.replace(global, "parseInt", 2, replaced)
	must(vm.Get("Number").ToObject(vm).DefineDataProperty("parseInt", global.Get("parseInt"), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE))
}

// toInt32 is ECMA-262's ToInt32 of a number: NaN and ±∞ are 0, else
// the integer part modulo 2^32, as a signed 32-bit integer.
func toInt32(f float64) int32 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int32(uint32(int64(math.Mod(math.Trunc(f), 1<<32))))
}
