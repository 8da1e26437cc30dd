package js

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// tagged is a preview of what JSON cannot hold: {"$t": tag, ...}.
type tagged = map[string]any

// object is a JSON object that keeps its keys in insertion order, as a
// console shows properties.
type object []field

type field struct {
	Key   string
	Value any
}

// MarshalJSON encodes o as a JSON object with its keys in order.
func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

var (
	proxyType = reflect.TypeOf(goja.Proxy{})
	// goja reports Map and Set with class "Object"; their export types
	// (builtin_map.go, builtin_set.go) tell them apart without running code.
	mapType = reflect.TypeOf([][2]any{})
	setType = reflect.TypeOf([]any{})
)

// builtins are the intrinsics a preview calls: Object's captured when the
// runtime is created, before any snippet code runs, the others found on
// first use and checked to be the intrinsics (runtime.go, newBuiltins), so
// a snippet that replaces Object.getOwnPropertyDescriptor or
// Map.prototype.forEach cannot intercept them.
type builtins struct {
	ownKeys        goja.Callable // Reflect.ownKeys
	getDescriptor  goja.Callable // Object.getOwnPropertyDescriptor
	getPrototypeOf goja.Callable // Object.getPrototypeOf
	setPrototypeOf goja.Callable // Object.setPrototypeOf
	reflectGet     goja.Callable // Reflect.get
	reflectHas     goja.Callable // Reflect.has
	freeze         goja.Callable // Object.freeze
	jsonParse      goja.Callable // JSON.parse
	dateISO        goja.Callable // Date.prototype.toISOString
	dateValue      goja.Callable // Date.prototype.getTime
	regexpSource   goja.Callable // get RegExp.prototype.source
	regexpFlags    goja.Callable // get RegExp.prototype.flags
	mapForEach     goja.Callable // Map.prototype.forEach
	setForEach     goja.Callable // Set.prototype.forEach
	symbolString   goja.Callable // Symbol.prototype.toString
	bigintString   goja.Callable // BigInt.prototype.toString
}

// encoder turns goja values into previews (console arguments) or into JSON
// (facts, output). It never runs snippet code: it reads properties through
// descriptors, shows accessors without calling them, and does not look inside
// a Proxy. An encoder is used on the runtime's goroutine only.
type encoder struct {
	vm  *goja.Runtime
	b   *builtins
	lim pipe.PreviewLimits
	// json selects the facts/output form: plain objects and arrays as JSON
	// objects and arrays, tags only for what JSON cannot hold.
	json bool

	ancestors []*goja.Object
	paths     []string
}

// encode returns the preview of v. It recovers from a JS exception raised by
// a builtin (a revoked Proxy, say) by showing the value as opaque.
func (e *encoder) encode(v goja.Value) (out any) {
	e.ancestors, e.paths = e.ancestors[:0], e.paths[:0]
	return e.value(v, "$", 0)
}

func (e *encoder) value(v goja.Value, path string, depth int) any {
	switch {
	case v == nil || goja.IsUndefined(v):
		return tagged{"$t": "undefined"}
	case goja.IsNull(v):
		return nil
	}
	if sym, ok := v.(*goja.Symbol); ok {
		s, err := e.b.symbolString(sym)
		if err != nil {
			return tagged{"$t": "symbol", "v": "Symbol()"}
		}
		return tagged{"$t": "symbol", "v": s.String()}
	}
	if obj, ok := v.(*goja.Object); ok { // before Export, which would call getters
		return e.object(obj, path, depth)
	}
	switch x := v.Export().(type) {
	case bool:
		return x
	case string:
		return e.str(x)
	case int64:
		return x
	case float64:
		return number(x)
	}
	if goja.IsBigInt(v) {
		s, err := e.b.bigintString(v)
		if err != nil {
			return tagged{"$t": "bigint", "v": "?"}
		}
		return tagged{"$t": "bigint", "v": s.String()}
	}
	return v.String()
}

func number(f float64) any {
	switch {
	case math.IsNaN(f):
		return tagged{"$t": "number", "v": "NaN"}
	case math.IsInf(f, 1):
		return tagged{"$t": "number", "v": "Infinity"}
	case math.IsInf(f, -1):
		return tagged{"$t": "number", "v": "-Infinity"}
	case f == 0 && math.Signbit(f):
		return tagged{"$t": "number", "v": "-0"}
	}
	return f
}

// maxName caps a class, function or error name: a name is not a value, so
// the user's string cap does not apply, but a hostile one is still bounded.
const maxName = 200

func capName(s string) string {
	if len(s) <= maxName {
		return s
	}
	return strings.ToValidUTF8(s[:maxName], "") + "…"
}

