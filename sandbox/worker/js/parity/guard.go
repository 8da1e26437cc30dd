package parity

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Guards: goja built-ins that a one-line snippet could make panic in Go
// (an index out of range in Array.prototype.sort when the comparator
// shrinks the array, strings.Builder.Grow with a negative count in
// String.prototype.repeat, makeslice in BigInt.asUintN or in
// Function.prototype.apply with a length of 2^53-1), which would take the
// worker down. Each is replaced by a Go function that checks its arguments
// first — converting each argument once, as the specification does — and
// either throws the RangeError Node throws or calls the original with
// primitives that cannot make it panic. Replacements look native (name,
// length, toString, stack frames), like every Go built-in here (natives.go).
//
// These are goja robustness patches rather than wordings: each turns a Go
// panic of goja's into the error V8 throws. Patch for: goja's
// Array.prototype.sort, String.prototype.repeat/padStart/padEnd,
// BigInt.asUintN/asIntN and Function.prototype.apply/Reflect.apply/
// Reflect.construct panic in Go on the inputs above. Upstream: no upstream
// issue found as of 2026-11. Delete a guard when goja checks its
// arguments (js.Runtime.recoverEngineFault stays for the operators).

// V8's limits, so that the same snippet fails the same way as in Node.
const (
	// maxStringLength is V8's String::kMaxLength on 64-bit hosts (2^29 - 24
	// UTF-16 code units): past it, "Invalid string length".
	maxStringLength = 1<<29 - 24
	// maxBigIntBits is V8's BigInt::kMaxLengthBits (2^30): past it,
	// "Maximum BigInt size exceeded".
	maxBigIntBits = 1 << 30
	// maxApplyArgs caps the argument list Function.prototype.apply,
	// Reflect.apply and Reflect.construct build from an array-like. V8
	// throws "Maximum call stack size exceeded" for far fewer (about 120,000
	// on its default stack); here the list is a Go slice, so the cap only
	// keeps a length like 2^32 - 1 from allocating gigabytes.
	maxApplyArgs = 1 << 24
)

// Guards selects the guards InstallGuards installs.
type Guards uint8

// The guards, one per group of built-ins replaced.
const (
	GuardSort           Guards = 1 << iota // Array.prototype.sort
	GuardStrings                           // String.prototype.repeat, padStart, padEnd
	GuardBigInt                            // BigInt.asUintN, asIntN
	GuardApply                             // Function.prototype.apply, Reflect.apply, Reflect.construct
	GuardTypedArrayFrom                    // %TypedArray%.from (InstallTypedArrayFrom); Object.defineProperty, defineProperties, Reflect.defineProperty on typed arrays (defineprop.go)
	GuardParseInt                          // parseInt (InstallParseInt)
	GuardScan                              // Array.prototype.includes, indexOf, lastIndexOf (scan.go)
	GuardLoops                             // the loop guards of Patcher.Loops' names (loops.go)
)

// InstallGuards replaces the built-ins above that g names; of the loop
// guards (GuardLoops), those of loops (LoopGuardNames a program spells,
// sorted; nil: every one; each costs a runtime about 25 allocations). It
// runs before any snippet code.
func (p *Patcher) InstallGuards(g Guards, loops []string) {
	vm := p.vm
	original := builtinFunc
	if g&GuardSort != 0 {
		// The prototype of an array, not the constructor's property: a
		// run need not build Array.
		arr := vm.NewArray().Prototype()
		reflectSet := original(vm.Get("Reflect").ToObject(vm), "set")
		p.replace(arr, "sort", 1, func(c goja.FunctionCall) goja.Value { return p.arraySort(c, reflectSet) })
	}
	if g&GuardStrings != 0 {
		p.installStringGuards(original)
	}
	if g&GuardBigInt != 0 {
		bigint := vm.Get("BigInt").ToObject(vm)
		for _, name := range []string{"asUintN", "asIntN"} {
			orig := original(bigint, name)
			signed := name == "asIntN"
			p.replace(bigint, name, 2, func(c goja.FunctionCall) goja.Value {
				return p.bigintAsN(orig, signed, c)
			})
		}
	}
	if g&GuardApply != 0 {
		p.installApplyGuards(original)
	}
	if g&GuardTypedArrayFrom != 0 {
		p.InstallTypedArrayFrom()
		p.installDefineGuards(original)
	}
	if g&GuardParseInt != 0 {
		p.InstallParseInt()
	}
	if g&GuardScan != 0 {
		p.installScanGuards(original)
	}
	if g&GuardLoops != 0 {
		p.installLoopGuards(original, loops)
	}
}

