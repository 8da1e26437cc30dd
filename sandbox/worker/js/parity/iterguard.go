package parity

import (
	"slices"

	"github.com/dop251/goja"
)

// Iterator guards, the rest of the loop guards (loops.go).
//
// Every consumer of an iterable that goja implements in Go — spread in an
// array literal or a call, an array pattern's rest element, yield*, the
// Set constructor, Promise.all, allSettled, race and any, AggregateError,
// Array.from, %TypedArray%.from and the typed array constructors — gets
// its iterator's next through the JS-visible property (goja's
// Runtime.getIterator, runtime.go: iter.self.getStr("next")) and calls it
// in a Go loop (iteratorRecord.iterate): over a sparse `new Array(2 ** 32
// - 1)` the array iterator steps through every hole, and the run never
// sees its interrupt, the memory watchdog's (a spread of 4e9 undefineds)
// neither. %ArrayIteratorPrototype%.next is replaced by a function that
// counts its calls and checks the interrupt every checkEvery of them
// (interruptCounter), then calls goja's own with the same receiver: the
// iterator, its result and its errors are goja's. Nothing else changes:
// Array.prototype.values is still Symbol.iterator, and goja's fast paths
// for an array with no holes (new Set, Array.from: checkStdArrayIter,
// which compares Symbol.iterator with the intrinsic values) still take it
// without an iterator. Only the iterator's next is a different function
// object. Its cost is a Go call per element of an array iterated in Go
// (spread, for…of of snippet code too): about 5% of a spread of 1e5
// elements.
//
// The Map, WeakMap and WeakSet constructors and Object.fromEntries are
// not among the consumers: they throw a TypeError at the first hole (its
// undefined is not an entry, or not an object), as V8 does, so their loop
// over an array is as long as its elements, which memory bounds.
//
// JSON.stringify is not a consumer: it is replaced by one in Go that
// checks the interrupt itself (stringify.go).
//
// Patch for: the same goja loops as loops.go. Delete with them.

// iteratorConsumers are names a program spells to reach a Go loop over an
// iterable that a hole does not end: each installs the array iterator
// guard. The typed array classes, which do too, install it with
// GuardTypedArrayFrom (their names have digits: usage.go keeps loop guard
// names free of them).
var iteratorConsumers = []string{"Set", "all", "allSettled", "race", "any", "AggregateError", "from"}

// SpreadGuardName is the loop guard name of the syntax that iterates in
// Go: spread (in an array literal, a call, new), an array pattern's rest
// element, and yield*. No program spells it; the core adds it to the
// names it hands InstallGuards when the program has such syntax.
const SpreadGuardName = "..."

// IteratorGuardName reports whether name installs the array iterator
// guard (installIteratorGuard).
func IteratorGuardName(name string) bool {
	return name == SpreadGuardName || slices.Contains(iteratorConsumers, name)
}

// installIteratorGuard replaces %ArrayIteratorPrototype%.next, once.
func (p *Patcher) installIteratorGuard(arr *goja.Object) {
	if p.iterGuarded {
		return
	}
	p.iterGuarded = true
	values := builtinFunc(arr, "values")
	proto := p.b.Proto(call(values, p.vm.NewArray()).ToObject(p.vm))
	next := builtinFunc(proto, "next")
	ops := &interruptCounter{vm: p.vm}
	p.replace(proto, "next", 0, func(c goja.FunctionCall) goja.Value {
		ops.tick()
		return call(next, c.This)
	})
}

// noteArrayValues records the intrinsic Array.prototype.values, before any
// snippet code runs (guardedSource compares an array's iterator with it).
func (p *Patcher) noteArrayValues(arr *goja.Object) {
	if p.arrayValues == nil {
		p.arrayValues = arr.Get("values").(*goja.Object)
	}
}

// arrayIterator reports whether Array.from would iterate o with the
// intrinsic array iterator, or read it as an array-like (no
// Symbol.iterator on its chain): o may go behind a loopProxy. An iterator
// of the snippet's (a method, a getter, a Proxy on the chain) is called
// with o itself as this.
func (p *Patcher) arrayIterator(o *goja.Object) bool {
	v, found, isData := p.chainData(o, goja.SymIterator)
	if !found {
		return true
	}
	f, ok := v.(*goja.Object)
	return isData && ok && f.SameAs(p.arrayValues)
}
