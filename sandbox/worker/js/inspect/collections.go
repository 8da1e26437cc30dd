package inspect

import (
	"strconv"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

func (e *Encoder) array(o *goja.Object, path string, depth int) any {
	n := e.ArrayLength(o)
	items := []any{}
	holes := int64(0)
	flushHoles := func() {
		if holes > 0 {
			if e.json {
				for range holes {
					items = append(items, nil)
				}
			} else {
				items = append(items, Tagged{"$t": "empty", "count": holes})
			}
			holes = 0
		}
	}
	shown := 0
	var i int64
	for i = 0; i < n && shown < e.lim.Keys && e.budget > 0; i++ {
		if holes > int64(e.lim.Keys)*100 {
			break // a long run of holes in a sparse array: stop scanning
		}
		v, ok := e.OwnData(o, strconv.FormatInt(i, 10))
		if !ok && e.json && !e.spend(len("null,")) {
			break // JSON's nulls for holes: a 4-billion-long sparse array costs its bytes
		}
		if !ok {
			if e.HasOwn(o, strconv.FormatInt(i, 10)) {
				flushHoles()
				items = append(items, e.accessor(o, strconv.FormatInt(i, 10)))
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
	if i < n && holes > 0 && !e.json && shown < e.lim.Keys && e.budget > 0 {
		holes += n - i
		i = n
	}
	flushHoles()
	if i < n {
		items = append(items, Tagged{"$t": "more", "count": n - i})
	}
	if e.json {
		return items
	}
	t := e.subclassArray(Tagged{"$t": "array", "items": items}, o, n)
	if n <= arrayExtrasScan {
		if props := e.arrayExtras(o, path, depth); len(props) > 0 {
			t["props"] = props
		}
	}
	return t
}

// arrayExtrasScan is the longest array whose own non-index properties a
// preview lists (a RegExp match's index, input and groups; a property a
// snippet set on an array): goja lists an array's keys with its indices,
// so a longer array's would cost a string per element on every preview.
const arrayExtrasScan = 1_000

// arrayExtras previews o's own enumerable properties other than its
// indices, in order, as inspect appends them after an array's items.
func (e *Encoder) arrayExtras(o *goja.Object, path string, depth int) object {
	keys := e.EnumerableKeys(o)
	i := 0
	for i < len(keys) && isArrayIndex(keys[i]) { // indices come first, ascending
		i++
	}
	extras := keys[i:]
	if len(extras) >= 2 && extras[0] == "input" && extras[1] == "index" {
		// A RegExp match: goja defines input before index, V8 (and so
		// Node's inspect) index before input.
		extras[0], extras[1] = extras[1], extras[0]
	}
	return e.propsOf(o, extras, path, depth)
}

// isArrayIndex reports whether k is an array index (ECMA-262 §6.1.7): the
// canonical decimal form of an integer below 2^32 - 1.
func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

func (e *Encoder) mapEntries(o *goja.Object, path string, depth int) any {
	entries := []any{}
	stopped := false
	cb := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(entries) >= e.lim.Keys || e.budget <= 0 {
			stopped = true
			panic(e.vm.ToValue(stopIteration)) // ends forEach: the rest is counted by size
		}
		k := e.value(c.Argument(1), path+".<key>", depth+1)
		v := e.value(c.Argument(0), path+".get("+previewKeyText(c.Argument(1))+")", depth+1)
		entries = append(entries, [2]any{k, v})
		return goja.Undefined()
	})
	if _, err := e.b.MapForEach(o, cb); err != nil && !stopped {
		return Tagged{"$t": "object", "class": "Map", "props": object{}}
	}
	if more := e.size(e.b.MapSize, o) - len(entries); stopped && more > 0 {
		entries = append(entries, Tagged{"$t": "more", "count": more})
	}
	return e.subclass(Tagged{"$t": "map", "entries": entries}, o, "Map")
}

// subclass names t's class when o's constructor is not the built-in's
// (base): inspect prints a subclass's name, "Stack(3) [ 1, 2, 3 ]",
// "Registry(1) [Map] {…}".
func (e *Encoder) subclass(t Tagged, o *goja.Object, base string) Tagged {
	if name := e.ConstructorName(o); name != "" && name != base && name != "Object" { // an anonymous class is "Object"
		t["class"] = name
	}
	return t
}

// subclassArray is subclass for an array of length n, which a subclass's
// preview carries as a typed array's does ("Stack(3) [ … ]").
func (e *Encoder) subclassArray(t Tagged, o *goja.Object, n int64) Tagged {
	if e.subclass(t, o, "Array")["class"] != nil {
		t["length"] = n
	}
	return t
}

// stopIteration is thrown by a preview's forEach callback to stop a long
// Map or Set after the entries it shows (a Map of ten million entries is
// not walked).
const stopIteration = "sandbox: preview stop"

// size reads a Map's or Set's size through its intrinsic getter.
func (e *Encoder) size(get goja.Callable, o *goja.Object) int {
	v, err := get(o)
	if err != nil {
		return 0
	}
	return int(v.ToInteger())
}

func (e *Encoder) setValues(o *goja.Object, path string, depth int) any {
	values := []any{}
	stopped := false
	cb := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(values) >= e.lim.Keys || e.budget <= 0 {
			stopped = true
			panic(e.vm.ToValue(stopIteration))
		}
		values = append(values, e.value(c.Argument(0), path+".<value>", depth+1))
		return goja.Undefined()
	})
	if _, err := e.b.SetForEach(o, cb); err != nil && !stopped {
		return Tagged{"$t": "object", "class": "Set", "props": object{}}
	}
	if more := e.size(e.b.SetSize, o) - len(values); stopped && more > 0 {
		values = append(values, Tagged{"$t": "more", "count": more})
	}
	return e.subclass(Tagged{"$t": "set", "values": values}, o, "Set")
}

// previewKeyText names a Map key in a circular reference's path. Only a
// short primitive string is spelled out: exporting an object would read
// its properties (getters) and recurse through its cycles.
func previewKeyText(v goja.Value) string {
	if _, ok := v.(*goja.Object); ok {
		return "…"
	}
	if s, ok := v.Export().(string); ok && len(s) < 40 {
		return strconv.Quote(s)
	}
	return "…"
}

// function previews a function with what Node's inspect prints of it: its
// name, and "kind" when it is a class ("class", with "extends" naming the
// class it extends) or an async or generator function ("AsyncFunction",
// "GeneratorFunction", "AsyncGeneratorFunction": its prototype's
// constructor's name).
func (e *Encoder) function(o *goja.Object) any {
	t := Tagged{"$t": "function", "name": capName(e.DataString(o, "name"))}
	if e.json {
		return t
	}
	if o.ExportType() == classType {
		t["kind"] = "class"
		if p := e.Proto(o); p != nil && p.ClassName() == "Function" {
			if n, ok := e.OwnData(p, "name"); ok {
				if s, ok := intrinsic.PrimitiveString(n); ok && s != "" {
					t["extends"] = capName(s)
				}
			}
		}
		return t
	}
	switch k := e.ConstructorName(o); k {
	case "AsyncFunction", "GeneratorFunction", "AsyncGeneratorFunction":
		t["kind"] = k
	}
	return t
}