// installStringGuards replaces repeat, padStart and padEnd.
func (p *Patcher) installStringGuards(original func(*goja.Object, string) goja.Callable) {
	vm := p.vm
	str := vm.ToValue("").ToObject(vm).Prototype() // without building String
	repeat := original(str, "repeat")
	p.replace(str, "repeat", 1, func(c goja.FunctionCall) goja.Value {
		s := p.thisString(c.This, "repeat")
		n := c.Argument(0).ToNumber().ToFloat()
		if math.IsNaN(n) {
			n = 0
		}
		n = math.Trunc(n)
		if n < 0 || math.IsInf(n, 1) {
			p.h.Throw("RangeError", "Invalid count value: "+intrinsic.FormatNumber(n))
		}
		if s.Length() == 0 || n == 0 {
			return p.vm.ToValue("")
		}
		if n*float64(s.Length()) > maxStringLength {
			p.h.Throw("RangeError", "Invalid string length")
		}
		return call(repeat, s, p.vm.ToValue(int64(n)))
	})
	for _, name := range []string{"padStart", "padEnd"} {
		orig := original(str, name)
		p.replace(str, name, 1, func(c goja.FunctionCall) goja.Value {
			s := p.thisString(c.This, name)
			n := toLength(c.Argument(0).ToNumber().ToFloat())
			if n <= float64(s.Length()) {
				return s
			}
			fill := goja.Value(p.vm.ToValue(" "))
			if f := c.Argument(1); !goja.IsUndefined(f) {
				fs := p.jsString(f)
				fill = fs
				if fs.Length() == 0 {
					return s
				}
			}
			if n > maxStringLength {
				p.h.Throw("RangeError", "Invalid string length")
			}
			return call(orig, s, p.vm.ToValue(int64(n)), fill)
		})
	}

}

// installApplyGuards replaces Function.prototype.apply, Reflect.apply and
// Reflect.construct.
func (p *Patcher) installApplyGuards(original func(*goja.Object, string) goja.Callable) {
	fn := p.functionPrototype()
	reflect := p.vm.Get("Reflect").ToObject(p.vm)
	apply := original(fn, "apply")
	p.replace(fn, "apply", 2, func(c goja.FunctionCall) goja.Value {
		if len(c.Arguments) < 2 || goja.IsUndefined(c.Arguments[1]) || goja.IsNull(c.Arguments[1]) {
			return call(apply, c.This, c.Arguments...)
		}
		if _, ok := goja.AssertFunction(c.This); !ok {
			return call(apply, c.This, c.Arguments...) // goja's TypeError
		}
		return call(apply, c.This, c.Argument(0), p.argList(c.Argument(1)))
	})
	reflectApply := original(reflect, "apply")
	p.replace(reflect, "apply", 3, func(c goja.FunctionCall) goja.Value {
		if _, ok := goja.AssertFunction(c.Argument(0)); !ok {
			return call(reflectApply, c.This, c.Arguments...)
		}
		return call(reflectApply, c.This, c.Argument(0), c.Argument(1), p.argList(c.Argument(2)))
	})
	construct := original(reflect, "construct")
	p.replace(reflect, "construct", 2, func(c goja.FunctionCall) goja.Value {
		if _, ok := goja.AssertConstructor(c.Argument(0)); !ok {
			return call(construct, c.This, c.Arguments...)
		}
		args := []goja.Value{c.Argument(0), p.argList(c.Argument(1))}
		if len(c.Arguments) > 2 {
			args = append(args, c.Arguments[2])
		}
		return call(construct, c.This, args...)
	})
}

