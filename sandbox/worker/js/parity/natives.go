package parity

import (
	"strconv"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// goja names a Go function after its Go symbol
// ("github.com/…/js.newConsole.(*console).method.func12"), which would show
// in the function's name, its toString() and every stack that passes
// through it. NameNatives gives each function held by o under the given
// keys (all of o's own keys when none are given) the key as its name, so
// built-ins look native: `function log() { [native code] }`, `at log
// (native)`. goja uses the name property for all three. Every function
// held there must be the runtime's own Go function (a JS one keeps its
// name anyway). It costs a few µs per runtime.
//
// Patch for: goja names a Go function after its Go symbol, and
// Function.prototype.toString prints a polyfill's JavaScript source where
// V8 prints "[native code]". Upstream: no upstream issue found as of
// 2026-11 (the Go symbol is goja's documented default). Delete when goja
// lets an embedder name a Go function and mark it native.
func (p *Patcher) NameNatives(o *goja.Object, keys ...string) {
	if len(keys) == 0 {
		keys = o.Keys()
	}
	for _, k := range keys {
		fn, ok := o.Get(k).(*goja.Object)
		if !ok {
			continue
		}
		if _, callable := goja.AssertFunction(fn); callable {
			NameFn(p.vm, fn, k)
		}
	}
}

// NameFn gives fn Node's name property: name, not writable, not
// enumerable, configurable (a Go function's own is goja's symbol name).
func NameFn(vm *goja.Runtime, fn *goja.Object, name string) {
	_ = fn.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// SetNative sets o[name] (writable, enumerable, configurable, as an
// assignment does) to the Go function fn named name, as NameNatives would:
// cheaper than naming o's functions afterwards (which lists o's keys).
func SetNative(vm *goja.Runtime, o *goja.Object, name string, fn func(goja.FunctionCall) goja.Value) error {
	f := vm.ToValue(fn).(*goja.Object)
	NameFn(vm, f, name)
	return o.Set(name, f)
}

// MarkNative records fn as a built-in named name: Function.prototype.toString
// (InstallNativeToString) prints it as `function name() { [native code] }`
// rather than its JavaScript source (the polyfills are JavaScript).
func (p *Patcher) MarkNative(fn *goja.Object, name string) {
	if p.natives == nil {
		p.natives = map[*goja.Object]string{}
	}
	p.natives[fn] = name
}

// InstallNativeToString replaces Function.prototype.toString with one that
// prints the functions MarkNative recorded as native code, and every other
// function as goja does. It looks native itself.
func (p *Patcher) InstallNativeToString() {
	vm := p.vm
	proto := p.vm.Get("Object").ToObject(p.vm).Prototype() // Function.prototype, read without building Function
	orig, ok := goja.AssertFunction(proto.Get("toString"))
	if !ok {
		panic("sandbox: missing builtin Function.prototype.toString")
	}
	p.replace(proto, "toString", 0, func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			if name, ok := p.natives[o]; ok {
				return vm.ToValue("function " + name + "() { [native code] }")
			}
			if o.ExportType() == proxyType {
				// A callable Proxy prints as native code in V8, revoked or
				// not; goja's toString dereferences a revoked one's nil
				// target (a Go panic that ended the run).
				if _, callable := goja.AssertFunction(o); callable {
					return vm.ToValue("function () { [native code] }")
				}
				p.h.Throw("TypeError", "Function.prototype.toString requires that 'this' be a Function")
			}
		}
		return call(orig, c.This, c.Arguments...)
	})
}

// nativeTree makes a polyfill's export look native: fn itself (named
// name), and when it is a class or constructor, its static methods and
// its prototype's methods and accessors ("get href"). Anonymous functions
// (core-js's minified URL) get their key as their name.
func (p *Patcher) nativeTree(fn *goja.Object, name string) {
	p.nativeFn(fn, name)
	p.nativeMembers(fn, "")
	if proto, ok := p.b.OwnData(fn, "prototype"); ok {
		if po, ok := proto.(*goja.Object); ok {
			p.nativeMembers(po, "")
		}
	}
}

// NativeExports runs nativeTree on each function a polyfill group exports
// (its own properties, enumerable or not), named by its key.
func (p *Patcher) NativeExports(out *goja.Object) {
	keys, err := p.b.OwnKeys(goja.Undefined(), out)
	if err != nil {
		return
	}
	ko := keys.ToObject(p.vm)
	for i := range int(ko.Get("length").ToInteger()) {
		k, ok := intrinsic.PrimitiveString(ko.Get(strconv.Itoa(i)))
		if !ok {
			continue
		}
		// A group's exports are the runtime's own objects (core-js's
		// URL exports are getters): reading them runs no snippet code.
		if fn, ok := out.Get(k).(*goja.Object); ok {
			p.nativeTree(fn, k)
		}
	}
}

func (p *Patcher) nativeFn(fn *goja.Object, name string) {
	if _, ok := goja.AssertFunction(fn); !ok {
		return
	}
	if cur, ok := p.b.OwnData(fn, "name"); !ok || cur.String() != name {
		_ = fn.DefineDataProperty("name", p.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	p.MarkNative(fn, name)
}

// nativeMembers marks o's own function-valued properties and accessors.
func (p *Patcher) nativeMembers(o *goja.Object, prefix string) {
	keys, err := p.b.OwnKeys(goja.Undefined(), o)
	if err != nil {
		return
	}
	ko := keys.ToObject(p.vm)
	n := int(ko.Get("length").ToInteger())
	for i := range n {
		k, ok := intrinsic.PrimitiveString(ko.Get(strconv.Itoa(i)))
		if !ok || k == "prototype" || k == "constructor" || k == "name" || k == "length" {
			continue
		}
		d, err := p.b.GetDescriptor(goja.Undefined(), o, p.vm.ToValue(k))
		if err != nil || goja.IsUndefined(d) {
			continue
		}
		desc := d.ToObject(p.vm)
		for _, f := range [...]struct{ key, name string }{{"value", prefix + k}, {"get", "get " + k}, {"set", "set " + k}} {
			if v, _ := intrinsic.DescField(desc, f.key); v != nil {
				if fn, ok := v.(*goja.Object); ok {
					p.nativeFn(fn, f.name)
				}
			}
		}
	}
}
