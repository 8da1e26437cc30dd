package parity

import (
	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// InstallArrayToString replaces Array.prototype.toString with ECMA-262's
// steps (23.1.3.36: func = Get(array, "join"), called with the array, or
// %Object.prototype.toString% when it is not callable), calling join, for
// a long receiver (longReceiver), on a loop proxy (guardedLoop), so that
// `S + ""`, `${S}` or String(S) of a sparse array of length 2^32 - 1 ends
// at the run's deadline with its facts rather than in the pool's kill.
//
// The core installs it only in a program whose join is not guarded (it
// does not spell join, and is not dynamic: usage.go), and there
// Array.prototype.join can only be the intrinsic: replacing it takes the
// name. A receiver whose join is another (a typed array's) is called as
// it is. Where join is guarded, the intrinsic toString reaches the
// guarded join by itself.
//
// An array becomes a string through operators, template literals and any
// built-in that converts an argument, so no name marks the programs that
// need it; the core keys it to what makes a long array instead (a
// computed member, or Array, length or prototype: usage.go's
// needArrayToString). It costs such a program ≈ 27 allocations and 2 KB
// a run, ≈ 6 of them building Array.prototype where the program does not
// (BenchmarkLoopGuards, 2026-11-28).
//
// Patch for: goja's Array.prototype.join loops to the receiver's length
// without an interrupt check (see loops.go).
func (p *Patcher) InstallArrayToString() {
	arr := p.vm.NewArray().Prototype()
	p.replace(arr, "toString", 0, func(c goja.FunctionCall) goja.Value {
		o := c.This.ToObject(p.vm) // TypeError on undefined and null
		f := o.Get("join")
		join, ok := goja.AssertFunction(f)
		switch {
		case !ok:
			return p.vm.ToValue(objectToString(o))
		case p.longReceiver(o) && f == arr.Get("join"):
			// The intrinsic Array.prototype.join (read now: the program
			// cannot have replaced it), not a typed array's or another
			// object's own.
			return p.guardedLoop("join", join, -1, goja.FunctionCall{This: o})
		}
		return call(join, o)
	})
}

// objectToString is %Object.prototype.toString% of an object (ECMA-262
// 20.1.3.6): "[object " + its @@toStringTag when that is a string, else
// its builtin tag, + "]". Written here rather than captured: capturing the
// intrinsic cost every run that installs the guard 15 allocations, for a
// receiver without a callable join.
func objectToString(o *goja.Object) string {
	if t, ok := intrinsic.PrimitiveString(o.GetSymbol(goja.SymToStringTag)); ok { // a String object is not a tag
		return "[object " + t + "]"
	}
	switch c := o.ClassName(); c {
	case "Array", "Arguments", "Function", "Error", "Boolean", "Number", "String", "Date", "RegExp":
		return "[object " + c + "]"
	}
	if _, ok := goja.AssertFunction(o); ok {
		return "[object Function]"
	}
	return "[object Object]"
}
