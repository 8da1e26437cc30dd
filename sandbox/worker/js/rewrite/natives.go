package rewrite

import (
	"github.com/dop251/goja"
)

// builder is the value a rewritten string variable holds while it is being
// appended to: its string is the concatenation of parts. Only the natives
// below ever see one; every read of the variable replaces it by its string.
type builder struct {
	parts []goja.String
	n     int // the string's length in UTF-16 code units
}

func (b *builder) add(s goja.String) {
	b.parts = append(b.parts, s)
	b.n += s.Length()
}

// DefineNatives defines on obj (the runtime object a rewritten bundle
// receives) the functions StringBuilding's code calls: FieldAppend,
// FieldBuilder, FieldParts, FieldFlush and FieldLength, and ArrayLoops'
// FieldArrayLoop, as non-enumerable, read-only properties. Each is called
// only by rewritten code, with the arguments it writes; anything else is an
// internal error, thrown as a TypeError. It must be called before any of
// the snippet's code runs in vm: it takes the intrinsics arrayLoop compares
// with from vm's globals.
func DefineNatives(vm *goja.Runtime, obj *goja.Object) {
	builderOf := func(v goja.Value) (*builder, *goja.Object) {
		if o, ok := v.(*goja.Object); ok {
			if b, ok := o.Export().(*builder); ok {
				return b, o
			}
		}
		if s, ok := v.(goja.String); ok {
			b := &builder{parts: make([]goja.String, 0, 8)}
			b.add(s)
			return b, vm.ToValue(b).(*goja.Object)
		}
		panic(vm.NewTypeError("internal error: not a string builder"))
	}
	define := func(name string, f func(goja.FunctionCall) goja.Value) {
		if err := obj.DefineDataProperty(name, vm.ToValue(f), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
	define(FieldAppend, func(c goja.FunctionCall) goja.Value {
		b, o := builderOf(c.Argument(0))
		if keep := c.Argument(1).ToInteger(); keep >= 0 && int(keep) < len(b.parts) {
			for _, p := range b.parts[keep:] {
				b.n -= p.Length()
			}
			clear(b.parts[keep:])
			b.parts = b.parts[:keep]
		}
		s, ok := c.Argument(2).(goja.String)
		if !ok {
			panic(vm.NewTypeError("internal error: appending a non-string"))
		}
		b.add(s)
		return o
	})
	define(FieldBuilder, func(c goja.FunctionCall) goja.Value {
		_, o := builderOf(c.Argument(0))
		return o
	})
	define(FieldParts, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		return vm.ToValue(len(b.parts))
	})
	define(FieldLength, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		return vm.ToValue(b.n)
	})
	loop := newLoopCheck(vm)
	define(FieldArrayLoop, func(c goja.FunctionCall) goja.Value {
		ok := loop.ok(c.Argument(0))
		if arrayLoopTaken != nil {
			arrayLoopTaken(ok)
		}
		return vm.ToValue(ok)
	})
	define(FieldFlush, func(c goja.FunctionCall) goja.Value {
		b, _ := builderOf(c.Argument(0))
		var sb goja.StringBuilder
		sb.Grow(b.n)
		for _, p := range b.parts {
			sb.WriteString(p)
		}
		return sb.String()
	})
}

// minIndexed is the shortest array ArrayLoops' arrayLoop sends to the
// indexed loop (see loopCheck.ok). A variable for this package's tests,
// which set it (before any runtime runs) to test small arrays.
var minIndexed int64 = 4

// arrayLoopTaken, when set (by this package's tests, before any runtime
// runs), is told each arrayLoop's answer.
var arrayLoopTaken func(indexed bool)

// loopCheck holds the intrinsics ArrayLoops' arrayLoop compares with, taken
// before the snippet ran.
type loopCheck struct {
	arrayProto    *goja.Object // %Array.prototype%
	values        goja.Value   // %Array.prototype.values%
	iterProto     *goja.Object // %ArrayIteratorPrototype%
	next          goja.Value   // %ArrayIteratorPrototype%.next
	iteratorProto *goja.Object // %IteratorPrototype%
	objectProto   *goja.Object // %Object.prototype%
	describe      goja.Callable
	vm            *goja.Runtime
}

func newLoopCheck(vm *goja.Runtime) *loopCheck {
	object := vm.Get("Object").ToObject(vm)
	describe, _ := goja.AssertFunction(object.Get("getOwnPropertyDescriptor"))
	arrayProto := vm.Get("Array").ToObject(vm).Get("prototype").ToObject(vm)
	values := arrayProto.GetSymbol(goja.SymIterator)
	valuesFn, _ := goja.AssertFunction(values)
	it, err := valuesFn(vm.NewArray())
	if err != nil || describe == nil {
		panic("rewrite: the runtime has no array iteration to compare with")
	}
	iterProto := it.ToObject(vm).Prototype()
	return &loopCheck{
		arrayProto: arrayProto, values: values,
		iterProto: iterProto, next: iterProto.Get("next"),
		iteratorProto: iterProto.Prototype(), objectProto: object.Get("prototype").ToObject(vm),
		describe: describe, vm: vm,
	}
}

// ok reports whether `for (… of v)` may run as ArrayLoops' indexed loop:
// v is an ordinary Array of Array.prototype with no own symbols, and array
// iteration is the intrinsic one with no return method. It reads only
// property descriptors, so it runs none of the snippet's code (a Proxy is
// not an "Array" to ClassName, and is never asked anything).
//
// A short array is left to for…of: the checks cost about 1.5 µs, what
// for…of spends on 2–3 elements (0.6 µs each, against 0.03 µs indexed;
// thread CPU time on the 2-core machine of docs/benchmarks.md), so only
// arrays of minIndexed elements or more gain (an Array's length is an own
// data property: reading it runs nothing).
func (l *loopCheck) ok(v goja.Value) bool {
	o, isObject := v.(*goja.Object)
	if !isObject || o.ClassName() != "Array" || o.Prototype() != l.arrayProto ||
		o.Get("length").ToInteger() < minIndexed || len(o.Symbols()) != 0 {
		return false
	}
	if !l.dataProperty(l.arrayProto, l.vm.ToValue(goja.SymIterator), l.values) ||
		!l.dataProperty(l.iterProto, l.vm.ToValue("next"), l.next) {
		return false
	}
	// No return method where IteratorClose would look for one (ECMA-262
	// §7.4.11 IteratorClose: GetMethod(iterator, "return")).
	ret := l.vm.ToValue("return")
	for _, p := range []*goja.Object{l.iterProto, l.iteratorProto, l.objectProto} {
		if d, err := l.describe(goja.Undefined(), p, ret); err != nil || !goja.IsUndefined(d) {
			return false
		}
	}
	return l.iterProto.Prototype() == l.iteratorProto && l.iteratorProto.Prototype() == l.objectProto && l.objectProto.Prototype() == nil
}

// dataProperty reports whether o's own property key is a data property
// holding want.
func (l *loopCheck) dataProperty(o *goja.Object, key, want goja.Value) bool {
	d, err := l.describe(goja.Undefined(), o, key)
	if err != nil || goja.IsUndefined(d) {
		return false
	}
	desc := d.ToObject(l.vm)
	value := desc.Get("value") // nil for an accessor's descriptor, which has no value
	return value != nil && value.SameAs(want)
}
