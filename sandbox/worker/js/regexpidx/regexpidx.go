// Package regexpidx gives goja's RegExp the d flag (ES2022 match
// indices): hasIndices, and exec results with indices, an array of each
// group's [start, end] in UTF-16 code units (undefined for a group that
// did not take part) and indices.groups for named groups.
//
// goja (upstream) rejects the flag. The runtime's RegExp constructor
// (package parity) constructs the RegExp without d and hands it to
// Indices.Decorate, which gives that one object its own exec (goja's,
// then the indices), hasIndices and flags, and its own @@split and
// @@matchAll (goja's build a new RegExp with the object's flags through
// the built-in constructor, which would reject "d"). The offsets come from
// github.com/dlclark/regexp2/v2 — the engine goja itself runs these
// patterns on — matched again at the index goja found, and are checked
// against goja's captures: a difference is an error naming the pattern,
// never a wrong offset.
//
// New also gives RegExp.prototype the hasIndices getter (false for a
// RegExp without d).
//
// What differs from V8: the object has those five own, non-enumerable
// properties (Object.getOwnPropertyNames lists them), and
// RegExp.prototype.exec.call(re, s) on such an object gives goja's result
// without indices. A /…/d literal works in bundled code (esbuild lowers
// it to a RegExp call); one inside eval or new Function text reaches
// goja's parser, which rejects the flag (a SyntaxError).
//
// Concurrency: an Indices belongs to one goja.Runtime and its goroutine.
package regexpidx

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"
)

// Indices decorates one runtime's d-flag RegExps.
type Indices struct {
	vm        *goja.Runtime
	exec      goja.Callable // RegExp.prototype.exec as goja made it
	split     goja.Callable // RegExp.prototype[Symbol.split]
	construct func(args ...goja.Value) (*goja.Object, error)
	iterProto *goja.Object // %IteratorPrototype%, found on first use
}

// New reads the RegExp built-ins d-flag RegExps use from vm's global
// RegExp; it must run before any snippet code.
func New(vm *goja.Runtime) *Indices {
	ctor := vm.Get("RegExp").ToObject(vm)
	proto := ctor.Get("prototype").ToObject(vm)
	exec, _ := goja.AssertFunction(proto.Get("exec"))
	split, _ := goja.AssertFunction(proto.GetSymbol(goja.SymSplit))
	c, _ := goja.AssertConstructor(ctor)
	x := &Indices{vm: vm, exec: exec, split: split, construct: func(args ...goja.Value) (*goja.Object, error) {
		return c(nil, args...)
	}}
	// RegExp.prototype.hasIndices: false for a RegExp without d (a
	// decorated one has its own true), undefined for the prototype
	must(proto.DefineAccessorProperty("hasIndices", x.native("get hasIndices", 0, func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			if o == proto {
				return goja.Undefined()
			}
			if o.ClassName() == "RegExp" {
				return vm.ToValue(false)
			}
		}
		panic(vm.NewTypeError("RegExp.prototype.hasIndices getter called on non-RegExp object"))
	}), nil, goja.FLAG_TRUE, goja.FLAG_FALSE))
	return x
}