// thisString is RequireObjectCoercible(this) and ToString(this).
func (p *Patcher) thisString(this goja.Value, method string) goja.String {
	if this == nil || goja.IsUndefined(this) || goja.IsNull(this) {
		p.h.Throw("TypeError", "String.prototype."+method+" called on null or undefined")
	}
	return p.jsString(this)
}

// toLength is ECMA-262 ToLength on a number.
func toLength(f float64) float64 {
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	return math.Min(math.Trunc(f), 1<<53-1)
}

// lengthOf is ToNumber(o.length): Get runs a getter or a trap, as the
// spec's does; a missing length (goja's Get returns nil, not undefined:
// a Number object as the receiver) is NaN, never a Go nil dereference.
func lengthOf(o *goja.Object) float64 {
	v := o.Get("length")
	if v == nil {
		return math.NaN()
	}
	return v.ToNumber().ToFloat()
}

// argList is CreateListFromArrayLike(v) as a fresh array: the length read
// once, each index read in order. A length past 2^32 - 1 is V8's RangeError
// "Invalid array length"; past maxApplyArgs, its stack overflow.
func (p *Patcher) argList(v goja.Value) goja.Value {
	o, ok := v.(*goja.Object)
	if !ok {
		p.h.Throw("TypeError", "CreateListFromArrayLike called on non-object")
	}
	n := toLength(lengthOf(o))
	switch {
	case n > math.MaxUint32:
		p.h.Throw("RangeError", "Invalid array length")
	case n > maxApplyArgs:
		p.h.Throw("RangeError", "Maximum call stack size exceeded")
	}
	if o.ClassName() == "Array" && o.ExportType() != proxyType {
		// A plain array: goja reads its values directly, and its length
		// is now known to be small.
		return o
	}
	items := make([]any, int(n))
	stop := interruptCounter{vm: p.vm} // up to maxApplyArgs reads: a second or more
	for i := range items {
		stop.tick()
		items[i] = o.Get(strconv.Itoa(i))
	}
	return p.vm.NewArray(items...)
}

// bigintAsN is BigInt.asUintN / BigInt.asIntN (ECMA-262 21.2.2.1-2). Where
// the result is the argument itself (it fits in bits), it is returned
// without computing 2^bits; a result past V8's BigInt size is its
// RangeError; the rest is goja's.
func (p *Patcher) bigintAsN(orig goja.Callable, signed bool, c goja.FunctionCall) goja.Value {
	if len(c.Arguments) < 2 {
		return call(orig, c.This, c.Arguments...) // goja's TypeError
	}
	bits := c.Argument(0).ToNumber().ToFloat()
	if math.IsNaN(bits) {
		bits = 0
	}
	bits = math.Trunc(bits)
	if bits < 0 || bits > 1<<53-1 {
		p.h.Throw("RangeError", "Invalid value: not (convertible to) a safe integer")
	}
	v := c.Argument(1)
	if !goja.IsBigInt(v) {
		// Let goja convert it (a TypeError for a number, say): with
		// 0 bits no large value is built.
		if _, err := orig(goja.Undefined(), p.vm.ToValue(0), v); err != nil {
			panic(err)
		}
		return call(orig, goja.Undefined(), p.vm.ToValue(int64(min(bits, maxBigIntBits+1))), v)
	}
	x, _ := v.Export().(*big.Int)
	if x == nil {
		return call(orig, goja.Undefined(), p.vm.ToValue(int64(min(bits, maxBigIntBits+1))), v)
	}
	if float64(x.BitLen()) < bits && (signed || x.Sign() >= 0) {
		return v // already in range: the result is x itself
	}
	if bits > maxBigIntBits {
		// Only a negative x reaches here unsigned: 2^bits + x has bits bits.
		p.h.Throw("RangeError", "Maximum BigInt size exceeded")
	}
	return call(orig, goja.Undefined(), p.vm.ToValue(int64(bits)), v)
}

