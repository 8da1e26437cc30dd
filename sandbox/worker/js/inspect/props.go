package inspect

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// errorExtras adds what Node prints after an error's stack: its own
// enumerable properties other than stack and message ("props", as an
// object's) and an own cause ("cause", shown as [cause]). An accessor
// cause is not called.
func (e *Encoder) errorExtras(t Tagged, o *goja.Object, path string, depth int) {
	var extra object
	stack, _ := t["stack"].(string)
	keys := e.errorKeys(o)
	for _, f := range e.propsOf(o, keys, path, depth) {
		// Node's removeDuplicateErrorKeys: name, message and stack are left
		// out when the stack shows them.
		if f.Key == "stack" || f.Key == "message" || f.Key == "name" {
			if v, ok := f.Value.(string); ok && strings.Contains(stack, v) {
				continue
			}
		}
		if _, got := e.messages[o]; got && f.Key == "message" {
			continue // the getter's message is in the stack
		}
		extra = append(extra, f)
	}
	if len(extra) > 0 {
		t["props"] = extra
	}
	// An enumerable cause is among the props; a non-enumerable one (the
	// Error constructor's option) prints as [cause].
	if !slices.ContainsFunc(extra, func(f field) bool { return f.Key == "cause" }) && e.HasOwn(o, "cause") {
		if v, ok := e.OwnData(o, "cause"); ok {
			t["cause"] = e.value(v, path+".cause", depth+1)
		} else {
			t["cause"] = e.accessor(o, "cause")
		}
	}
	// An AggregateError's errors (non-enumerable) print as [errors], as
	// inspect prints any error's own errors array.
	if !slices.ContainsFunc(extra, func(f field) bool { return f.Key == "errors" }) {
		if v, ok := e.OwnData(o, "errors"); ok {
			if a, ok := v.(*goja.Object); ok && a.ClassName() == "Array" {
				t["errors"] = e.value(v, path+".errors", depth+1)
			}
		}
	}
}

// errorKeys lists the error o's own enumerable string keys. Listing them
// asks goja whether "stack" is enumerable, which formats the stack: when
// that could run snippet code (stackSafe), "stack" is left out unread (an
// error's own stack is not enumerable unless a snippet made it so).
func (e *Encoder) errorKeys(o *goja.Object) []string {
	if e.stackSafe(o) {
		return e.EnumerableKeys(o)
	}
	all, err := e.b.OwnKeys(goja.Undefined(), o)
	if err != nil {
		return nil
	}
	list, _ := all.Export().([]any)
	var keys []string
	for _, k := range list {
		name, ok := k.(string)
		if !ok || name == "stack" {
			continue
		}
		d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
		if err != nil || goja.IsUndefined(d) {
			continue
		}
		if descFlag(d.ToObject(e.vm), "enumerable") {
			keys = append(keys, name)
		}
	}
	return keys
}

// props previews o's own enumerable properties, in order: string keys,
// then symbol keys (as Node's inspect lists them).
func (e *Encoder) props(o *goja.Object, path string, depth int) object {
	return e.propsOf(o, e.EnumerableKeys(o), path, depth)
}

// propsOf previews o's own properties keys (enumerable string keys, in
// order), then its enumerable symbol keys.
func (e *Encoder) propsOf(o *goja.Object, keys []string, path string, depth int) object {
	props := make(object, 0, min(len(keys), e.lim.Keys+1))
	for i, k := range keys {
		if i == e.lim.Keys || e.budget <= 0 {
			props = append(props, field{Key: "…", Value: Tagged{"$t": "more", "count": len(keys) - i}})
			return props
		}
		k = e.key(k)
		if v, ok := e.OwnData(o, keys[i]); ok {
			props = append(props, field{Key: k, Value: e.value(v, path+"."+k, depth+1)})
		} else {
			props = append(props, field{Key: k, Value: e.accessor(o, keys[i])})
		}
	}
	return e.symbolProps(o, path, depth, props)
}