// Decorate makes re, a RegExp constructed with flags minus "d", the
// RegExp of flags (which contain "d"). It returns re.
func (x *Indices) Decorate(re *goja.Object, flags string) *goja.Object {
	vm := x.vm
	plain := strings.Replace(flags, "d", "", 1)
	src := re.Get("source").String()
	m := &matcher{src: src, flags: plain}
	define := func(name string, v any) {
		must(re.DefineDataProperty(name, vm.ToValue(v), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	define("exec", x.native("exec", 1, func(c goja.FunctionCall) goja.Value {
		res := call(x.exec, c.This, c.Argument(0))
		if o, ok := res.(*goja.Object); ok && c.This == re {
			x.addIndices(m, o)
		}
		return res
	}))
	must(re.DefineDataProperty("hasIndices", vm.ToValue(true), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(re.DefineDataProperty("flags", vm.ToValue("d"+re.Get("flags").String()), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(re.DefineDataPropertySymbol(goja.SymSplit, x.native("[Symbol.split]", 2, func(c goja.FunctionCall) goja.Value {
		// split matches with a sticky copy; indices play no part
		clone, err := x.construct(re, vm.ToValue(plain))
		if err != nil {
			panic(err)
		}
		return call(x.split, clone, c.Argument(0), c.Argument(1))
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(re.DefineDataPropertySymbol(goja.SymMatchAll, x.native("[Symbol.matchAll]", 1, func(c goja.FunctionCall) goja.Value {
		return x.matchAll(re, plain, flags, c.Argument(0))
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	return re
}

// matchAll is RegExp.prototype[@@matchAll] (ECMA-262 22.2.6.9) for a
// d-flag RegExp: a copy, decorated too, from re's lastIndex, and a
// %RegExpStringIterator%'s next.
func (x *Indices) matchAll(re *goja.Object, plain, flags string, arg goja.Value) goja.Value {
	vm := x.vm
	// ToString of a number is the number itself in goja: a string value
	// for advance (matchAll(5) on a pattern that matches empty).
	s, ok := arg.ToString().(goja.String)
	if !ok {
		s = vm.ToValue(arg.ToString().String()).(goja.String)
	}
	clone, err := x.construct(re, vm.ToValue(plain))
	if err != nil {
		panic(err)
	}
	x.Decorate(clone, flags)
	must(clone.Set("lastIndex", toLength(re.Get("lastIndex"))))
	global, unicode := strings.Contains(flags, "g"), strings.Contains(flags, "u")
	exec, _ := goja.AssertFunction(clone.Get("exec"))
	done := false
	it := vm.NewObject()
	if x.iterProto == nil { // %IteratorPrototype%: an array iterator's prototype's prototype
		arr := vm.NewArray()
		f, _ := goja.AssertFunction(arr.GetSymbol(goja.SymIterator))
		x.iterProto = call(f, arr).ToObject(vm).Prototype().Prototype()
	}
	must(it.SetPrototype(x.iterProto))
	result := func(v goja.Value, d bool) goja.Value {
		o := vm.NewObject()
		must(o.Set("value", v))
		must(o.Set("done", d))
		return o
	}
	must(it.DefineDataProperty("next", x.native("next", 0, func(goja.FunctionCall) goja.Value {
		if done {
			return result(goja.Undefined(), true)
		}
		m := call(exec, clone, s)
		if goja.IsNull(m) {
			done = true
			return result(goja.Undefined(), true)
		}
		if !global {
			done = true
			return result(m, false)
		}
		if m.ToObject(vm).Get("0").String() == "" {
			i := toLength(clone.Get("lastIndex"))
			must(clone.Set("lastIndex", advance(s, i, unicode)))
		}
		return result(m, false)
	}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(it.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue("RegExp String Iterator"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	return it
}

// interruptCheck is a one-instruction program: goja looks at the
// runtime's interrupt before running it. Programs are immutable and
// shared by every runtime of the process.
var interruptCheck = goja.MustCompile("", "0", true)

// addIndices sets res.indices (after index, input and groups, as V8
// orders them).
func (x *Indices) addIndices(m *matcher, res *goja.Object) {
	vm := x.vm
	input, ok := res.Get("input").ToString().(goja.String)
	if !ok {
		panic(vm.NewTypeError("RegExp match indices: the match has no input string"))
	}
	// Each match converts the whole input again (regexp2 matches runes),
	// and goja's own loops (replace, match, split with g) call exec once per
	// match in Go: stop at the runtime's interrupt here, as snippet code
	// would, so that a long input cannot hold the run past its deadline.
	if _, err := vm.RunProgram(interruptCheck); err != nil {
		panic(err)
	}
	index := int(res.Get("index").ToInteger())
	spans, names, err := m.spans(input, index)
	if err == nil {
		err = checkCaptures(vm, res, input, spans)
	}
	if err != nil {
		panic(vm.NewGoError(fmt.Errorf("RegExp match indices (the d flag) for /%s/d%s: %v", m.src, m.flags, err)))
	}
	pairs := make([]any, len(spans))
	for i, sp := range spans {
		if sp[0] < 0 {
			pairs[i] = goja.Undefined()
		} else {
			pairs[i] = vm.NewArray(sp[0], sp[1])
		}
	}
	arr := vm.NewArray(pairs...)
	var groups goja.Value = goja.Undefined()
	if len(names) > 0 {
		g := vm.NewObject()
		must(g.SetPrototype(nil))
		for i, name := range names {
			if name != "" {
				must(g.Set(name, pairs[i]))
			}
		}
		groups = g
	}
	must(arr.Set("groups", groups))
	must(res.Set("indices", arr))
}

// checkCaptures compares the spans with goja's captures: the same groups
// matched the same text.
func checkCaptures(vm *goja.Runtime, res *goja.Object, input goja.String, spans [][2]int) error {
	if n := res.Get("length").ToInteger(); int(n) != len(spans) {
		return fmt.Errorf("%d groups against goja's %d", len(spans), n)
	}
	for i, sp := range spans {
		v := res.Get(strconv.Itoa(i))
		if sp[0] < 0 {
			if !goja.IsUndefined(v) {
				return fmt.Errorf("group %d took no part here but did in goja's match", i)
			}
			continue
		}
		if goja.IsUndefined(v) || !input.Substring(sp[0], sp[1]).SameAs(v) {
			return fmt.Errorf("group %d matched differently from goja's match", i)
		}
	}
	return nil
}

// advance is AdvanceStringIndex.
func advance(s goja.String, i int64, unicode bool) int64 {
	if !unicode || i+1 >= int64(s.Length()) {
		return i + 1
	}
	if utf16.IsSurrogate(rune(s.CharAt(int(i)))) && s.CharAt(int(i)) < 0xDC00 {
		if c := s.CharAt(int(i + 1)); c >= 0xDC00 && c <= 0xDFFF {
			return i + 2
		}
	}
	return i + 1
}

func toLength(v goja.Value) int64 {
	if v == nil {
		return 0
	}
	return max(0, v.ToInteger())
}

// native makes a Go function named as a built-in.
func (x *Indices) native(name string, length int, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := x.vm.ToValue(fn).(*goja.Object)
	must(f.DefineDataProperty("name", x.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(f.DefineDataProperty("length", x.vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	return f
}

func call(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