// arraySort is Array.prototype.sort (ECMA-262 23.1.3.30): the elements are
// read into a list (SortIndexedProperties, holes skipped), the list is
// sorted stably (a merge sort: the comparator is user code that may do
// anything, including shrinking the array, and nothing it does can make the
// sort index out of range), then written back, and the tail deleted.
func (p *Patcher) arraySort(c goja.FunctionCall, reflectSet goja.Callable) goja.Value {
	var cmp goja.Callable
	if f := c.Argument(0); !goja.IsUndefined(f) {
		var ok bool
		if cmp, ok = goja.AssertFunction(f); !ok {
			p.h.Throw("TypeError", "The comparison function must be either a function or undefined")
		}
	}
	if c.This == nil || goja.IsUndefined(c.This) || goja.IsNull(c.This) {
		p.h.Throw("TypeError", "Array.prototype.sort called on null or undefined")
	}
	o := c.This.ToObject(p.vm)
	n := int64(toLength(lengthOf(o)))
	var items, undefs []goja.Value
	var present []int64 // the indices that held an element
	p.sortIndices(o, n, func(k int64) {
		key := p.vm.ToValue(k)
		has, err := p.b.ReflectHas(goja.Undefined(), o, key)
		if err != nil {
			panic(err)
		}
		if !has.ToBoolean() {
			return
		}
		present = append(present, k)
		v := o.Get(strconv.FormatInt(k, 10))
		if v == nil || goja.IsUndefined(v) {
			undefs = append(undefs, goja.Undefined())
			return
		}
		items = append(items, v)
	})
	less := p.sortLess(cmp, items)
	sorted := mergeSort(items, less)
	sorted = append(sorted, undefs...)
	for j, v := range sorted { // Set(obj, j, v, true): a refused write is a TypeError
		ok, err := reflectSet(goja.Undefined(), o, p.vm.ToValue(j), v)
		if err != nil {
			panic(err)
		}
		if !ok.ToBoolean() {
			p.h.Throw("TypeError", fmt.Sprintf("Cannot assign to read only property '%d' of object", j))
		}
	}
	// The tail: DeletePropertyOrThrow on every index from the count of
	// elements to n. Deleting what the object does not own is a no-op, so
	// the indices that held an element are enough (a long sparse array-like
	// is not counted through), except for a Proxy, whose deleteProperty
	// trap sees every index, as the specification says.
	if o.ExportType() == proxyType && n <= 1<<22 {
		stop := interruptCounter{vm: p.vm}
		for j := int64(len(sorted)); j < n; j++ {
			stop.tick()
			if err := o.Delete(strconv.FormatInt(j, 10)); err != nil {
				panic(err)
			}
		}
		return o
	}
	for _, j := range present {
		if j >= int64(len(sorted)) {
			if err := o.Delete(strconv.FormatInt(j, 10)); err != nil {
				panic(err)
			}
		}
	}
	return o
}

