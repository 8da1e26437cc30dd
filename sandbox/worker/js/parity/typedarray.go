package parity

import (
	"github.com/dop251/goja"
)

// InstallTypedArrayFrom replaces %TypedArray%.from, which every typed
// array class inherits: goja's refuses a primitive source ("Value is not
// an object"), where ECMA-262 iterates a string by code points (the
// base64 idiom Uint8Array.from(atob(s), (c) => c.charCodeAt(0))) and
// reads any other primitive as an array-like object (no length: empty).
//
// Parity patch. Patch for: goja's %TypedArray%.from throws "Value is not
// an object" for a primitive source. Upstream: no upstream issue found as
// of 2026-11.
func (p *Patcher) InstallTypedArrayFrom() {
	vm := p.vm
	arr := vm.NewArray().Prototype()
	p.noteArrayValues(arr)
	// The constructors iterate an iterable argument in Go: an array
	// iterator checks the interrupt (iterguard.go).
	p.installIteratorGuard(arr)
	typedArray := vm.Get("Uint8Array").ToObject(vm).Prototype()
	from := builtinFunc(typedArray, "from")
	p.replace(typedArray, "from", 1, func(c goja.FunctionCall) goja.Value {
		args := c.Arguments
		src := c.Argument(0)
		if _, isObject := src.(*goja.Object); !isObject && !goja.IsUndefined(src) && !goja.IsNull(src) {
			args = append([]goja.Value{p.primitiveItems(src)}, args[1:]...)
		}
		return call(from, c.This, p.guardedSource(args, 0, true)...)
	})
	// set of an array-like reads it element by element in Go: behind a
	// loopProxy (loops.go), a long one stops at the run's interrupt.
	proto := typedArray.Get("prototype").ToObject(vm)
	set := builtinFunc(proto, "set")
	p.replace(proto, "set", 1, func(c goja.FunctionCall) goja.Value {
		return call(set, c.This, p.guardedSource(c.Arguments, 0, false)...)
	})
}

// primitiveItems is what TypedArray.from reads of a primitive source: a
// string's code points (its iterator's values), any other primitive as an
// object (its length undefined: nothing).
func (p *Patcher) primitiveItems(v goja.Value) goja.Value {
	s, ok := v.(goja.String)
	if !ok {
		return v.ToObject(p.vm)
	}
	// By code points, in UTF-16 as the string iterator goes: a surrogate
	// pair is one item, a lone surrogate its own (a Go string would make
	// it U+FFFD).
	n := s.Length()
	items := make([]any, 0, n)
	for i := 0; i < n; i++ {
		end := i + 1
		if c := s.CharAt(i); c >= 0xd800 && c < 0xdc00 && end < n {
			if d := s.CharAt(end); d >= 0xdc00 && d < 0xe000 {
				end++
			}
		}
		items = append(items, s.Substring(i, end))
		i = end - 1
	}
	return p.vm.NewArray(items...)
}
