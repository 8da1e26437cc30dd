package parity

import (
	"math"
	reflectpkg "reflect"
	"strconv"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Defining an element of a typed array with a descriptor that has no
// value (`Object.defineProperty(new Uint8Array(4), 0, {})`) dereferences
// goja's nil value: a Go panic that ended the run with an uncatchable
// error (issue 22, found by js.FuzzBuiltins). ECMA-262 (TypedArray
// [[DefineOwnProperty]]) answers without setting anything: false for an
// index out of range, an accessor, or a configurable, enumerable or
// writable of false; true otherwise. These guards answer so for such a
// descriptor and leave everything else to goja. They come with
// GuardTypedArrayFrom, which a program that names a typed array (or
// TextEncoder, which makes one) gets: every bundle names defineProperty
// (esbuild's helpers), so keying them by that name would cost every run.
//
// Patch for: goja's typed array defineOwnProperty with no value. Upstream:
// none filed as of 2026-11.

// installDefineGuards replaces Object.defineProperty,
// Object.defineProperties and Reflect.defineProperty.
func (p *Patcher) installDefineGuards(original func(*goja.Object, string) goja.Callable) {
	vm := p.vm
	object := vm.Get("Object").ToObject(vm)
	reflect := vm.Get("Reflect").ToObject(vm)
	define := original(object, "defineProperty")
	p.replace(object, "defineProperty", 3, func(c goja.FunctionCall) goja.Value {
		if ok, handled := p.defineElement(c.Argument(0), c.Argument(1), c.Argument(2)); handled {
			if !ok {
				p.h.Throw("TypeError", "Cannot redefine property: "+c.Argument(1).String())
			}
			return c.Argument(0)
		}
		return call(define, c.This, c.Arguments...)
	})
	reflectDefine := original(reflect, "defineProperty")
	p.replace(reflect, "defineProperty", 3, func(c goja.FunctionCall) goja.Value {
		if ok, handled := p.defineElement(c.Argument(0), c.Argument(1), c.Argument(2)); handled {
			return vm.ToValue(ok)
		}
		return call(reflectDefine, c.This, c.Arguments...)
	})
	defineAll := original(object, "defineProperties")
	p.replace(object, "defineProperties", 2, func(c goja.FunctionCall) goja.Value {
		target, props := c.Argument(0), c.Argument(1)
		t, isObject := target.(*goja.Object)
		po, propsObject := props.(*goja.Object)
		if !isObject || !propsObject || !intrinsic.IsTypedArray(t) {
			return call(defineAll, c.This, c.Arguments...)
		}
		// Each own enumerable property of props, one at a time (the spec
		// reads them all first; the results are the same).
		keys := call(original(object, "keys"), object, po).ToObject(vm)
		for i := range int(keys.Get("length").ToInteger()) {
			k := keys.Get(strconv.Itoa(i))
			desc := po.Get(k.String())
			if desc == nil {
				desc = goja.Undefined()
			}
			if ok, handled := p.defineElement(t, k, desc); handled {
				if !ok {
					p.h.Throw("TypeError", "Cannot redefine property: "+k.String())
				}
				continue
			}
			call(define, object, t, k, desc)
		}
		return t
	})
}

// defineElement handles defining key on target when target is a typed
// array, key a numeric index and desc an object without a value: handled
// reports whether it applied, ok the spec's answer. desc's fields are read
// as ToPropertyDescriptor reads them (its getters and traps run).
func (p *Patcher) defineElement(target, key, desc goja.Value) (ok, handled bool) {
	t, isObject := target.(*goja.Object)
	d, descObject := desc.(*goja.Object)
	if !isObject || !descObject || !intrinsic.IsTypedArray(t) {
		return false, false
	}
	if _, isSymbol := key.(*goja.Symbol); isSymbol {
		return false, false
	}
	s := key.String()
	n, err := strconv.ParseFloat(s, 64)
	if s != "-0" && (err != nil || p.vm.ToValue(n).String() != s) {
		return false, false // not a canonical numeric index: an ordinary property
	}
	has := func(name string) bool {
		v, err := p.b.ReflectHas(goja.Undefined(), d, p.vm.ToValue(name))
		if err != nil {
			panic(err)
		}
		return v.ToBoolean()
	}
	if has("value") {
		return false, false // goja sets it
	}
	isFalse := func(name string) bool {
		if !has(name) {
			return false
		}
		v := d.Get(name)
		return v == nil || !v.ToBoolean()
	}
	valid := s != "-0" && n == math.Trunc(n) && n >= 0 && n < float64(reflectpkg.ValueOf(t.Export()).Len())
	bad := isFalse("configurable") || isFalse("enumerable") || has("get") || has("set") || isFalse("writable")
	return valid && !bad, true
}
