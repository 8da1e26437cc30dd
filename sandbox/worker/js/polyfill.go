package js

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/webapi"
)

// The APIs goja lacks and Node has (webapi/polyfill.js, and URL/URLSearchParams
// from core-js-pure, webapi/thirdparty/url.js: WHATWG-conformant, where
// github.com/dop251/goja_nodejs/url, a layer over net/url, resolved "../"
// wrongly, dropped the port from origin and did not write searchParams
// changes back to href), installed lazily: no name is defined in a fresh
// runtime; Proxies in the prototype chains of the holders (installPolyfills)
// answer the lazy names, and the first read of one evaluates its group (the
// polyfill program is compiled once per process) and defines the name on
// its holder as a plain data property (writable, configurable, not
// enumerable, as in Node). A run whose program may reach a lazy name pays
// for a few Proxies, and builds no goja built-in for names it never
// touches; a run that names none of them pays nothing (usage.go,
// BenchmarkNewHello).
//
// What a group provides is listed in lazyNames; what Node has and the
// playground does not is undefined (Intl: see parity/locale.go).

// lazyName is one lazily installed property: holder.name is group[key]
// (key "" means the group defines holder.name itself when it loads).
type lazyName struct {
	holder string // "" is the global object; "String.prototype", "Symbol", …
	name   string
	group  string
	key    string
}

var lazyNames = []lazyName{
	{"", "DOMException", "DOMException", "DOMException"},
	{"", "Event", "events", "Event"},
	{"", "EventTarget", "events", "EventTarget"},
	{"", "AbortController", "events", "AbortController"},
	{"", "AbortSignal", "events", "AbortSignal"},
	{"", "CustomEvent", "events", "CustomEvent"},
	{"", "structuredClone", "structuredClone", "structuredClone"},
	{"", "atob", "base64", "atob"},
	{"", "btoa", "base64", "btoa"},
	{"", "TextEncoder", "encoding", "TextEncoder"},
	{"", "TextDecoder", "encoding", "TextDecoder"},
	{"", "WeakRef", "weak", "WeakRef"},
	{"", "FinalizationRegistry", "weak", "FinalizationRegistry"},
	{"", "URL", "nodeURL", "URL"},
	{"", "URLSearchParams", "nodeURL", "URLSearchParams"},
	{"", "Iterator", "Iterator", "Iterator"},
	{"", "Intl", "intl", "Intl"},
	{"", "fetch", "fetch", "fetch"},
	{"", "Headers", "fetch", "Headers"},
	{"", "Request", "fetch", "Request"},
	{"", "Response", "fetch", "Response"},
	{"Symbol", "asyncIterator", "asyncIterator", "asyncIterator"},
	{"Object", "groupBy", "objectGroupBy", "groupBy"},
	{"Map", "groupBy", "mapGroupBy", "groupBy"},
	{"Promise", "withResolvers", "withResolvers", "withResolvers"},
	{"Promise", "any", "promiseAny", "any"},
	{"Array", "fromAsync", "fromAsync", "fromAsync"},
	{"String.prototype", "isWellFormed", "wellFormed", "isWellFormed"},
	{"String.prototype", "toWellFormed", "wellFormed", "toWellFormed"},
}

// iteratorHelpers are the methods the Iterator group defines on
// %IteratorPrototype%; reading one loads the group.
var iteratorHelpers = []string{"map", "filter", "take", "drop", "flatMap", "reduce", "toArray", "forEach", "some", "every", "find"}

// polyfills is a runtime's state of its lazy groups.
type polyfills struct {
	intrinsics *goja.Object
	factories  *goja.Object
	groups     map[string]*goja.Object
	loading    map[string]bool // groups being evaluated
	// settled are the lazy names defined on their holders already
	// (lazyName.holder + "." + lazyName.name): after a delete, a lookup
	// must not bring them back.
	settled map[string]bool
}

