package js

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"
)

// installJSONStringify replaces JSON.stringify with one that indents as
// ECMA-262 says (SerializeJSONArray, SerializeJSONObject): goja's leaves
// its indentation one level deeper after every empty [] or {} when given
// a space argument, so `JSON.stringify({ errors: [], data: { a: 1 } },
// null, 2)` came out misaligned. The intrinsic writes the JSON compactly
// (replacer, toJSON, cycles and errors are its own), and a given gap is
// laid out here, as encoding/json's Indent lays out compact JSON: the
// same text the specification's algorithm writes.
func (e *Runtime) installJSONStringify() {
	vm := e.vm
	holder := vm.Get("JSON").ToObject(vm)
	stringify, ok := goja.AssertFunction(holder.Get("stringify"))
	if !ok {
		panic("sandbox: missing builtin JSON.stringify")
	}
	e.replace(holder, "stringify", 3, func(c goja.FunctionCall) goja.Value {
		gap := jsonGap(c.Argument(2))
		out := e.callOriginal(stringify, c.This, c.Argument(0), c.Argument(1))
		if gap == "" || !goja.IsString(out) {
			return out // no space given, or undefined (a function, a symbol…)
		}
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(out.String()), "", gap); err != nil {
			return out // not reached: the intrinsic writes JSON
		}
		return vm.ToValue(b.String())
	})
}

// jsonGap is JSON.stringify's gap for its space argument (ECMA-262
// JSON.stringify steps 5–8): a Number or String object is converted first;
// a number gives that many spaces, at most 10; a string its first 10
// UTF-16 code units; anything else none.
func jsonGap(space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = o.ToNumber()
		case "String":
			space = o.ToString()
		}
	}
	switch {
	case isNumber(space):
		f := space.ToFloat()
		if math.IsNaN(f) || f < 1 {
			return ""
		}
		return strings.Repeat(" ", int(min(10, f)))
	case goja.IsString(space):
		s := space.String()
		if u := utf16.Encode([]rune(s)); len(u) > 10 {
			s = string(utf16.Decode(u[:10]))
		}
		return s
	}
	return ""
}
