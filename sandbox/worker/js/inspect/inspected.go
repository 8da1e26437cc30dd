package inspect

import (
	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Web classes that Node's inspect shows by their fields (their
// [util.inspect.custom] in Node's lib/internal/url.js, event_target.js,
// abort_controller.js and encoding.js): `URL { href: '…', origin: '…', …,
// searchParams: URLSearchParams { 'a' => '1' }, hash: '' }`,
// `AbortController { signal: AbortSignal { aborted: false } }`. Their
// fields are accessors of the runtime's polyfills; a preview calls the
// getters the polyfill defined (taken when its group loads, before any
// snippet code has seen them), never what a snippet put in their place:
// an object whose first field is not the polyfill's own getter previews as
// any object. The polyfills load lazily, with the built-ins as the run has
// them then: a snippet that replaced Object.defineProperty before its
// first URL could hand core-js getters of its own, which a preview then
// calls (inside the run's deadline, like any of its code).

// inspectedClass is one class previewed by its fields.
type inspectedClass struct {
	fields  []string
	getters []*goja.Object // the polyfill's, one per field
	// plain previews the class as a plain object (Node prints a
	// TextEncoder as { encoding: 'utf-8' }).
	plain bool
}

// inspectedFields are the fields Node's inspect shows, by class, in its
// order.
var inspectedFields = []struct {
	class  string
	fields []string
	plain  bool
}{
	{"URL", []string{"href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "searchParams", "hash"}, false},
	{"AbortController", []string{"signal"}, false},
	{"AbortSignal", []string{"aborted"}, false},
	{"Event", []string{"type", "defaultPrevented", "cancelable", "timeStamp"}, false},
	{"TextDecoder", []string{"encoding", "fatal", "ignoreBOM"}, false},
	{"TextEncoder", []string{"encoding"}, true},
	// undici's (Node's fetch) inspect.custom, less what the playground
	// does not have (Request's referrer, integrity, keepalive…).
	{"Response", []string{"status", "statusText", "headers", "body", "bodyUsed", "ok", "redirected", "type", "url"}, false},
	{"Request", []string{"method", "url", "headers", "redirect", "signal"}, false},
}

// CaptureInspected takes the field getters of the classes a polyfill
// group exports (out), and URLSearchParams' forEach, while no snippet
// code has seen them.
func (e *Encoder) CaptureInspected(out *goja.Object) {
	for _, c := range inspectedFields {
		proto := e.exportedPrototype(out, c.class)
		if proto == nil {
			continue
		}
		ic := inspectedClass{fields: c.fields, plain: c.plain}
		for _, f := range c.fields {
			desc, _, ok := e.Lookup(proto, e.vm.ToValue(f))
			if !ok || desc == nil {
				break
			}
			get, ok := intrinsic.DescField(desc, "get")
			g, isObj := get.(*goja.Object)
			if !ok || !isObj {
				break
			}
			ic.getters = append(ic.getters, g)
		}
		if len(ic.getters) == len(c.fields) { // else this class previews as any object
			e.b.inspected = append(e.b.inspected, ic)
		}
	}
	if proto := e.exportedPrototype(out, "URLSearchParams"); proto != nil {
		if v, ok := e.OwnData(proto, "forEach"); ok {
			e.b.paramsForEach, _ = v.(*goja.Object)
		}
	}
}

// exportedPrototype is the prototype of the class a group exports as
// name, nil when it exports none.
func (e *Encoder) exportedPrototype(out *goja.Object, name string) *goja.Object {
	c, ok := e.OwnData(out, name)
	if !ok {
		return nil
	}
	co, ok := c.(*goja.Object)
	if !ok {
		return nil
	}
	p, ok := e.OwnData(co, "prototype")
	if !ok {
		return nil
	}
	po, _ := p.(*goja.Object)
	return po
}

// inspectedPreview previews o by its fields when it is one of the
// inspected classes (or a subclass), or a URLSearchParams by its entries:
// `URLSearchParams { 'a' => '1' }`, a map Tagged with its class and
// "params" (Node's own layout: no size, entries on one line up to the
// break length). ok is false for any other object, and when a getter
// throws (an object that only inherits the prototype).
func (e *Encoder) inspectedPreview(o *goja.Object, path string, depth int) (any, bool) {
	if e.json {
		return nil, false
	}
	for _, c := range e.b.inspected {
		desc, _, ok := e.Lookup(o, e.vm.ToValue(c.fields[0]))
		if !ok || desc == nil {
			continue
		}
		if get, ok := intrinsic.DescField(desc, "get"); !ok || !get.SameAs(c.getters[0]) {
			continue
		}
		props := make(object, 0, len(c.fields))
		for i, f := range c.fields {
			get, _ := goja.AssertFunction(c.getters[i])
			v, err := get(o)
			if err != nil {
				return nil, false
			}
			props = append(props, field{Key: f, Value: e.value(v, path+"."+f, depth+1)})
		}
		class := e.ConstructorName(o)
		if c.plain {
			class = "Object"
		}
		return Tagged{"$t": "object", "class": class, "props": props}, true
	}
	if e.b.paramsForEach == nil {
		return nil, false
	}
	desc, _, ok := e.Lookup(o, e.vm.ToValue("forEach"))
	if !ok || desc == nil {
		return nil, false
	}
	if v, data := intrinsic.DescValue(desc); !data || !v.SameAs(e.b.paramsForEach) {
		return nil, false
	}
	forEach, _ := goja.AssertFunction(e.b.paramsForEach)
	entries := []any{}
	more := 0
	cb := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(entries) < e.lim.Keys && e.budget > 0 {
			entries = append(entries, [2]any{e.value(c.Argument(1), path+".<key>", depth+1), e.value(c.Argument(0), path+".<value>", depth+1)})
		} else {
			more++
		}
		return goja.Undefined()
	})
	if _, err := forEach(o, cb); err != nil {
		return nil, false
	}
	if more > 0 {
		entries = append(entries, Tagged{"$t": "more", "count": more})
	}
	return Tagged{"$t": "map", "class": e.ConstructorName(o), "params": true, "entries": entries}, true
}