func (e *encoder) str(s string) string {
	if utf8.RuneCountInString(s) <= e.lim.String {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	n := 0
	for i := range s {
		if n == e.lim.String {
			return strings.ToValidUTF8(s[:i], "\uFFFD") + "…"
		}
		n++
	}
	return s
}

func (e *encoder) object(o *goja.Object, path string, depth int) any {
	if o.ExportType() == proxyType {
		return tagged{"$t": "object", "class": "Proxy", "props": object{}}
	}
	for i, a := range e.ancestors {
		if a == o {
			return tagged{"$t": "circular", "path": e.paths[i]}
		}
	}
	class := o.ClassName()
	if class == "Object" {
		switch o.ExportType() {
		case mapType:
			class = "Map"
		case setType:
			class = "Set"
		}
	}
	switch class {
	case "Function":
		return tagged{"$t": "function", "name": capName(e.dataString(o, "name"))}
	case "Date":
		if t, err := e.b.dateValue(o); err == nil && goja.IsNaN(t) {
			return tagged{"$t": "date", "v": "Invalid Date"}
		}
		iso, err := e.b.dateISO(o)
		if err != nil {
			return tagged{"$t": "date", "v": "Invalid Date"}
		}
		return tagged{"$t": "date", "v": iso.String()}
	case "RegExp":
		src, err1 := e.b.regexpSource(o)
		flags, err2 := e.b.regexpFlags(o)
		if err1 != nil || err2 != nil {
			return tagged{"$t": "regexp", "v": "/(?:)/"}
		}
		return tagged{"$t": "regexp", "v": "/" + src.String() + "/" + flags.String()}
	case "Error":
		name, msg := e.errorName(o), e.str(e.dataString(o, "message"))
		head := name
		if msg != "" {
			head += ": " + msg
		}
		// goja's stack names the bundle's namespaces and bytecode offsets;
		// show the user's frames instead, as error events do.
		return tagged{"$t": "error", "name": name, "message": msg, "stack": e.str(formatStack(head, parseStack(e.dataString(o, "stack"))))}
	}

	if depth >= e.lim.Depth {
		return e.cut(o, class)
	}
	e.ancestors = append(e.ancestors, o)
	e.paths = append(e.paths, path)
	defer func() {
		e.ancestors = e.ancestors[:len(e.ancestors)-1]
		e.paths = e.paths[:len(e.paths)-1]
	}()

	switch class {
	case "Array":
		return e.array(o, path, depth)
	case "Map":
		return e.mapEntries(o, path, depth)
	case "Set":
		return e.setValues(o, path, depth)
	}
	name := e.constructorName(o)
	props := e.props(o, path, depth)
	if e.json && (name == "Object" || name == "") {
		return props
	}
	if name == "" {
		name = "Object"
	}
	if class == "Promise" {
		name = "Promise"
		if p, ok := o.Export().(*goja.Promise); ok {
			props = append(object{{"[[state]]", [...]string{"pending", "fulfilled", "rejected"}[p.State()]}}, props...)
		}
	}
	return tagged{"$t": "object", "class": name, "props": props}
}

// cut is the preview of an object past the depth cap.
func (e *encoder) cut(o *goja.Object, class string) any {
	if class == "Array" {
		return tagged{"$t": "array", "items": []any{tagged{"$t": "more", "count": e.arrayLength(o)}}}
	}
	keys := e.enumerableKeys(o)
	return tagged{"$t": "object", "class": e.classLabel(o, class), "props": object{{"…", tagged{"$t": "more", "count": len(keys)}}}}
}

func (e *encoder) classLabel(o *goja.Object, class string) string {
	if class == "Map" || class == "Set" {
		return class
	}
	if n := e.constructorName(o); n != "" {
		return n
	}
	return "Object"
}

func (e *encoder) arrayLength(o *goja.Object) int64 {
	v, ok := e.ownData(o, "length")
	if !ok {
		return 0
	}
	n, _ := v.Export().(int64)
	return n
}

func (e *encoder) array(o *goja.Object, path string, depth int) any {
	n := e.arrayLength(o)
	items := []any{}
	holes := int64(0)
	flushHoles := func() {
		if holes > 0 {
			if e.json {
				for range holes {
					items = append(items, nil)
				}
			} else {
				items = append(items, tagged{"$t": "empty", "count": holes})
			}
			holes = 0
		}
	}
	shown := 0
	var i int64
	for i = 0; i < n && shown < e.lim.Keys; i++ {
		if holes > int64(e.lim.Keys)*100 {
			break // a long run of holes in a sparse array: stop scanning
		}
		v, ok := e.ownData(o, strconv.FormatInt(i, 10))
		if !ok {
			if e.hasOwn(o, strconv.FormatInt(i, 10)) {
				flushHoles()
				items = append(items, tagged{"$t": "getter"})
				shown++
				continue
			}
			holes++
			continue
		}
		flushHoles()
		items = append(items, e.value(v, path+"["+strconv.FormatInt(i, 10)+"]", depth+1))
		shown++
	}
	if i < n && holes > 0 && !e.json {
		holes += n - i
		i = n
	}
	flushHoles()
	if i < n {
		items = append(items, tagged{"$t": "more", "count": n - i})
	}
	if e.json {
		return items
	}
	return tagged{"$t": "array", "items": items}
}

func (e *encoder) mapEntries(o *goja.Object, path string, depth int) any {
	entries := []any{}
	more := 0
	cb := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(entries) >= e.lim.Keys {
			more++
			return goja.Undefined()
		}
		k := e.value(c.Argument(1), path+".<key>", depth+1)
		v := e.value(c.Argument(0), path+".get("+previewKeyText(c.Argument(1))+")", depth+1)
		entries = append(entries, [2]any{k, v})
		return goja.Undefined()
	})
	if _, err := e.b.mapForEach(o, cb); err != nil {
		return tagged{"$t": "object", "class": "Map", "props": object{}}
	}
	if more > 0 {
		entries = append(entries, tagged{"$t": "more", "count": more})
	}
	return tagged{"$t": "map", "entries": entries}
}

