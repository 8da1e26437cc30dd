package js

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"
)

// The APIs goja lacks and Node has (polyfill.js, and URL/URLSearchParams
// from core-js-pure, vendor/url.js: WHATWG-conformant, where
// github.com/dop251/goja_nodejs/url, a layer over net/url, resolved "../"
// wrongly, dropped the port from origin and did not write searchParams
// changes back to href), installed lazily: a fresh runtime gets
// an accessor per name, and the first read of one evaluates its group (the
// polyfill program is compiled once per process) and replaces the accessors
// with plain data properties, so that a plain run pays a few microseconds
// for names it never touches (bench: BenchmarkNew).
//
// What a group provides is listed in lazyGlobals; what Node has and the
// playground does not is undefined (Intl: see locale.go).

//go:embed polyfill.js
var polyfillSource string

var polyfillProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("polyfill.js", polyfillSource, true)
})

//go:embed vendor/url.js
var urlSource string

// urlProgram evaluates to {URL, URLSearchParams}; about 1 ms the first time
// a run touches URL.
var urlProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("url.js", urlSource+";__url", false)
})

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
	{"", "structuredClone", "structuredClone", "structuredClone"},
	{"", "atob", "base64", "atob"},
	{"", "btoa", "base64", "btoa"},
	{"", "TextEncoder", "encoding", "TextEncoder"},
	{"", "TextDecoder", "encoding", "TextDecoder"},
	{"", "WeakRef", "weak", "WeakRef"},
	{"", "FinalizationRegistry", "weak", "FinalizationRegistry"},
	{"", "URL", "url", "URL"},
	{"", "URLSearchParams", "url", "URLSearchParams"},
	{"", "Iterator", "Iterator", "Iterator"},
	{"Symbol", "asyncIterator", "asyncIterator", "asyncIterator"},
	{"Object", "groupBy", "objectGroupBy", "groupBy"},
	{"Map", "groupBy", "mapGroupBy", "groupBy"},
	{"Promise", "withResolvers", "withResolvers", "withResolvers"},
	{"Array", "fromAsync", "fromAsync", "fromAsync"},
	{"String.prototype", "isWellFormed", "wellFormed", "isWellFormed"},
	{"String.prototype", "toWellFormed", "wellFormed", "toWellFormed"},
	// goja's %TypedArray%.from refuses a string source ("Value is not an object").
	{"%TypedArray%", "from", "typedArrayFrom", "from"},
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
}

// installPolyfills defines the lazy accessors. It runs no JS.
func (e *Runtime) installPolyfills() {
	vm := e.vm
	e.poly.groups = map[string]*goja.Object{}
	// The intrinsics the polyfills use, captured before snippet code runs.
	in := vm.NewObject()
	g := vm.GlobalObject()
	for _, n := range []string{"Object", "Array", "Map", "Set", "Promise", "TypeError", "RangeError", "Error", "EvalError",
		"ReferenceError", "SyntaxError", "URIError", "Symbol", "String", "Number", "Math", "Reflect", "Uint8Array", "ArrayBuffer",
		"DataView", "Date", "RegExp", "WeakMap", "WeakSet", "setTimeout", "performance"} {
		must(in.Set(n, g.Get(n)))
	}
	typedArray, err := e.b.getPrototypeOf(goja.Undefined(), g.Get("Uint8Array"))
	must(err)
	must(in.Set("TypedArrayFrom", typedArray.ToObject(vm).Get("from")))
	e.poly.intrinsics = in
	holders := map[string]*goja.Object{"": g, "%TypedArray%": typedArray.ToObject(vm)}
	holder := func(path string) *goja.Object {
		if h, ok := holders[path]; ok {
			return h
		}
		var h *goja.Object
		switch path {
		case "String.prototype":
			h = g.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
		default:
			h = g.Get(path).ToObject(vm)
		}
		holders[path] = h
		return h
	}
	for _, l := range lazyNames {
		e.lazyAccessor(holder(l.holder), l.name, l.group, l.key)
	}
	ip := e.iteratorPrototype()
	for _, n := range iteratorHelpers {
		e.lazyAccessor(ip, n, "Iterator", "")
	}
}

// iteratorPrototype is %IteratorPrototype%, read without running snippet code.
func (e *Runtime) iteratorPrototype() *goja.Object {
	arr := e.vm.NewArray()
	values, _ := goja.AssertFunction(arr.Get("values"))
	it, err := values(arr)
	must(err)
	gen := e.b.getPrototypeOf
	p1, err := gen(goja.Undefined(), it)
	must(err)
	p2, err := gen(goja.Undefined(), p1)
	must(err)
	return p2.ToObject(e.vm)
}

func (e *Runtime) lazyAccessor(h *goja.Object, name, group, key string) {
	vm := e.vm
	isSymbol := name == "asyncIterator"
	settle := func(v goja.Value) {
		if isSymbol { // well-known symbols are non-writable, non-configurable
			must(h.DefineDataProperty(name, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
			return
		}
		must(h.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	}
	get := func(goja.FunctionCall) goja.Value {
		if e.poly.loading[group] {
			return goja.Undefined() // the group feature-detects its own names while it loads
		}
		grp := e.group(group)
		if key == "" {
			return h.Get(name) // the group defined it
		}
		v := grp.Get(key)
		settle(v)
		return v
	}
	set := func(c goja.FunctionCall) goja.Value {
		settle(c.Argument(0))
		return goja.Undefined()
	}
	must(h.DefineAccessorProperty(name, vm.ToValue(get), vm.ToValue(set), goja.FLAG_TRUE, goja.FLAG_FALSE))
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
	if name == "url" {
		v, err := e.vm.RunProgram(urlProgram())
		if err != nil {
			panic(err)
		}
		out = v.ToObject(e.vm)
	} else {
		if e.poly.factories == nil {
			fv, err := e.vm.RunProgram(polyfillProgram())
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
	e.poly.groups[name] = out
	return out
}
