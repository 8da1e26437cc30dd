package js

import "github.com/dop251/goja"

// goja names a Go function after its Go symbol
// ("github.com/…/js.newConsole.(*console).method.func12"), which would show
// in the function's name, its toString() and every stack that passes
// through it. nameNatives gives each function held by o under the given
// keys (all of o's own keys when none are given) the key as its name, so
// built-ins look native: `function log() { [native code] }`, `at log
// (native)`. goja uses the name property for all three. Every function
// held there must be the runtime's own Go function (a JS one keeps its
// name anyway). It costs a few µs per runtime.
func (e *Runtime) nameNatives(o *goja.Object, keys ...string) {
	if len(keys) == 0 {
		keys = o.Keys()
	}
	for _, k := range keys {
		fn, ok := o.Get(k).(*goja.Object)
		if !ok {
			continue
		}
		if _, callable := goja.AssertFunction(fn); callable {
			_ = fn.DefineDataProperty("name", e.vm.ToValue(k), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
	}
}
