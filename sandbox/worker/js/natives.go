package js

import (
	"strconv"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

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
			nameFn(e.vm, fn, k)
		}
	}
}

// nameFn gives fn Node's name property: name, not writable, not
// enumerable, configurable (a Go function's own is goja's symbol name).
func nameFn(vm *goja.Runtime, fn *goja.Object, name string) {
	_ = fn.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// setNative sets o[name] (writable, enumerable, configurable, as an
// assignment does) to the Go function fn named name, as nameNatives would:
// cheaper than naming o's functions afterwards (which lists o's keys).
func (e *Runtime) setNative(o *goja.Object, name string, fn func(goja.FunctionCall) goja.Value) error {
	f := e.vm.ToValue(fn).(*goja.Object)
	nameFn(e.vm, f, name)
	return o.Set(name, f)
}

// markNative records fn as a built-in named name: Function.prototype.toString
// (installNativeToString) prints it as `function name() { [native code] }`
// rather than its JavaScript source (the polyfills are JavaScript).
func (e *Runtime) markNative(fn *goja.Object, name string) {
	if e.poly.natives == nil {
		e.poly.natives = map[*goja.Object]string{}
	}
	e.poly.natives[fn] = name
}

// installNativeToString replaces Function.prototype.toString with one that
// prints the functions markNative recorded as native code, and every other
// function as goja does. It looks native itself.
func (e *Runtime) installNativeToString() {
	vm := e.vm
	proto := e.functionPrototype()
	orig, ok := goja.AssertFunction(proto.Get("toString"))
	if !ok {
		panic("sandbox: missing builtin Function.prototype.toString")
	}
	e.replace(proto, "toString", 0, func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			if name, ok := e.poly.natives[o]; ok {
				return vm.ToValue("function " + name + "() { [native code] }")
			}
		}
		return e.callOriginal(orig, c.This, c.Arguments...)
	})
}

// nativeTree makes a polyfill's export look native: fn itself (named
// name), and when it is a class or constructor, its static methods and
// its prototype's methods and accessors ("get href"). Anonymous functions
// (core-js's minified URL) get their key as their name.
func (e *Runtime) nativeTree(fn *goja.Object, name string) {
	e.nativeFn(fn, name)
	e.nativeMembers(fn, "")
	if p, ok := e.enc.OwnData(fn, "prototype"); ok {
		if po, ok := p.(*goja.Object); ok {
			e.nativeMembers(po, "")
		}
	}
}

// nativeExports runs nativeTree on each function a polyfill group exports
// (its own properties, enumerable or not), named by its key.
func (e *Runtime) nativeExports(out *goja.Object) {
	keys, err := e.b.OwnKeys(goja.Undefined(), out)
	if err != nil {
		return
	}
	ko := keys.ToObject(e.vm)
	for i := range int(ko.Get("length").ToInteger()) {
		k, ok := intrinsic.PrimitiveString(ko.Get(strconv.Itoa(i)))
		if !ok {
			continue
		}
		// A group's exports are the runtime's own objects (core-js's
		// URL exports are getters): reading them runs no snippet code.
		if fn, ok := out.Get(k).(*goja.Object); ok {
			e.nativeTree(fn, k)
		}
	}
}

func (e *Runtime) nativeFn(fn *goja.Object, name string) {
	if _, ok := goja.AssertFunction(fn); !ok {
		return
	}
	if cur, ok := e.enc.OwnData(fn, "name"); !ok || cur.String() != name {
		_ = fn.DefineDataProperty("name", e.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	e.markNative(fn, name)
}

// nativeMembers marks o's own function-valued properties and accessors.
func (e *Runtime) nativeMembers(o *goja.Object, prefix string) {
	keys, err := e.b.OwnKeys(goja.Undefined(), o)
	if err != nil {
		return
	}
	ko := keys.ToObject(e.vm)
	n := int(ko.Get("length").ToInteger())
	for i := range n {
		k, ok := intrinsic.PrimitiveString(ko.Get(strconv.Itoa(i)))
		if !ok || k == "prototype" || k == "constructor" || k == "name" || k == "length" {
			continue
		}
		d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(k))
		if err != nil || goja.IsUndefined(d) {
			continue
		}
		desc := d.ToObject(e.vm)
		for _, f := range [...]struct{ key, name string }{{"value", prefix + k}, {"get", "get " + k}, {"set", "set " + k}} {
			if v, _ := inspect.DescField(desc, f.key); v != nil {
				if fn, ok := v.(*goja.Object); ok {
					e.nativeFn(fn, f.name)
				}
			}
		}
	}
}

// functionPrototype is Function.prototype, read before any snippet code
// runs as the prototype of Object (built already: newBuiltins), so that a
// plain run does not build the Function constructor.
func (e *Runtime) functionPrototype() *goja.Object {
	return e.vm.Get("Object").ToObject(e.vm).Prototype()
}
