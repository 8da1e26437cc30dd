// Package rewrite holds semantics-preserving rewrites of a bundle's syntax
// tree that the worker applies after goja parses it and before goja compiles
// it: code that goja would run correctly but slowly is changed into code that
// computes exactly the same values, throws the same errors at the same
// positions, and runs in the time V8's interpreter would take.
//
// The first rewrite is string building ([StringBuilding]): goja copies
// both operands of every string concatenation (its strings are flat Go
// strings or UTF-16 slices, and its String interface has unexported methods,
// so no other package can give it a rope), which makes `s += line` in a loop
// quadratic — 1e5 appends of a 28-byte line took over 30 s where Node takes
// 35 ms. Upstream work on lazy concatenation in goja itself:
// github.com/dop251/goja/pull/708 (open as of 2026-11). The second is
// for…of over arrays ([ArrayLoops]): goja runs the iterator protocol, a
// call and a result object per element, where V8's interpreter runs an
// indexed loop; the rewrite runs the indexed loop whenever the array and
// its iteration are the intrinsic ones, which no snippet can tell apart.
//
// A rewrite and the natives it calls are one contract, so both ends live
// here: [StringBuilding] writes calls to functions it reads from the runtime
// object, and [DefineNatives] defines them there.
//
// Everything in this package runs in the worker process. A rewritten program
// and its natives belong to one goja.Runtime and its goroutine.
package rewrite