func (e *encoder) setValues(o *goja.Object, path string, depth int) any {
	values := []any{}
	more := 0
	cb := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(values) >= e.lim.Keys {
			more++
			return goja.Undefined()
		}
		values = append(values, e.value(c.Argument(0), path+".<value>", depth+1))
		return goja.Undefined()
	})
	if _, err := e.b.setForEach(o, cb); err != nil {
		return tagged{"$t": "object", "class": "Set", "props": object{}}
	}
	if more > 0 {
		values = append(values, tagged{"$t": "more", "count": more})
	}
	return tagged{"$t": "set", "values": values}
}

func previewKeyText(v goja.Value) string {
	if s, ok := v.Export().(string); ok && len(s) < 40 {
		return strconv.Quote(s)
	}
	return "…"
}

// props previews o's own enumerable string-keyed properties, in order.
func (e *encoder) props(o *goja.Object, path string, depth int) object {
	keys := e.enumerableKeys(o)
	props := make(object, 0, min(len(keys), e.lim.Keys+1))
	for i, k := range keys {
		if i == e.lim.Keys {
			props = append(props, field{"…", tagged{"$t": "more", "count": len(keys) - i}})
			break
		}
		if v, ok := e.ownData(o, k); ok {
			props = append(props, field{k, e.value(v, path+"."+k, depth+1)})
		} else {
			props = append(props, field{k, tagged{"$t": "getter"}})
		}
	}
	return props
}

// enumerableKeys lists o's own enumerable string keys without running
// snippet code (o is not a Proxy).
func (e *encoder) enumerableKeys(o *goja.Object) []string {
	var keys []string
	err := e.vm.Try(func() { keys = o.Keys() })
	if err != nil {
		return nil
	}
	return keys
}

// ownData returns the value of o's own data property name, or false when it
// is missing or an accessor (which a preview must not call).
func (e *encoder) ownData(o *goja.Object, name string) (goja.Value, bool) {
	d, err := e.b.getDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	if err != nil || goja.IsUndefined(d) {
		return nil, false
	}
	desc := d.ToObject(e.vm)
	// A data descriptor's own keys are value/writable/enumerable/configurable.
	// Reading "value" only when it is an own key keeps Object.prototype
	// accessors a snippet installed from running.
	for _, k := range desc.Keys() {
		if k == "value" {
			return desc.Get("value"), true
		}
	}
	return nil, false
}

func (e *encoder) hasOwn(o *goja.Object, name string) bool {
	d, err := e.b.getDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	return err == nil && !goja.IsUndefined(d)
}

// dataString returns o's data property name (own or inherited, read without
// running code) when it is a string. It is not capped: callers cap it as a
// value (e.str) or a name (capName).
func (e *encoder) dataString(o *goja.Object, prop string) string {
	if v, ok := e.ownData(o, prop); ok {
		if s, ok := v.Export().(string); ok {
			return s
		}
	}
	for p := e.proto(o); p != nil; p = e.proto(p) {
		if p.ExportType() == proxyType {
			return ""
		}
		if v, ok := e.ownData(p, prop); ok {
			if s, ok := v.Export().(string); ok {
				return s
			}
			return ""
		}
	}
	return ""
}

func (e *encoder) errorName(o *goja.Object) string {
	if n := e.dataString(o, "name"); n != "" {
		return capName(n)
	}
	return "Error"
}

func (e *encoder) proto(o *goja.Object) *goja.Object {
	p, err := e.b.getPrototypeOf(goja.Undefined(), o)
	if err != nil || goja.IsNull(p) || goja.IsUndefined(p) {
		return nil
	}
	return p.ToObject(e.vm)
}

// constructorName is the name of the nearest prototype's constructor, read
// through data descriptors only ("" for a null prototype).
func (e *encoder) constructorName(o *goja.Object) string {
	p := e.proto(o)
	if p == nil {
		return ""
	}
	if p.ExportType() == proxyType {
		return "Object"
	}
	c, ok := e.ownData(p, "constructor")
	if !ok {
		return "Object"
	}
	co, ok := c.(*goja.Object)
	if !ok || co.ExportType() == proxyType {
		return "Object"
	}
	if n, ok := e.ownData(co, "name"); ok {
		if s, ok := n.Export().(string); ok && s != "" {
			return capName(s)
		}
	}
	return "Object"
}