// symbolProps appends o's own enumerable symbol-keyed properties, within
// the same key cap; reading them runs no snippet code (o is no Proxy).
func (e *Encoder) symbolProps(o *goja.Object, path string, depth int, props object) object {
	var syms []*goja.Symbol
	if err := e.vm.Try(func() { syms = o.Symbols() }); err != nil || len(syms) == 0 {
		return props
	}
	for i, sym := range syms {
		if len(props) >= e.lim.Keys || e.budget <= 0 {
			return append(props, field{Key: "…", Value: Tagged{"$t": "more", "count": len(syms) - i}})
		}
		d, err := e.b.GetDescriptor(goja.Undefined(), o, sym)
		if err != nil || goja.IsUndefined(d) {
			continue
		}
		desc := d.ToObject(e.vm) // a descriptor goja made: plain data
		if !descFlag(desc, "enumerable") {
			continue
		}
		name, _ := e.value(sym, path, depth+1).(Tagged)
		key := "[" + fmt.Sprint(name["v"]) + "]"
		var v any
		if dv, ok := intrinsic.DescValue(desc); ok {
			v = e.value(dv, path+"."+key, depth+1)
		} else {
			v = accessorPreview(desc)
		}
		props = append(props, field{Key: key, Value: v, Symbol: true})
	}
	return props
}

// key caps a property key like a string (a 1 MB key is a value the snippet
// chose) and counts it against the budget.
func (e *Encoder) key(k string) string {
	if len(k) <= 64 {
		e.spend(len(k) + 4)
		return k
	}
	return e.str(k)
}

// accessor previews o's accessor property name as Node does: [Getter],
// [Setter] or [Getter/Setter], without calling either.
func (e *Encoder) accessor(o *goja.Object, name string) any {
	e.spend(12)
	d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	if err != nil || goja.IsUndefined(d) {
		return Tagged{"$t": "getter"}
	}
	// A descriptor object's own properties are plain data: reading them
	// runs no snippet code.
	return accessorPreview(d.ToObject(e.vm))
}

// accessorPreview is [Getter], [Setter] or [Getter/Setter] for an accessor
// property's descriptor (a plain object goja made).
func accessorPreview(desc *goja.Object) any {
	get, _ := intrinsic.DescField(desc, "get")
	set, _ := intrinsic.DescField(desc, "set")
	hasGet := get != nil && !goja.IsUndefined(get)
	hasSet := set != nil && !goja.IsUndefined(set)
	switch {
	case hasGet && hasSet:
		return Tagged{"$t": "getter", "label": "Getter/Setter"}
	case hasSet:
		return Tagged{"$t": "getter", "label": "Setter"}
	}
	return Tagged{"$t": "getter"}
}

// EnumerableKeys lists o's own enumerable string keys without running
// snippet code (o is not a Proxy).
func (e *Encoder) EnumerableKeys(o *goja.Object) []string {
	var keys []string
	err := e.vm.Try(func() { keys = o.Keys() })
	if err != nil {
		return nil
	}
	return keys
}

// OwnData returns the value of o's own data property name, or false when it
// is missing or an accessor (which a preview must not call).
func (e *Encoder) OwnData(o *goja.Object, name string) (goja.Value, bool) {
	return e.b.OwnData(o, name)
}

// descFlag is a descriptor's own boolean field (enumerable, configurable).
func descFlag(desc *goja.Object, key string) bool {
	v, ok := intrinsic.DescField(desc, key)
	return ok && v.ToBoolean()
}

// Lookup finds key along o's prototype chain as a read of o[key] would,
// calling nothing: the descriptor of the first object (o included) that
// has key as its own property, and that object; desc is nil when none has
// it. ok is false when the walk stops first, at a Proxy (its traps are
// snippet code) or after maxProtoSteps objects (a snippet can build a chain
// a million objects long, and this is Go code the run's interrupt does
// not stop).
func (e *Encoder) Lookup(o *goja.Object, key goja.Value) (desc, on *goja.Object, ok bool) {
	steps := 0
	for p := o; p != nil; p = e.Proto(p) {
		if steps++; steps > maxProtoSteps || p.ExportType() == proxyType {
			return nil, nil, false
		}
		d, err := e.b.GetDescriptor(goja.Undefined(), p, key)
		if err != nil {
			return nil, nil, false
		}
		if !goja.IsUndefined(d) {
			return d.ToObject(e.vm), p, true
		}
	}
	return nil, nil, true
}

