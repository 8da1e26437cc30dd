package parity

import (
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"math"
	"strings"

	"github.com/dop251/goja"
)

// JSONGap is JSON.stringify's gap for its space argument (ECMA-262
// JSON.stringify steps 5–8): a Number or String object is converted first;
// a number gives that many spaces, at most 10; a string its first 10
// UTF-16 code units (only those are read: the space may be huge); anything
// else none.
//
// Patch for: goja's JSON.stringify, given a space argument, leaves its
// indentation one level deeper after every empty [] or {}. Upstream: no
// upstream issue found as of 2026-11. Delete JSONGap, IndentJSON and
// js.installJSONStringify when goja indents as ECMA-262 says.
func JSONGap(space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = o.ToNumber()
		case "String":
			space = o.ToString()
		}
	}
	switch {
	case intrinsic.IsNumber(space):
		f := space.ToFloat()
		if math.IsNaN(f) || f < 1 {
			return ""
		}
		return strings.Repeat(" ", int(min(10, f)))
	case goja.IsString(space):
		s := space.(goja.String)
		return s.Substring(0, min(10, s.Length())).String()
	}
	return ""
}

// IndentJSON lays out compact JSON (as JSON.stringify writes it without a
// gap) with gap, as ECMA-262's serialization does with one: each member
// on its own line, indented by gap per level, "key": value, and an empty
// [] or {} kept as it is. The output's size is counted first, so it is
// written into one allocation of exactly that size (the text can be tens
// of MiB, counted against the run's memory). It walks the text once per
// pass, with no recursion: any depth.
func IndentJSON(compact, gap string) string {
	var b strings.Builder
	b.Grow(layoutJSON(compact, gap, nil))
	layoutJSON(compact, gap, &b)
	return b.String()
}

// layoutJSON writes compact's layout to b (nil: only counts) and returns
// its length in bytes.
func layoutJSON(compact, gap string, b *strings.Builder) int {
	n, depth := 0, 0
	write := func(s string) {
		n += len(s)
		if b != nil {
			b.WriteString(s)
		}
	}
	newline := func() {
		write("\n")
		for range depth {
			write(gap)
		}
	}
	inString := false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			switch c {
			case '\\':
				write(compact[i : i+2])
				i++
				continue
			case '"':
				inString = false
			}
			write(compact[i : i+1])
			continue
		}
		switch c {
		case '"':
			inString = true
			write(`"`)
		case '[', '{':
			if i+1 < len(compact) && (compact[i+1] == ']' || compact[i+1] == '}') {
				write(compact[i : i+2]) // [] or {}
				i++
				continue
			}
			write(compact[i : i+1])
			depth++
			newline()
		case ']', '}':
			depth--
			newline()
			write(compact[i : i+1])
		case ',':
			write(",")
			newline()
		case ':':
			write(": ")
		default:
			write(compact[i : i+1])
		}
	}
	return n
}

// InstallJSONStringify replaces JSON.stringify with one that indents as
// ECMA-262 says (SerializeJSONArray, SerializeJSONObject): goja's leaves
// its indentation one level deeper after every empty [] or {} when given
// a space argument, so `JSON.stringify({ errors: [], data: { a: 1 } },
// null, 2)` came out misaligned. The intrinsic writes the JSON compactly
// (replacer, toJSON, cycles and errors are its own), and a given gap is
// laid out here (IndentJSON). One difference in order: the space argument
// is converted before a replacer array's entries (ECMA-262 converts it
// after them), which only a valueOf or toString of the snippet's sees.
func (p *Patcher) InstallJSONStringify() {
	vm := p.vm
	holder := vm.Get("JSON").ToObject(vm)
	stringify := builtinFunc(holder, "stringify")
	p.replace(holder, "stringify", 3, func(c goja.FunctionCall) goja.Value {
		gap := JSONGap(c.Argument(2))
		out := call(stringify, c.This, c.Argument(0), c.Argument(1))
		if gap == "" || !goja.IsString(out) {
			return out // no space given, or undefined (a function, a symbol…)
		}
		return vm.ToValue(IndentJSON(out.String(), gap))
	})
}