// sortIndices calls each with the indices sort must look at, in order:
// 0..n-1, or, for a long array-like that is not a Proxy (say {length:
// 2**53 - 1}), only the integer keys below n its prototype chain has — the
// same elements, found without counting to 2^53.
func (p *Patcher) sortIndices(o *goja.Object, n int64, each func(int64)) {
	const dense = 1 << 22
	if n <= dense || o.ExportType() == proxyType {
		// A Proxy shows every index to its has trap, as the
		// specification says; a long one runs until the deadline, as in Node.
		stop := interruptCounter{vm: p.vm}
		for k := int64(0); k < n; k++ {
			stop.tick()
			each(k)
		}
		return
	}
	var out []int64
	for q := o; q != nil; q = p.b.Proto(q) {
		if q.ExportType() == proxyType {
			break
		}
		keys, err := p.b.OwnKeys(goja.Undefined(), q)
		if err != nil {
			panic(err)
		}
		kobj := keys.ToObject(p.vm)
		m := int(kobj.Get("length").ToInteger())
		for i := range m {
			k, ok := intrinsic.PrimitiveString(kobj.Get(strconv.Itoa(i)))
			if !ok {
				continue
			}
			if idx, err := strconv.ParseInt(k, 10, 64); err == nil && idx >= 0 && idx < n && strconv.FormatInt(idx, 10) == k {
				out = append(out, idx)
			}
		}
	}
	slices.Sort(out)
	for _, k := range slices.Compact(out) {
		each(k)
	}
}

// sortLess is SortCompare: the comparator's result as a number (NaN is
// +0), or, without one, the elements' strings compared by UTF-16 code
// units (each element converted once).
func (p *Patcher) sortLess(cmp goja.Callable, items []goja.Value) func(a, b int) bool {
	if cmp != nil {
		return func(a, b int) bool {
			r, err := cmp(goja.Undefined(), items[a], items[b])
			if err != nil {
				panic(err)
			}
			f := r.ToFloat()
			return f < 0
		}
	}
	strs := make([]goja.String, len(items))
	keys := make([]string, len(items))
	ascii := true
	for i, v := range items {
		strs[i] = p.jsString(v) // once per element
		keys[i] = strs[i].String()
		if ascii && len(keys[i]) != strs[i].Length() {
			ascii = false
		}
		for j := 0; ascii && j < len(keys[i]); j++ {
			ascii = keys[i][j] < utf8.RuneSelf
		}
	}
	if ascii {
		return func(a, b int) bool { return keys[a] < keys[b] }
	}
	wide := make([][]uint16, len(items))
	for i, s := range strs {
		w := make([]uint16, s.Length())
		for j := range w {
			w[j] = s.CharAt(j)
		}
		wide[i] = w
	}
	return func(a, b int) bool { return slices.Compare(wide[a], wide[b]) < 0 }
}

// mergeSort sorts items stably by less (over indices into items) and
// returns the sorted values.
func mergeSort(items []goja.Value, less func(a, b int) bool) []goja.Value {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	buf := make([]int, len(items))
	var sortRange func(lo, hi int)
	sortRange = func(lo, hi int) {
		if hi-lo < 2 {
			return
		}
		if hi-lo <= 10 { // insertion sort
			for i := lo + 1; i < hi; i++ {
				for j := i; j > lo && less(idx[j], idx[j-1]); j-- {
					idx[j], idx[j-1] = idx[j-1], idx[j]
				}
			}
			return
		}
		mid := (lo + hi) / 2
		sortRange(lo, mid)
		sortRange(mid, hi)
		if !less(idx[mid], idx[mid-1]) {
			return // already in order
		}
		copy(buf[lo:hi], idx[lo:hi])
		i, j, k := lo, mid, lo
		for i < mid && j < hi {
			if less(buf[j], buf[i]) {
				idx[k] = buf[j]
				j++
			} else {
				idx[k] = buf[i]
				i++
			}
			k++
		}
		k += copy(idx[k:], buf[i:mid])
		copy(idx[k:], buf[j:hi])
	}
	sortRange(0, len(idx))
	out := make([]goja.Value, len(idx))
	for i, j := range idx {
		out[i] = items[j]
	}
	return out
}

// functionPrototype is Function.prototype, read before any snippet code
// runs as the prototype of Object (built already: intrinsic.Builtins.Init), so that a
// plain run does not build the Function constructor.
func (p *Patcher) functionPrototype() *goja.Object {
	return p.vm.Get("Object").ToObject(p.vm).Prototype()
}

// proxyType is goja's export type of a Proxy.
var proxyType = reflect.TypeOf(goja.Proxy{})
