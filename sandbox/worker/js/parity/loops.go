package parity

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Loop guards: goja's Array.prototype methods count through every index
// below the receiver's length in Go, where goja never looks at
// Runtime.Interrupt (its interrupt is checked between instructions of
// snippet code only). On a receiver whose length is huge next to the
// elements it holds — `{ length: 2 ** 53 - 1 }`, a sparse `new Array(2 **
// 32 - 1)`, `Object.defineProperty([], "length", …)` — reverse, fill,
// copyWithin, join, splice, shift, unshift, slice, flat, the callback
// methods on holes (forEach, map, filter, some, every, reduce…, whose
// callback never runs on a hole, so the snippet's code is never entered)
// and Array.from ran past the run's deadline until the pool killed the
// worker, and the run's last nested fact changes were lost with it (issue
// 22, item 5). Node runs most of these until it is stopped too, or throws a
// RangeError/TypeError at once (the table in js/hardstop_test.go, with the
// offenders left as they are).
//
// The replacements hand goja's own algorithm, unchanged, a receiver that
// is a Proxy over the real one (loopProxy) whose traps forward every
// property operation to it — getters and setters run with the real
// receiver, as they would — and check the runtime's interrupt every
// checkEvery operations (interruptCounter): the run then ends at its deadline
// (or memory limit, or cancel) with an interrupt, like any loop of snippet
// code, and the worker reports its facts. What the snippet could tell
// apart is put back: a result that is the proxy is the receiver, a
// callback sees the receiver as its array argument, and a length the
// wrapper read is the one the algorithm reads (read once, as the
// specification does). An ordinary array (or arguments object) of at most
// loopDense elements, which goja walks in milliseconds, and a primitive
// receiver go to goja's own at once; join and toLocaleString throw V8's
// TypeError for a length past 2^32 - 1 before reading an element, as Node
// does. flat and flatMap are not wrapped but written in Go (flat.go): they
// walk the arrays nested in the receiver too. concat (guardedConcat) wraps
// the receiver and arguments it spreads;
// Array.from and %TypedArray%.from and set (typedarray.go) the array-like
// they read (guardedSource; from leaves an array whose iterator is the
// snippet's to it, called with the array itself). The array iterator has
// its own (iterguard.go). The core installs the guard of each of these
// names a program spells (GuardLoops; usage.go). A dense long array
// (longArray) is left to goja's loop, which its data bounds (about 0.1–0.2
// s per million elements): a deadline inside one still ends in the
// pool's kill.
//
// Patch for: goja's Array.prototype built-ins loop to the receiver's
// length without an interrupt check (Runtime.Interrupt's doc: "it only
// works while in JavaScript code, it does not interrupt native Go
// functions (which includes all built-ins)"). Upstream: no goja issue
// found as of 2026-11 (dop251/goja#97 was an interrupt lost to the
// scheduler; #6 and #645 are the memory side); the same class fixed
// elsewhere: quickjs-ng/quickjs#1672, sebastienros/jint#2486. Delete when
// goja's built-ins check the interrupt.

const (
	// loopDense is the longest ordinary array the loop guards leave to
	// goja's own: its longest loop over as many elements (reverse, join)
	// takes a few tens of milliseconds.
	loopDense = scanDense
	// checkEvery is how many property operations of a guarded loop pass
	// between two interrupt checks (a check runs a one-instruction
	// program: about a microsecond).
	checkEvery = 1 << 12
	// maxArrayLength is 2^32 - 1, the longest array.
	maxArrayLength = math.MaxUint32
)

// interruptCheck is the program interruptCounter runs: goja looks at its
// interrupt before every instruction of it. Programs are immutable and
// shared by every runtime of the process.
var interruptCheck = goja.MustCompile("", "0", true)

// interruptCounter stops a loop in Go at the runtime's interrupt: tick
// counts one step and, every checkEvery of them, panics with the
// runtime's interrupt if it was interrupted (a deadline, a memory limit, a
// cancel), which unwinds through goja's built-ins and out of the run,
// uncatchable, as it does from snippet code.
type interruptCounter struct {
	vm *goja.Runtime
	n  uint
}

