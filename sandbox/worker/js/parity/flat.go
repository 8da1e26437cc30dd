package parity

import (
	"strconv"

	"github.com/dop251/goja"
)

// Array.prototype.flat and flatMap in Go (ECMA-262 §23.1.3.13–14 and
// FlattenIntoArray, §23.1.3.13.1), which check the run's interrupt.
//
// The loop guards (loops.go) wrap only a method's receiver: goja's flat
// and flatMap walk the arrays nested in it in Go too, so `[S].flat()` (S a
// sparse array of length 2 ** 32 - 1 inside a short receiver) looped past
// the run's deadline. Here every source index read, at any depth, counts
// toward the interrupt check (interruptCounter), so the run ends at its
// deadline with its facts, as Node's runs until it is stopped.
//
// Each step is the specification's, in its order: HasProperty then Get per
// index (a Proxy's has and get traps, getters), the mapper called with
// (element, index, source) and thisArg, IsArray through Proxies,
// ArraySpeciesCreate (constructor, Symbol.species) with V8's TypeError for
// a species that is not a constructor, and CreateDataPropertyOrThrow on a
// species' result (V8's TypeError when it is not extensible). The result
// of a plain array's flat, which no snippet code can reach before it is
// returned, is built at once from its elements. Nesting deeper than
// maxFlatDepth is V8's RangeError "Maximum call stack size exceeded" (a
// cycle flattened with Infinity too).
//
// Patch for: goja's flat and flatMap (builtin_array.go, flattenIntoArray)
// loop in Go over nested arrays without an interrupt check. Delete with
// the loop guards.

// maxFlatDepth is the deepest nesting flat flattens: Node 20 flattens
// 6262 nested arrays with Infinity from the top of a fresh stack and
// throws "Maximum call stack size exceeded" at one more.
const maxFlatDepth = 6262

// installFlat replaces Array.prototype.flat and flatMap on arr, the
// intrinsic Array.prototype.
func (p *Patcher) installFlat(arr *goja.Object, names ...string) {
	p.arrayCtor = arr.Get("constructor").(*goja.Object)
	for _, name := range names {
		mapped := name == "flatMap"
		length := 0
		if mapped {
			length = 1
		}
		p.replace(arr, name, length, func(c goja.FunctionCall) goja.Value {
			return p.flat(c, mapped)
		})
	}
}

// flattener is one flat or flatMap call's state.
type flattener struct {
	p      *Patcher
	mapper goja.Callable
	this   goja.Value
	// target is the species' result; nil: a plain array, whose elements
	// gather in out.
	target *goja.Object
	out    []goja.Value
	n      float64 // the target's next index
	ops    interruptCounter
	depth  int // nested FlattenIntoArray calls
}

// flat is Array.prototype.flat(depth) (mapped false) or
// flatMap(mapper, thisArg) on c.
func (p *Patcher) flat(c goja.FunctionCall, mapped bool) goja.Value {
	vm := p.vm
	if c.This == nil || goja.IsUndefined(c.This) || goja.IsNull(c.This) {
		p.h.Throw("TypeError", "Cannot convert undefined or null to object")
	}
	o := c.This.ToObject(vm)
	n := toLength(lengthOf(o))
	f := &flattener{p: p, ops: interruptCounter{vm: vm}}
	depth := 1.0
	if mapped {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			p.h.Throw("TypeError", "flatMap mapper function is not callable")
		}
		f.mapper, f.this = fn, c.Argument(1)
	} else if d := c.Argument(0); !goja.IsUndefined(d) {
		depth = toIntegerOrInfinity(d.ToNumber().ToFloat())
		if depth < 0 {
			depth = 0
		}
	}
	f.target = p.arraySpeciesCreate(o)
	f.flatten(o, n, depth, mapped)
	if f.target != nil {
		return f.target
	}
	return vm.NewArray(valuesToAny(f.out)...)
}

