package js

import (
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// installJSONParse replaces JSON.parse with a wrapper that rethrows goja's
// SyntaxError with V8's wording (parity.V8JSONError).
func (e *Runtime) installJSONParse() {
	vm := e.vm
	json := vm.Get("JSON").ToObject(vm)
	parse := e.builtinFunc(json, "parse")
	// The runtime's own parsing (input, host replies) keeps the intrinsic:
	// no snippet code has run yet, so this is it (lazyBuiltin would refuse
	// the wrapper as a replacement).
	e.b.JSONParse = parse
	e.replace(json, "parse", 2, func(c goja.FunctionCall) goja.Value {
		// ToString(text) once, here (its toString is the snippet's and may
		// count its calls); the intrinsic then gets the string.
		text := c.Argument(0).ToString()
		args := append([]goja.Value{text}, c.Arguments[min(1, len(c.Arguments)):]...)
		v, err := parse(c.This, args...)
		if err == nil {
			return v
		}
		if s, ok := text.Export().(string); ok && isThrownError(err) {
			if msg, bad := parity.V8JSONError(s); bad {
				e.throw("SyntaxError", msg) // the reviver runs only after a successful parse: this is the parser's
			}
			if strings.Contains(err.Error(), "cannot unmarshal number") {
				// Valid JSON that goja's parser (Go's encoding/json) refuses:
				// a number past float64's range.
				e.throw("SyntaxError", "JSON.parse: a number in this JSON is beyond ±1.8e308, which this runtime cannot read (Node reads it as ±Infinity)")
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

// installJSONStringify replaces JSON.stringify with one that indents as
// ECMA-262 says (SerializeJSONArray, SerializeJSONObject): goja's leaves
// its indentation one level deeper after every empty [] or {} when given
// a space argument, so `JSON.stringify({ errors: [], data: { a: 1 } },
// null, 2)` came out misaligned. The intrinsic writes the JSON compactly
// (replacer, toJSON, cycles and errors are its own), and a given gap is
// laid out here (parity.IndentJSON). One difference in order: the space argument
// is converted before a replacer array's entries (ECMA-262 converts it
// after them), which only a valueOf or toString of the snippet's sees.
func (e *Runtime) installJSONStringify() {
	vm := e.vm
	holder := vm.Get("JSON").ToObject(vm)
	stringify := e.builtinFunc(holder, "stringify")
	e.replace(holder, "stringify", 3, func(c goja.FunctionCall) goja.Value {
		gap := parity.JSONGap(c.Argument(2))
		out := e.callOriginal(stringify, c.This, c.Argument(0), c.Argument(1))
		if gap == "" || !goja.IsString(out) {
			return out // no space given, or undefined (a function, a symbol…)
		}
		return vm.ToValue(parity.IndentJSON(out.String(), gap))
	})
}