func (c *interruptCounter) tick() {
	c.n++
	if c.n%checkEvery != 0 {
		return
	}
	if _, err := c.vm.RunProgram(interruptCheck); err != nil {
		panic(err)
	}
}

// loopMethods are the Array.prototype methods replaced, each with the
// position of its callback argument (-1: none). concat has its own
// (guardedConcat), flat and flatMap are in Go (flat.go); toLocaleString is InstallLocale's (its name reaches
// the locale methods); find, findIndex, findLast and findLastIndex call
// their callback at every index, holes too, so the snippet's code (and its
// interrupt) runs at each.
var loopMethods = []struct {
	name     string
	length   int
	callback int
}{
	{"copyWithin", 2, -1}, {"every", 1, 0}, {"fill", 1, -1}, {"filter", 1, 0},
	{"forEach", 1, 0}, {"join", 1, -1}, {"map", 1, 0}, {"reduce", 1, 0},
	{"reduceRight", 1, 0}, {"reverse", 0, -1}, {"shift", 0, -1}, {"slice", 2, -1}, {"some", 1, 0},
	{"splice", 2, -1}, {"toReversed", 0, -1}, {"toSpliced", 2, -1}, {"unshift", 1, -1}, {"with", 2, -1},
}

// LoopGuardNames are the names of the built-ins installLoopGuards can
// replace: loopMethods, concat, flat and flatMap, Object.freeze and seal
// ("freeze", "seal"), String.raw ("raw") and Array.from ("from").
// InstallGuards picks among them.
var LoopGuardNames = func() []string {
	names := []string{"concat", "freeze", "seal", "raw", "from", "flat", "flatMap", SpreadGuardName}
	for _, m := range loopMethods {
		names = append(names, m.name)
	}
	names = append(names, iteratorConsumers...)
	slices.Sort(names)
	return slices.Compact(names)
}()

// installLoopGuards replaces those of loopMethods, concat, Object.freeze and seal,
// String.raw, and Array.from (%TypedArray%.from and set are InstallTypedArrayFrom's)
// that loops names (nil: every one).
func (p *Patcher) installLoopGuards(original func(*goja.Object, string) goja.Callable, loops []string) {
	want := func(name string) bool {
		_, ok := slices.BinarySearch(loops, name)
		return loops == nil || ok
	}
	arr := p.vm.NewArray().Prototype()
	for _, m := range loopMethods {
		if want(m.name) {
			p.installLoopMethod(arr, m.name, m.length, m.callback, original)
		}
	}
	for _, name := range []string{"flat", "flatMap"} {
		if want(name) {
			p.installFlat(arr, name) // in Go (flat.go): nested arrays too
		}
	}
	if want("concat") {
		concat := original(arr, "concat")
		p.replace(arr, "concat", 1, func(c goja.FunctionCall) goja.Value { return p.guardedConcat(concat, c) })
	}
	// Object.freeze and seal of a long array count through its indices in
	// Go; through a Proxy, which has no traps, they define only the keys
	// the array holds, as the specification's OwnPropertyKeys gives them.
	object := p.vm.Get("Object").ToObject(p.vm)
	for _, name := range []string{"freeze", "seal"} {
		if !want(name) {
			continue
		}
		orig := original(object, name)
		p.replace(object, name, 1, func(c goja.FunctionCall) goja.Value {
			o, ok := c.Argument(0).(*goja.Object)
			if !ok || o.ExportType() == proxyType || o.ClassName() != "Array" || !p.longArray(o) {
				return call(orig, c.This, c.Arguments...)
			}
			call(orig, c.This, p.vm.ToValue(p.vm.NewProxy(o, &goja.ProxyTrapConfig{})))
			return o
		})
	}
	// String.raw reads raw's elements up to its length: behind a loop
	// proxy. raw is read here, once, as the specification reads it, and
	// handed on in a fresh template object (the template's own may be frozen:
	// a Proxy over it must answer its own raw).
	if want("raw") {
		p.installRaw(original)
	}
	if want("from") {
		p.noteArrayValues(arr)
		array := arr.Get("constructor").ToObject(p.vm)
		from := original(array, "from")
		p.replace(array, "from", 1, func(c goja.FunctionCall) goja.Value {
			return call(from, c.This, p.guardedSource(c.Arguments, 0, true)...)
		})
	}
	if slices.ContainsFunc(LoopGuardNames, func(n string) bool { return IteratorGuardName(n) && want(n) }) {
		p.installIteratorGuard(arr)
	}
}