// BuiltInToString reports whether o's toString is a built-in's, as Node's
// hasBuiltInToString (lib/internal/util/inspect.js) decides it for %s:
// true when o has no toString function, false when o has its own, else
// whether the prototype that holds it has a constructor named as one of
// the global built-ins. It reads descriptors only: no snippet code runs
// (a Proxy, or a getter where toString is, counts as built-in: inspected).
func (e *Encoder) BuiltInToString(o *goja.Object) bool {
	if desc, on, ok := e.Lookup(o, e.vm.ToValue(goja.SymToPrimitive)); ok && desc != nil {
		// A Symbol.toPrimitive of the snippet's (not Date's or Symbol's)
		// decides String(obj), as in Node 20.
		if v, data := intrinsic.DescValue(desc); data && !e.builtInHolder(on) {
			if _, fn := goja.AssertFunction(v); fn {
				return false
			}
		}
	}
	desc, on, ok := e.Lookup(o, e.vm.ToValue("toString"))
	if !ok || desc == nil {
		return true
	}
	v, data := intrinsic.DescValue(desc)
	if _, fn := goja.AssertFunction(v); !data || !fn {
		return true
	}
	if on == o {
		return false
	}
	return e.builtInHolder(on)
}

// builtInHolder reports whether the prototype on has a constructor named as
// one of builtInConstructors.
func (e *Encoder) builtInHolder(on *goja.Object) bool {
	c, ok := e.OwnData(on, "constructor")
	if !ok {
		return false
	}
	co, ok := c.(*goja.Object)
	if !ok {
		return false
	}
	name, ok := e.OwnData(co, "name")
	return ok && builtInConstructors[name.String()]
}

// builtInConstructors are the names of ECMAScript's global constructors
// and namespaces (Node's builtInObjects: the global names that start with
// a capital letter when its inspect module loads, which is before the web
// classes: %s of a URL prints its href, as its toString gives it).
var builtInConstructors = func() map[string]bool {
	m := map[string]bool{}
	maps.Copy(m, errorClasses)
	for _, n := range []string{"Object", "Function", "Array", "Number", "Boolean", "String", "Symbol", "Date", "Promise", "RegExp",
		"JSON", "Math", "Intl", "ArrayBuffer", "DataView", "Uint8Array", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array",
		"Int32Array", "Float32Array", "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "Map", "BigInt",
		"Set", "WeakMap", "WeakSet", "Proxy", "Reflect", "FinalizationRegistry", "WeakRef", "Iterator"} {
		m[n] = true
	}
	return m
}()

func (e *Encoder) HasOwn(o *goja.Object, name string) bool {
	d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	return err == nil && !goja.IsUndefined(d)
}

// StackString is the error o's stack (its "stack" data property), or ""
// when reading it could run snippet code: goja formats an error's stack on
// the first read of "stack", its first line from the error's name and
// message read through their getters and converted by their toString
// (writeErrorString); a getter that loops would hold the worker until the
// run's limit. So "stack" is read only when name and message, as o's
// prototype chain first holds them, are primitive data properties.
func (e *Encoder) StackString(o *goja.Object) string {
	if !e.stackSafe(o) {
		return ""
	}
	return e.DataString(o, "stack")
}

// stackSafe reports whether goja may format the error o's stack (on any
// read of its "stack", also a descriptor or key listing) without running
// snippet code (see stackString), or only a message getter the console
// line has run already, as V8 runs it for the stack.
func (e *Encoder) stackSafe(o *goja.Object) bool {
	for _, prop := range [...]string{"name", "message"} {
		desc, _, ok := e.Lookup(o, e.vm.ToValue(prop))
		if !ok {
			return false
		}
		if desc == nil {
			continue
		}
		v, data := intrinsic.DescValue(desc)
		switch {
		case !data:
			if _, got := e.messages[o]; got && prop == "message" {
				continue // a message getter readMessages already ran
			}
			if prop != "name" || !e.trustedNameGetter(desc) {
				return false // a snippet's accessor
			}
		case isObjectOrSymbol(v):
			return false // toString would run, or throw
		}
	}
	return true
}

