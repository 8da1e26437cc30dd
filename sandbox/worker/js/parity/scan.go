package parity

import (
	"math"
	"slices"
	"strconv"

	"github.com/dop251/goja"
)

// Scan guards: Array.prototype.includes, indexOf and lastIndexOf count
// through every index below the receiver's length in Go, where goja never
// looks at Runtime.Interrupt: `Array.prototype.includes.call({ length:
// 2 ** 53 - 1 }, "x")` ran past the run's deadline until the pool killed
// the worker, and the run's last nested fact changes (say a push into a
// fact's array) were lost with it. The replacements walk a long array-like
// by the integer keys its prototype chain holds (sortIndices: the same
// elements, found without counting to 2^53) and a short one by the
// specification's loop (ECMA-262 §23.1.3.16 Array.prototype.includes,
// §23.1.3.17 indexOf, §23.1.3.20 lastIndexOf); an ordinary array of at
// most scanDense elements or a dense one (longArray), a Proxy (whose traps are snippet code, which the
// deadline stops) and a primitive receiver go to goja's own, which is
// quick for them.
//
// Patch for: goja's Array.prototype.includes/indexOf/lastIndexOf loop to
// the receiver's length without an interrupt check. Upstream: no goja
// issue found as of 2026-11; the same class fixed elsewhere:
// quickjs-ng/quickjs#1672, sebastienros/jint#2486. Delete when goja's
// array scans stop at an interrupt.

// scanDense is the longest ordinary array the scans leave to goja (its loop
// over 2^24 elements takes tens of milliseconds), and the length up to
// which an array-like is walked index by index.
const scanDense = 1 << 22

// installScanGuards replaces includes, indexOf and lastIndexOf.
func (p *Patcher) installScanGuards(original func(*goja.Object, string) goja.Callable) {
	arr := p.vm.NewArray().Prototype()
	for _, name := range []string{"includes", "indexOf", "lastIndexOf"} {
		orig := original(arr, name)
		p.replace(arr, name, 1, func(c goja.FunctionCall) goja.Value { return p.scan(name, orig, c) })
	}
}

// scan is Array.prototype[name] on c.
func (p *Patcher) scan(name string, orig goja.Callable, c goja.FunctionCall) goja.Value {
	o, isObject := c.This.(*goja.Object)
	if !isObject || o.ExportType() == proxyType {
		return call(orig, c.This, c.Arguments...)
	}
	if o.ClassName() == "Array" && !p.longArray(o) {
		// Short, or dense (its elements are in memory: goja's loop is as
		// long as the data); its length is an own data property, and
		// longArray reads only own data properties: nothing that goja's
		// reading them again could tell.
		return call(orig, c.This, c.Arguments...)
	}
	n := int64(toLength(lengthOf(o))) // once, as the specification reads it
	search := c.Argument(0)
	switch name {
	case "includes":
		if n == 0 {
			return p.vm.ToValue(false)
		}
		k, ok := startIndex(c.Argument(1), n)
		if !ok {
			return p.vm.ToValue(false)
		}
		found := false
		p.eachIndex(o, k, n, false, func(i int64, v goja.Value) bool {
			if v == nil {
				v = goja.Undefined() // Get of an index that holds nothing
			}
			found = sameValueZero(search, v)
			return !found
		})
		return p.vm.ToValue(found)
	case "indexOf":
		if n == 0 {
			return p.vm.ToValue(-1)
		}
		k, ok := startIndex(c.Argument(1), n)
		if !ok {
			return p.vm.ToValue(-1)
		}
		at := int64(-1)
		p.eachIndex(o, k, n, false, func(i int64, v goja.Value) bool {
			if v != nil && search.StrictEquals(v) {
				at = i
			}
			return at < 0
		})
		return p.vm.ToValue(at)
	default: // lastIndexOf
		if n == 0 {
			return p.vm.ToValue(-1)
		}
		from := float64(n - 1)
		if len(c.Arguments) > 1 {
			from = toIntegerOrInfinity(c.Argument(1).ToNumber().ToFloat())
		}
		if math.IsInf(from, -1) {
			return p.vm.ToValue(-1)
		}
		var last int64
		if from >= 0 {
			last = int64(math.Min(from, float64(n-1)))
		} else {
			last = n + int64(from)
		}
		at := int64(-1)
		if last >= 0 {
			p.eachIndex(o, 0, last+1, true, func(i int64, v goja.Value) bool {
				if v != nil && search.StrictEquals(v) {
					at = i
				}
				return at < 0
			})
		}
		return p.vm.ToValue(at)
	}
}

// startIndex is the first index includes and indexOf look at for
// fromIndex (undefined: 0) and length n; ok is false when there is none.
func startIndex(fromIndex goja.Value, n int64) (int64, bool) {
	f := toIntegerOrInfinity(fromIndex.ToNumber().ToFloat())
	switch {
	case math.IsInf(f, 1) || f >= float64(n):
		return 0, false
	case f >= 0:
		return int64(f), true
	case f+float64(n) <= 0:
		return 0, true
	default:
		return n + int64(f), true
	}
}

func toIntegerOrInfinity(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return math.Trunc(f)
}

// sameValueZero is the specification's SameValueZero: strict equality,
// except that NaN equals NaN.
func sameValueZero(a, b goja.Value) bool {
	return a.StrictEquals(b) || goja.IsNaN(a) && goja.IsNaN(b)
}

// eachIndex calls f with the indices in [from, to) and their values, in
// ascending order (descending when down is set), until f returns false: as
// the specification's loop would see them, where nil is an index o and its
// prototype chain do not hold. A short range is walked index by index; in a
// long one (o not a Proxy) only the integer keys found on the chain
// (sortIndices) are read, and each run of indices that hold nothing is
// shown by its first index, once, with nil — what a loop that stops at an
// empty index (includes of undefined) needs, found without counting.
func (p *Patcher) eachIndex(o *goja.Object, from, to int64, down bool, f func(int64, goja.Value) bool) {
	stop := interruptCounter{vm: p.vm} // up to scanDense reads index by index: half a second
	get := func(i int64) goja.Value {
		stop.tick()
		return o.Get(strconv.FormatInt(i, 10))
	}
	if to-from <= scanDense {
		if down {
			for i := to - 1; i >= from; i-- {
				if !f(i, get(i)) {
					return
				}
			}
			return
		}
		for i := from; i < to; i++ {
			if !f(i, get(i)) {
				return
			}
		}
		return
	}
	var keys []int64
	p.sortIndices(o, to, func(i int64) {
		if i >= from {
			keys = append(keys, i)
		}
	})
	step, expect := int64(1), from
	if down {
		slices.Reverse(keys)
		step, expect = -1, to-1
	}
	for _, i := range keys {
		if i != expect && !f(expect, nil) {
			return
		}
		if !f(i, get(i)) {
			return
		}
		expect = i + step
	}
	if expect >= from && expect < to {
		f(expect, nil)
	}
}