// installRaw replaces String.raw: it reads raw's elements up to its
// length, behind a loop proxy.
func (p *Patcher) installRaw(original func(*goja.Object, string) goja.Callable) {
	str := p.vm.Get("String").ToObject(p.vm)
	raw := original(str, "raw")
	p.replace(str, "raw", 1, func(c goja.FunctionCall) goja.Value {
		cooked, ok := c.Argument(0).(*goja.Object)
		if !ok {
			return call(raw, c.This, c.Arguments...)
		}
		r := cooked.Get("raw")
		if o, ok := r.(*goja.Object); ok {
			r = p.vm.ToValue(p.vm.NewProxy(o, p.newLoopProxy(o).traps()))
		}
		template := p.vm.NewObject()
		if r != nil {
			must(template.Set("raw", r))
		}
		args := append([]goja.Value{template}, c.Arguments[1:]...)
		return call(raw, c.This, args...)
	})
}

// installLoopMethod replaces arr[name] by its guarded loop.
func (p *Patcher) installLoopMethod(arr *goja.Object, name string, length, callback int, original func(*goja.Object, string) goja.Callable) {
	orig := original(arr, name)
	p.replace(arr, name, length, func(c goja.FunctionCall) goja.Value {
		return p.guardedLoop(name, orig, callback, c)
	})
}

// guardedLoop is Array.prototype[name] on c.
func (p *Patcher) guardedLoop(name string, orig goja.Callable, callback int, c goja.FunctionCall) goja.Value {
	o, ok := c.This.(*goja.Object)
	if !ok || !p.longReceiver(o) {
		return call(orig, c.This, c.Arguments...)
	}
	lp := p.newLoopProxy(o)
	if name == "join" || name == "toLocaleString" {
		// V8 refuses a length no array can have before it reads an
		// element; the length read here is the one the algorithm reads.
		n := toLength(lengthOf(o))
		if n > maxArrayLength {
			p.h.Throw("TypeError", "Invalid array length")
		}
		lp.length = p.vm.ToValue(int64(n))
	}
	px := p.vm.ToValue(p.vm.NewProxy(o, lp.traps())).(*goja.Object)
	args := c.Arguments
	if callback >= 0 && callback < len(args) {
		if f, ok := goja.AssertFunction(args[callback]); ok {
			args = append([]goja.Value(nil), args...)
			args[callback] = p.vm.ToValue(func(cc goja.FunctionCall) goja.Value {
				// The callback's array argument is the receiver, not
				// the proxy (in a copy: goja reuses its argument list).
				in, copied := cc.Arguments, false
				for i, a := range in {
					if a == px {
						if !copied {
							in, copied = append([]goja.Value(nil), in...), true
						}
						in[i] = o
					}
				}
				return call(f, cc.This, in...)
			})
		}
	}
	r := call(orig, px, args...)
	if r == px { // reverse, fill, copyWithin return their receiver
		return o
	}
	return r
}