func valuesToAny(vs []goja.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// arraySpeciesCreate is ArraySpeciesCreate(o, 0), nil for a plain array
// (ArrayCreate(0)): the constructor of an array, or its Symbol.species.
func (p *Patcher) arraySpeciesCreate(o *goja.Object) *goja.Object {
	if !p.isArray(o) {
		return nil
	}
	ctor := o.Get("constructor")
	if co, ok := ctor.(*goja.Object); ok {
		ctor = co.GetSymbol(goja.SymSpecies)
		if ctor != nil && goja.IsNull(ctor) {
			ctor = nil
		}
	}
	if ctor == nil || goja.IsUndefined(ctor) {
		return nil
	}
	if co, ok := ctor.(*goja.Object); ok && co == p.arrayCtor {
		return nil // Array's own species: a plain array
	}
	construct, ok := goja.AssertConstructor(ctor)
	if !ok {
		p.h.Throw("TypeError", "object.constructor[Symbol.species] is not a constructor")
	}
	r, err := construct(nil, p.vm.ToValue(0))
	if err != nil {
		panic(err)
	}
	return r
}

// isArray is IsArray(o): through Proxies to their targets; a revoked
// Proxy is V8's TypeError.
func (p *Patcher) isArray(o *goja.Object) bool {
	for o.ExportType() == proxyType {
		px := o.Export().(goja.Proxy)
		if px.Handler() == nil {
			p.h.Throw("TypeError", "Cannot perform 'IsArray' on a proxy that has been revoked")
		}
		o = px.Target()
	}
	return o.ClassName() == "Array"
}

// flatten is FlattenIntoArray(target, source, n, f.n, depth, mapper,
// thisArg); mapped: the mapper is called (at the top level only).
func (f *flattener) flatten(source *goja.Object, n, depth float64, mapped bool) {
	f.depth++
	if f.depth > maxFlatDepth {
		f.p.h.Throw("RangeError", "Maximum call stack size exceeded")
	}
	p := f.p
	slow := p.hasProxyOnChain(source)
	for i := float64(0); i < n; i++ {
		f.ops.tick()
		key := strconv.FormatFloat(i, 'f', -1, 64)
		var v goja.Value
		if slow {
			if !call(p.b.ReflectHas, goja.Undefined(), source, p.vm.ToValue(key)).ToBoolean() {
				continue
			}
			if v = source.Get(key); v == nil {
				v = goja.Undefined()
			}
		} else if v = source.Get(key); v == nil {
			continue // a hole: no own or inherited property
		}
		if mapped {
			v = call(f.mapper, f.this, v, p.vm.ToValue(i), source)
		}
		if e, ok := v.(*goja.Object); ok && depth > 0 && p.isArray(e) {
			f.flatten(e, toLength(lengthOf(e)), depth-1, false) // Infinity - 1 is Infinity
			continue
		}
		f.add(v)
	}
	f.depth--
}

// add is CreateDataPropertyOrThrow(target, f.n, v) and the index's step.
func (f *flattener) add(v goja.Value) {
	if f.n >= 1<<53-1 {
		f.p.h.Throw("TypeError", "Invalid array length")
	}
	if f.target == nil {
		f.out = append(f.out, v)
	} else {
		key := strconv.FormatFloat(f.n, 'f', -1, 64)
		if err := f.target.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			f.p.h.Throw("TypeError", "Cannot define property "+key+", object is not extensible")
		}
	}
	f.n++
}

// hasProxyOnChain reports whether o is a Proxy or has one on its
// prototype chain: HasProperty on it is then a trap of the snippet's,
// asked apart from Get. Without one, Get's nil is HasProperty's false.
// The chain is read with goja's Prototype, which runs no snippet code on
// an object that is not a Proxy (the walk stops at the first Proxy).
func (p *Patcher) hasProxyOnChain(o *goja.Object) bool {
	for cur := o; cur != nil; cur = cur.Prototype() {
		if cur.ExportType() == proxyType {
			return true
		}
	}
	return false
}