func isObjectOrSymbol(v goja.Value) bool {
	switch v.(type) {
	case *goja.Object, *goja.Symbol:
		return true
	}
	return false
}

// DataString returns o's data property name (own or inherited, read without
// running code) when it is a string. It is not capped: callers cap it as a
// value (e.str) or a name (capName).
func (e *Encoder) DataString(o *goja.Object, prop string) string {
	desc, _, ok := e.Lookup(o, e.vm.ToValue(prop))
	if !ok || desc == nil {
		return ""
	}
	v, _ := intrinsic.DescValue(desc)
	if v == nil {
		return "" // an accessor: not called
	}
	s, _ := intrinsic.PrimitiveString(v)
	return s
}

// domExceptionName is the name of a DOMException (webapi/polyfill.js), whose
// name is a getter of its prototype, as in Node: the getter is called only
// when it is the polyfill's own (it reads a private field; no snippet
// code runs), found as the first "name" along o's prototype chain.
func (e *Encoder) domExceptionName(o *goja.Object) (string, bool) {
	desc, _, ok := e.Lookup(o, e.vm.ToValue("name"))
	if !ok || desc == nil || !e.trustedNameGetter(desc) {
		return "", false
	}
	get, _ := goja.AssertFunction(e.b.domExceptionName)
	v, err := get(o)
	if err != nil {
		return "", false
	}
	s, ok := intrinsic.PrimitiveString(v)
	return s, ok && s != ""
}

// trustedNameGetter reports whether desc is an accessor whose getter is the
// polyfill's DOMException name getter (no snippet code).
func (e *Encoder) trustedNameGetter(desc *goja.Object) bool {
	if e.b.domExceptionName == nil {
		return false
	}
	if _, data := intrinsic.DescValue(desc); data {
		return false
	}
	get, ok := intrinsic.DescField(desc, "get")
	return ok && get.SameAs(e.b.domExceptionName)
}

// ErrorHead is the first line Node's inspect prints of an error named name
// with message msg whose class is ctor (improveStack in Node's
// lib/internal/util/inspect.js): a subclass that keeps the name it
// inherits shows its own, "ValidationError: msg" for a name its class
// name contains and "MyErr [Error]: msg" otherwise; only names ending in
// "Error" are changed.
func ErrorHead(name, msg, ctor string) string {
	head := name
	if ctor != "" && ctor != name && strings.HasSuffix(name, "Error") {
		if strings.Contains(ctor, name) {
			head = ctor
		} else {
			head = ctor + " [" + name + "]"
		}
	}
	if msg != "" {
		head += ": " + msg
	}
	return head
}

func (e *Encoder) ErrorName(o *goja.Object) string {
	if n, ok := e.domExceptionName(o); ok {
		return capName(n)
	}
	if n := e.DataString(o, "name"); n != "" {
		return capName(n)
	}
	return "Error"
}

func (e *Encoder) Proto(o *goja.Object) *goja.Object { return e.b.Proto(o) }

// ConstructorName is the name of the nearest prototype's constructor, read
// through data descriptors only ("" for a null prototype).
func (e *Encoder) ConstructorName(o *goja.Object) string {
	p := e.Proto(o)
	if p == nil {
		return ""
	}
	if p.ExportType() == proxyType {
		return "Object"
	}
	c, ok := e.OwnData(p, "constructor")
	if !ok {
		return "Object"
	}
	co, ok := c.(*goja.Object)
	if !ok || co.ExportType() == proxyType {
		return "Object"
	}
	if n, ok := e.OwnData(co, "name"); ok {
		if s, ok := intrinsic.PrimitiveString(n); ok && s != "" {
			return capName(s)
		}
	}
	return "Object"
}