// guardedConcat is Array.prototype.concat on c: the receiver and each
// argument that concat would spread element by element and that is long
// (longReceiver) go behind a loopProxy. Whether concat spreads one is
// decided here without running snippet code: by the first
// Symbol.isConcatSpreadable data property on its prototype chain, or, with
// none, by whether it is an array; one whose chain holds an accessor of
// that name, or a Proxy (whose traps would see the question asked twice),
// is left as it is. A value concat does not spread is never wrapped, so
// the result holds the values themselves.
func (p *Patcher) guardedConcat(orig goja.Callable, c goja.FunctionCall) goja.Value {
	this := c.This
	if c.This != nil && !goja.IsUndefined(c.This) && !goja.IsNull(c.This) {
		if o := c.This.ToObject(p.vm); p.spreadsLong(o) {
			this = p.vm.ToValue(p.vm.NewProxy(o, p.newLoopProxy(o).traps()))
		}
	}
	var args []goja.Value // a copy of c.Arguments once one is wrapped
	for i, a := range c.Arguments {
		if o, ok := a.(*goja.Object); ok && p.spreadsLong(o) {
			if args == nil {
				args = append([]goja.Value(nil), c.Arguments...)
			}
			args[i] = p.vm.ToValue(p.vm.NewProxy(o, p.newLoopProxy(o).traps()))
		}
	}
	if args == nil {
		args = c.Arguments
	}
	return call(orig, this, args...)
}

// spreadsLong reports whether concat spreads o (see guardedConcat) and o
// is long.
func (p *Patcher) spreadsLong(o *goja.Object) bool {
	if o.ExportType() == proxyType || !p.longReceiver(o) {
		return false
	}
	v, found, isData := p.chainData(o, goja.SymIsConcatSpreadable)
	if found {
		return isData && v.ToBoolean()
	}
	return o.ClassName() == "Array"
}

// chainData finds key on o's prototype chain without running snippet
// code (through the intrinsic Object.getOwnPropertyDescriptor): found is
// false when no object of the chain has it, isData false when the first
// that has it holds an accessor or the chain reaches a Proxy (whose traps
// would run) before it.
func (p *Patcher) chainData(o *goja.Object, key *goja.Symbol) (v goja.Value, found, isData bool) {
	for q := o; q != nil; q = p.b.Proto(q) {
		if q.ExportType() == proxyType {
			return nil, true, false
		}
		d, err := p.b.GetDescriptor(goja.Undefined(), q, key)
		if err != nil {
			panic(err)
		}
		if !goja.IsUndefined(d) {
			v, isData = intrinsic.DescValue(d.ToObject(p.vm))
			return v, true, isData
		}
	}
	return nil, false, false
}

// longReceiver reports whether o goes through a guarded loop: any object
// but an ordinary array or arguments object of at most loopDense elements.
// A Proxy does (one without traps forwards to its target in Go, never
// entering snippet code), and so does a typed array (Array.prototype's
// generic loop over 2^26 elements of one took seconds).
func (p *Patcher) longReceiver(o *goja.Object) bool {
	if o.ExportType() == proxyType {
		return true
	}
	switch o.ClassName() {
	case "Array":
		return p.longArray(o)
	case "Arguments":
		if v, ok := p.b.OwnData(o, "length"); ok {
			return toLength(v.ToNumber().ToFloat()) > loopDense
		}
		return true
	}
	return true
}

// longArray reports whether an ordinary array o is one the loop guards
// take: longer than loopDense and not dense. A dense one holds its
// elements in memory the run already paid for, so goja's loop over it is
// as long as the data (5e6 elements: about a second), and behind the
// Proxy each element would cost several times as much (issue 21). Dense is
// judged by denseSamples indices drawn at random (the snippet cannot
// predict them), each an own data property (read without running a
// getter): an array with a fraction d of its indices present passes with
// probability d^denseSamples, so a sparse one (new Array(2**32 - 1) with a
// few elements) never does, and one that passes holds close to length
// elements.
func (p *Patcher) longArray(o *goja.Object) bool {
	n := o.Get("length").ToInteger() // an own data property: reading it runs nothing
	if n <= loopDense {
		return false
	}
	var key []byte
	for range denseSamples {
		key = strconv.AppendInt(key[:0], rand.Int64N(n), 10)
		if _, ok := p.b.OwnData(o, string(key)); !ok {
			return true
		}
	}
	return false
}

// denseSamples is how many indices longArray draws.
const denseSamples = 24