// installPolyfills installs those of n's additions (usage.go) that are
// not installed in New itself: the guards (parity/guard.go), the native-looking
// Function.prototype.toString (parity/natives.go), Node's lengths of the timers,
// and it makes the lazy names
// resolvable without creating a function per name (each goja function
// costs about a microsecond and 0.7 KiB, and a plain run would pay for 30 it
// never calls) and without building the goja built-ins that hold them:
// the global object, String.prototype and %IteratorPrototype% each get a
// Proxy of their old prototype as their prototype (lazyHolder), and the
// constructors' statics (Map.groupBy, …) are Go functions that load their
// group when called (installStatics). Go traps answer the lazy names; a lookup of
// any other name passes through to the old prototype. The first read of a
// lazy name evaluates its group and defines the name on the holder itself,
// so the Proxy is not consulted for it again, also after a delete.
func (e *Runtime) installPolyfills(n need, loops []string) {
	vm := e.vm
	e.installGuards(n, loops)
	if n&needArrayToString != 0 && !(n&needLoopGuards != 0 && (loops == nil || slices.Contains(loops, "join"))) {
		// Where join is guarded, the intrinsic toString reaches it.
		e.parity.InstallArrayToString()
	}
	if n&needNativeToString != 0 {
		e.parity.InstallNativeToString()
	}
	if n&(needPolyfills|needSortGuard) != 0 {
		// The traps below (and the sort guard) run inside snippet code: take
		// Reflect.has and Reflect.get now, while they are surely the intrinsics
		// (no snippet code has run), with plain Go reads rather than resolving
		// them through descriptors (intrinsic.Builtins), which costs a run 4 KiB.
		reflect := vm.Get("Reflect").ToObject(vm)
		if f, ok := goja.AssertFunction(reflect.Get("has")); ok {
			e.b.ReflectHas = f
		}
		if f, ok := goja.AssertFunction(reflect.Get("get")); ok {
			e.b.ReflectGet = f
		}
	}
	// Node's lengths (setTimeout(callback, after, arg1, arg2, arg3)).
	for _, t := range []struct {
		bit    need
		name   string
		length int
	}{{needSetTimeout, "setTimeout", 5}, {needSetInterval, "setInterval", 5}, {needClearTimeout, "clearTimeout", 1}, {needClearInterval, "clearInterval", 1}} {
		if n&t.bit == 0 {
			continue
		}
		if fn, ok := vm.Get(t.name).(*goja.Object); ok {
			must(fn.DefineDataProperty("length", vm.ToValue(t.length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		}
	}
	if n&needQueueMicrotask != 0 {
		if fn, ok := vm.Get("queueMicrotask").(*goja.Object); ok {
			e.parity.MarkNative(fn, "queueMicrotask")
		}
	}
	if n&needCrypto != 0 {
		if c, ok := vm.Get("crypto").(*goja.Object); ok {
			if fn, ok := c.Get("getRandomValues").(*goja.Object); ok {
				must(fn.DefineDataProperty("length", vm.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE))
			}
		}
	}
	g := vm.GlobalObject()
	// In a fixed order (a map's is not): the same runtime every time.
	for _, h := range []struct {
		bit  need
		path string
	}{{needGlobalHolder, ""}, {needStringHolder, "String.prototype"}, {needIteratorHolder, "Iterator.prototype"}} {
		if n&h.bit == 0 {
			continue
		}
		var o *goja.Object
		switch h.path {
		case "":
			o = g
		case "String.prototype":
			// String.prototype without building the String constructor.
			o = vm.ToValue("").ToObject(vm).Prototype()
		case "Iterator.prototype":
			o = e.iteratorPrototype()
		}
		e.lazyHolder(o, lazyByHolder()[h.path])
	}
	e.installStatics(n)
}

// lazyByHolder is lazyNames and iteratorHelpers by holder path, built once
// per process (the maps are only read).
var lazyByHolder = sync.OnceValue(func() map[string]map[string]lazyName {
	byHolder := map[string]map[string]lazyName{}
	for _, l := range lazyNames {
		if byHolder[l.holder] == nil {
			byHolder[l.holder] = map[string]lazyName{}
		}
		byHolder[l.holder][l.name] = l
	}
	byHolder["Iterator.prototype"] = map[string]lazyName{}
	for _, n := range iteratorHelpers {
		byHolder["Iterator.prototype"][n] = lazyName{"Iterator.prototype", n, "Iterator", n}
	}
	return byHolder
})

// lazyHolder puts the Proxy of h's prototype between h and it.
func (e *Runtime) lazyHolder(h *goja.Object, names map[string]lazyName) {
	vm := e.vm
	// No snippet code has run yet: h and its prototype are the runtime's own
	// (Prototype and SetPrototype are Go calls, no intrinsic to look up).
	proto := h.Prototype()
	lookup := func(property string) (lazyName, bool) {
		l, ok := names[property]
		return l, ok && e.lazyPending(l)
	}
	settle := func(l lazyName) goja.Value {
		v := e.group(l.group).Get(l.key)
		e.settle(l)
		if l.name == "asyncIterator" { // well-known symbols are non-writable, non-configurable
			must(h.DefineDataProperty(l.name, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
		} else {
			must(h.DefineDataProperty(l.name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		}
		return v
	}
	p := vm.NewProxy(proto, &goja.ProxyTrapConfig{
		// The Proxy stands for proto in h's chain: its own prototype is
		// proto, so instanceof and isPrototypeOf still find proto.
		GetPrototypeOf: func(target *goja.Object) *goja.Object { return target },
		Has: func(target *goja.Object, property string) bool {
			if _, ok := lookup(property); ok {
				return true
			}
			ok, err := e.b.ReflectHas(goja.Undefined(), target, vm.ToValue(property))
			must(err)
			return ok.ToBoolean()
		},
		Get: func(target *goja.Object, property string, receiver goja.Value) goja.Value {
			if l, ok := lookup(property); ok {
				return settle(l)
			}
			v, err := e.b.ReflectGet(goja.Undefined(), target, vm.ToValue(property), receiver)
			if err != nil {
				panic(err)
			}
			return v
		},
	})
	must(h.SetPrototype(vm.ToValue(p).(*goja.Object)))
}

// installStatics defines the constructors' new statics as plain data
// properties (writable, configurable, not enumerable, as in Node), without
// evaluating their polyfill group: Object.groupBy, Map.groupBy,
// Promise.withResolvers and Array.fromAsync are native-looking Go functions
// that load their group on first call and call its function with the same
// this and arguments; Symbol.asyncIterator is a symbol made here, which the
// asyncIterator group hands to the others. The prototype chains stay
// exactly Node's (a Proxy in Function.prototype's chain would answer for
// every function).
func (e *Runtime) installStatics(n need) {
	vm := e.vm
	if n&needAsyncIterator != 0 {
		sym := goja.NewSymbol("Symbol.asyncIterator")
		ai := vm.NewObject()
		must(ai.Set("asyncIterator", sym))
		if e.poly.groups == nil {
			e.poly.groups = map[string]*goja.Object{}
		}
		e.poly.groups["asyncIterator"] = ai
		must(vm.Get("Symbol").ToObject(vm).DefineDataProperty("asyncIterator", sym, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
	}
	if n&needDispose != 0 {
		// Node 20's own symbols for explicit resource management (using,
		// await using): esbuild's lowering takes Symbol.dispose when it
		// exists, and a class keys its method with it.
		sym := vm.Get("Symbol").ToObject(vm)
		for _, d := range [...]struct{ name, description string }{{"dispose", "nodejs.dispose"}, {"asyncDispose", "nodejs.asyncDispose"}} {
			s := goja.NewSymbol(d.description)
			if d.name == "dispose" {
				e.disposeSymbol = s // Timeout.prototype's (timeout.go)
			}
			must(sym.DefineDataProperty(d.name, s, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
		}
	}
	for _, l := range lazyNames {
		length, ok := staticLengths[l.holder+"."+l.name]
		if !ok || n&needByName()[l.name] == 0 {
			continue
		}
		var impl goja.Callable
		e.replace(vm.Get(l.holder).ToObject(vm), l.name, length, func(c goja.FunctionCall) goja.Value {
			if impl == nil {
				f, ok := goja.AssertFunction(e.group(l.group).Get(l.key))
				if !ok {
					panic("sandbox: polyfill group " + l.group + " has no function " + l.key)
				}
				impl = f
			}
			return e.callOriginal(impl, c.This, c.Arguments...)
		})
	}
}

// staticLengths are the lengths of the statics installStatics defines, as
// in Node (ECMA-262).
var staticLengths = map[string]int{"Object.groupBy": 2, "Map.groupBy": 2, "Promise.withResolvers": 0, "Promise.any": 1, "Array.fromAsync": 1}

// lazyPending reports whether l is still to be answered by its trap: not
// defined on its holder yet, and its group not being evaluated.
func (e *Runtime) lazyPending(l lazyName) bool {
	return !e.poly.loading[l.group] && !e.poly.settled[l.holder+"."+l.name]
}

func (e *Runtime) settle(l lazyName) {
	if e.poly.settled == nil {
		e.poly.settled = map[string]bool{}
	}
	e.poly.settled[l.holder+"."+l.name] = true
}

// iteratorPrototype is %IteratorPrototype%, read without running snippet code.
func (e *Runtime) iteratorPrototype() *goja.Object {
	arr := e.vm.NewArray()
	values, _ := goja.AssertFunction(arr.Get("values"))
	it, err := values(arr)
	must(err)
	return it.ToObject(e.vm).Prototype().Prototype()
}

// captureIntrinsics is what the polyfills use, read from the global object
// when the first group loads (not in New: reading a goja builtin the first
// time builds it, which a plain run should not pay for).
func (e *Runtime) captureIntrinsics() *goja.Object {
	in := e.vm.NewObject()
	g := e.vm.GlobalObject()
	for _, n := range []string{"Object", "Array", "Map", "Set", "Promise", "TypeError", "RangeError", "Error", "EvalError", "AggregateError",
		"ReferenceError", "SyntaxError", "URIError", "Symbol", "String", "Number", "Math", "Reflect", "Uint8Array", "ArrayBuffer",
		"DataView", "Date", "RegExp", "WeakMap", "WeakSet", "setTimeout", "performance"} {
		must(in.Set(n, g.Get(n)))
	}
	must(in.Set("clean", e.cleanStack))
	must(in.Set("fetch", e.fetchCall))
	must(in.Set("fetchBytes", e.fetchBytes))
	must(in.Set("fetchJSON", e.fetchJSON))
	must(in.Set("fetchStringify", e.fetchStringify))
	return in
}

// cleanStack is the polyfills' I.clean(err): it fixes err.stack now
// (goja formats it on first read) without the polyfills' own frames, so the
// snippet's frame is on top, and returns err.
func (e *Runtime) cleanStack(c goja.FunctionCall) goja.Value {
	o, ok := c.Argument(0).(*goja.Object)
	if !ok || o.ClassName() != "Error" {
		return c.Argument(0)
	}
	st, ok := e.enc.OwnData(o, "stack")
	if !ok {
		return o
	}
	lines := strings.Split(st.String(), "\n")
	kept := lines[:0]
	for i, l := range lines {
		if i > 0 && slices.ContainsFunc(webapi.Files, func(f string) bool { return strings.Contains(l, "("+f) || strings.Contains(l, "at "+f) }) {
			continue
		}
		kept = append(kept, l)
	}
	_ = o.DefineDataProperty("stack", e.vm.ToValue(strings.Join(kept, "\n")), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return o
}

// group evaluates a polyfill group once per runtime and returns its exports.
func (e *Runtime) group(name string) *goja.Object {
	if g, ok := e.poly.groups[name]; ok {
		return g
	}
	if e.poly.loading == nil {
		e.poly.loading = map[string]bool{}
	}
	e.poly.loading[name] = true
	defer delete(e.poly.loading, name)
	var out *goja.Object
	if name == "intl" { // Go: package intl
		out = e.vm.NewObject()
		must(out.Set("Intl", e.locale().Namespace()))
		if e.poly.groups == nil {
			e.poly.groups = map[string]*goja.Object{}
		}
		e.poly.groups[name] = out
		return out
	}
	if name == "url" {
		v, err := e.vm.RunProgram(webapi.URLProgram())
		if err != nil {
			panic(err)
		}
		out = v.ToObject(e.vm)
	} else {
		if e.poly.factories == nil {
			e.poly.intrinsics = e.captureIntrinsics()
			fv, err := e.vm.RunProgram(webapi.PolyfillProgram())
			must(err)
			fn, _ := goja.AssertFunction(fv)
			fs, err := fn(goja.Undefined(), e.poly.intrinsics)
			must(err)
			e.poly.factories = fs.ToObject(e.vm)
		}
		factory, ok := goja.AssertFunction(e.poly.factories.Get(name))
		if !ok {
			panic("sandbox: no polyfill group " + name)
		}
		v, err := factory(goja.Undefined(), e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
			return e.group(c.Argument(0).String())
		}))
		if err != nil {
			panic(err)
		}
		out = v.ToObject(e.vm)
	}
	if e.poly.groups == nil {
		e.poly.groups = map[string]*goja.Object{}
	}
	e.poly.groups[name] = out
	e.parity.NativeExports(out)
	e.enc.CaptureInspected(out)
	if name == "DOMException" {
		// No snippet code has seen the class yet: its name getter is ours.
		proto := out.Get("DOMException").ToObject(e.vm).Get("prototype").ToObject(e.vm)
		if d, err := e.b.GetDescriptor(goja.Undefined(), proto, e.vm.ToValue("name")); err == nil && !goja.IsUndefined(d) {
			if get, ok := intrinsic.DescField(d.ToObject(e.vm), "get"); ok {
				get, _ := get.(*goja.Object)
				e.b.SetDOMExceptionName(get)
			}
		}
	}
	return out
}