// guardedSource is args with args[i] behind a loopProxy when it is an
// array-like Array.from or %TypedArray%.from (iterates) or
// %TypedArray%.prototype.set would read element by element: an ordinary
// array longer than loopDense (for from, only one that the array iterator
// would walk: arrayIterator), or an ordinary object (a plain one, a class
// instance) with no Symbol.iterator on its chain. An iterable one is left
// as it is: its iterator (a generator's, a Map's, the snippet's own) needs
// the object itself as its receiver.
func (p *Patcher) guardedSource(args []goja.Value, i int, iterates bool) []goja.Value {
	if i >= len(args) {
		return args
	}
	o, ok := args[i].(*goja.Object)
	if !ok || o.ExportType() == proxyType {
		return args
	}
	switch o.ClassName() {
	case "Array":
		if !p.longArray(o) || iterates && !p.arrayIterator(o) {
			return args
		}
	case "Object":
		if o.ExportType() != plainType {
			return args // a Map, a Set, a typed array, …
		}
		if _, found, _ := p.chainData(o, goja.SymIterator); found {
			return args
		}
	default:
		return args
	}
	out := append([]goja.Value(nil), args...)
	out[i] = p.vm.ToValue(p.vm.NewProxy(o, p.newLoopProxy(o).traps()))
	return out
}

// plainType is goja's export type of an ordinary object.
var plainType = reflect.TypeOf(map[string]any(nil))

// loopProxy is the handler of the Proxy a guarded loop runs on: each trap
// does to o what the operation would have done to o itself, after a tick of
// its interruptCounter.
type loopProxy struct {
	p *Patcher
	o *goja.Object
	// length, when set, is the answer to the first Get of "length": the
	// value the wrapper read already.
	length goja.Value
	// ops counts the operations.
	ops interruptCounter
}

func (p *Patcher) newLoopProxy(o *goja.Object) *loopProxy {
	return &loopProxy{p: p, o: o, ops: interruptCounter{vm: p.vm}}
}

func (lp *loopProxy) traps() *goja.ProxyTrapConfig {
	return &goja.ProxyTrapConfig{
		Get: func(_ *goja.Object, k string, _ goja.Value) goja.Value {
			if k == "length" && lp.length != nil {
				v := lp.length
				lp.length = nil
				return v
			}
			return lp.get(k)
		},
		GetIdx: func(_ *goja.Object, i int, _ goja.Value) goja.Value { return lp.get(strconv.Itoa(i)) },
		Has:    func(_ *goja.Object, k string) bool { return lp.has(lp.p.vm.ToValue(k)) },
		HasIdx: func(_ *goja.Object, i int) bool { return lp.has(lp.p.vm.ToValue(strconv.Itoa(i))) },
		Set: func(_ *goja.Object, k string, v, _ goja.Value) bool {
			return lp.set(k, v)
		},
		SetIdx: func(_ *goja.Object, i int, v, _ goja.Value) bool {
			return lp.set(strconv.Itoa(i), v)
		},
		DeleteProperty:    func(_ *goja.Object, k string) bool { return lp.del(k) },
		DeletePropertyIdx: func(_ *goja.Object, i int) bool { return lp.del(strconv.Itoa(i)) },
	}
}

// get is Get(o, k): a getter runs with o as this. A missing property is
// nil, as goja's own Get answers it: goja's loops read an index once and
// take nil for a hole (HasProperty and Get in one step).
func (lp *loopProxy) get(k string) goja.Value {
	lp.ops.tick()
	return lp.o.Get(k)
}

// has is HasProperty(o, k), through the intrinsic Reflect.has (a Proxy
// target's has trap runs).
func (lp *loopProxy) has(k goja.Value) bool {
	lp.ops.tick()
	return call(lp.p.b.ReflectHas, goja.Undefined(), lp.o, k).ToBoolean()
}

// set is Set(o, k, v, true): a refused write throws goja's TypeError.
func (lp *loopProxy) set(k string, v goja.Value) bool {
	lp.ops.tick()
	if err := lp.o.Set(k, v); err != nil {
		panic(err)
	}
	return true
}

// del is DeletePropertyOrThrow(o, k).
func (lp *loopProxy) del(k string) bool {
	lp.ops.tick()
	if err := lp.o.Delete(k); err != nil {
		panic(err)
	}
	return true
}
