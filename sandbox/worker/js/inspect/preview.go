package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
)

// Tagged is a preview of what JSON cannot hold: {"$t": tag, ...}.
type Tagged = map[string]any

// object is a JSON object that keeps its keys in insertion order, as a
// console shows properties.
type object []field

type field struct {
	Key   string
	Value any
	// Symbol marks a symbol-keyed property: Key is "[Symbol(desc)]", as
	// Node prints it (unquoted).
	Symbol bool
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
	// A class constructor exports as a constructor-only Go function
	// (goja's classFuncObject); every other function as a FunctionCall one.
	classType   = reflect.TypeOf((func(goja.ConstructorCall) *goja.Object)(nil))
	promiseType = reflect.TypeOf((*goja.Promise)(nil))
	// A BigInt wrapper object exports as its *big.Int.
	bigIntType = reflect.TypeOf((*big.Int)(nil))
	// A Symbol wrapper object exports as its description text.
	stringType = reflect.TypeOf("")
	// An ArrayBuffer exports as a goja.ArrayBuffer (its bytes, not copied).
	arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
)

// Builtins are the intrinsics a preview calls (intrinsic.Builtins) and
// the polyfill classes it shows by their fields.
type Builtins struct {
	intrinsic.Builtins
	// domExceptionName is the name getter of the polyfill's DOMException
	// (set when its group loads: domExceptionName).
	domExceptionName *goja.Object
	// inspected are the polyfill classes previewed by their fields, as
	// Node's inspect shows them (URL, events, encoders), and paramsForEach
	// is URLSearchParams.prototype.forEach: both taken when their group
	// loads (captureInspected).
	inspected     []inspectedClass
	paramsForEach *goja.Object
}

// Encoder turns goja values into previews (console arguments) or into JSON
// (facts, output). It never runs snippet code: it reads properties through
// descriptors, shows accessors without calling them, and does not look inside
// a Proxy; the only getters it calls are the runtime polyfills' own
// (inspected.go), and, through goja's stack formatting, an error's message
// getter that readMessages ran before (messages). An encoder is used
// on the runtime's goroutine only.
type Encoder struct {
	vm  *goja.Runtime
	b   *Builtins
	lim pipe.PreviewLimits
	// host lays out an error's stack; user makes its frames the user's,
	// as error events show them.
	host Host
	user bool
	// json selects the facts/output form: plain objects and arrays as JSON
	// objects and arrays, tags only for what JSON cannot hold.
	json bool

	ancestors []*goja.Object
	paths     []string
	// refs numbers the objects a circular reference points back to, as
	// Node's <ref *1> and [Circular *1].
	refs map[*goja.Object]int
	// budget is what is left of the current preview's byte budget
	// (approximately its JSON size): once spent, collections end with a
	// "more" entry and strings are cut, so a value that shares one large
	// sub-structure many times is previewed in bounded time and size.
	budget int
	busy   bool
	// messages are what the message getters of the errors a console line
	// (or an uncaught error's report) prints returned, read before its
	// previews (Runtime.readMessages): shown as those errors' messages.
	messages map[*goja.Object]string
	// cutDeep is set when the current value was cut at lim.Depth.
	cutDeep bool
}

// jsonLimits are the JSON encoder's (facts, output, %j): nothing is cut
// but by the caller's byte budget, and objects nested deeper than 1,000
// levels (JSON.stringify's own recursion gives up before V8's would).
var jsonLimits = pipe.PreviewLimits{Depth: 1000, Keys: math.MaxInt32, String: math.MaxInt32}

// Complete reports whether the last encodeBudget kept all of its value:
// nothing was cut for the budget or the depth.
func (e *Encoder) Complete() bool {
	return e.budget > 0 && !e.cutDeep
}

// DefaultPreviewBudget is the byte budget of one preview when the caller
// gives none (encode): about the size of its JSON.
const DefaultPreviewBudget = 256 << 10

// Encode returns the preview of v within DefaultPreviewBudget bytes.
func (e *Encoder) Encode(v goja.Value) (out any) {
	return e.EncodeBudget(v, DefaultPreviewBudget)
}

// EncodeBudget returns the preview of v, built within about budget bytes of
// JSON (checked while it is built, before anything large is copied). It
// never runs snippet code; were it re-entered all the same (it is not
// reentrant), the inner value is shown as opaque.
func (e *Encoder) EncodeBudget(v goja.Value, budget int) (out any) {
	if e.busy {
		return Tagged{"$t": "object", "class": "Object", "props": object{}}
	}
	e.busy = true
	defer func() { e.busy = false }()
	e.ancestors, e.paths = e.ancestors[:0], e.paths[:0]
	clear(e.refs)
	e.budget = max(budget, 64)
	e.cutDeep = false
	return e.value(v, "$", 0)
}

// Used is how much of budget the last encodeBudget(v, budget) spent.
func (e *Encoder) Used(budget int) int {
	return max(0, min(budget, budget-e.budget))
}

// Capped caps s as a preview's string outside a preview (an error's
// message, say).
func (e *Encoder) Capped(s string) string {
	if e.busy {
		return e.str(s)
	}
	e.budget = DefaultPreviewBudget
	return e.str(s)
}

// spend takes n bytes from the budget and reports whether any were left.
func (e *Encoder) spend(n int) bool {
	ok := e.budget > 0
	e.budget -= n
	return ok
}

func (e *Encoder) value(v goja.Value, path string, depth int) any {
	switch {
	case v == nil || goja.IsUndefined(v):
		return Tagged{"$t": "undefined"}
	case goja.IsNull(v):
		return nil
	}
	if sym, ok := v.(*goja.Symbol); ok {
		// Symbol.prototype.toString copies the description: cap it as a
		// string (a description is a value the snippet chose).
		s, err := e.b.SymbolString(sym)
		if err != nil {
			return Tagged{"$t": "symbol", "v": "Symbol()"}
		}
		d := strings.TrimSuffix(strings.TrimPrefix(s.String(), "Symbol("), ")")
		return Tagged{"$t": "symbol", "v": "Symbol(" + e.str(d) + ")"}
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
		e.spend(8)
		return x
	case float64:
		e.spend(8)
		return number(x)
	case *big.Int:
		return Tagged{"$t": "bigint", "v": e.bigint(x)}
	}
	return e.str(v.String())
}

// bigint prints x in decimal, cut like a string: a BigInt of millions of
// digits is not converted in full (that alone would take seconds), only
// its leading digits, followed by "…" and its digit count.
func (e *Encoder) bigint(x *big.Int) string {
	limit := min(e.lim.String, max(e.budget, 16))
	// bits·log10(2) bounds the digit count from above (+1).
	if digits := int(float64(x.BitLen())*math.Log10(2)) + 1; digits <= limit {
		e.spend(digits)
		return x.String()
	}
	// The leading digits come from a float with enough precision, and
	// the exact digit count from its exponent.
	f := new(big.Float).SetPrec(uint(limit)*4 + 64).SetInt(x)
	txt := f.Text('e', limit-1) // d.ddd…e+NNN
	mant, _, _ := strings.Cut(txt, "e+")
	mant = strings.Replace(mant, ".", "", 1)
	e.spend(len(mant))
	return mant + "…"
}

func number(f float64) any {
	switch {
	case math.IsNaN(f):
		return Tagged{"$t": "number", "v": "NaN"}
	case math.IsInf(f, 1):
		return Tagged{"$t": "number", "v": "Infinity"}
	case math.IsInf(f, -1):
		return Tagged{"$t": "number", "v": "-Infinity"}
	case f == 0 && math.Signbit(f):
		return Tagged{"$t": "number", "v": "-0"}
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

// str caps s at the preview's string limit and what is left of its byte
// budget, counting the kept part against the budget. Only the kept part is
// copied.
func (e *Encoder) str(s string) string {
	limit := min(e.lim.String, max(e.budget, 16))
	if len(s) <= limit {
		e.spend(len(s) + 2)
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	n := 0
	for i := range s {
		if n == limit {
			e.spend(i + 2)
			return strings.ToValidUTF8(s[:i], "\uFFFD") + "…"
		}
		n++
	}
	e.spend(len(s) + 2)
	return strings.ToValidUTF8(s, "\uFFFD")
}

// unproxy returns the innermost target of a Proxy (o itself when it is not
// one), read from goja without running a trap, or nil when a Proxy on the
// way is revoked. Node's util.inspect does the same by default
// (showProxy: false).
func unproxy(o *goja.Object) *goja.Object {
	for o != nil && o.ExportType() == proxyType {
		p, ok := o.Export().(goja.Proxy) // a Proxy exports itself: no trap runs
		if !ok {
			return nil
		}
		o = p.Target()
	}
	return o
}

func (e *Encoder) object(o *goja.Object, path string, depth int) any {
	e.spend(16)
	if o = unproxy(o); o == nil {
		return Tagged{"$t": "revoked"}
	}
	for i, a := range e.ancestors {
		if a == o {
			if e.refs == nil {
				e.refs = map[*goja.Object]int{}
			}
			n, ok := e.refs[a]
			if !ok {
				n = len(e.refs) + 1
				e.refs[a] = n
			}
			return Tagged{"$t": "circular", "path": e.paths[i], "ref": n}
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
	if class == "Object" {
		if _, ok := goja.AssertFunction(o); ok { // goja's async arrow functions say "Object"
			class = "Function"
		}
	}
	if typedArrayTypes[o.ExportType()] {
		return e.typedArray(o, depth)
	}
	if !e.json && class == "Object" && o.ExportType() == bigIntType {
		// A BigInt wrapper (Object(1n)): its export type says so without
		// exporting anything, and it exports its primitive.
		if x, ok := o.Export().(*big.Int); ok {
			return Tagged{"$t": "boxed", "class": "BigInt", "v": Tagged{"$t": "bigint", "v": e.bigint(x)}}
		}
	}
	switch class {
	case "String", "Number", "Boolean":
		// A primitive wrapper: its primitive is read by the intrinsic
		// String.prototype.valueOf (an internal slot, no snippet code) or
		// exported by goja. Keys would list every index of a long String.
		if e.json {
			break
		}
		var prim goja.Value = e.vm.ToValue(o.Export())
		if class == "String" {
			v, err := e.b.StringValue(o)
			if err != nil {
				break
			}
			prim = v
		}
		return Tagged{"$t": "boxed", "class": class, "v": e.value(prim, path, depth+1)}
	case "Object":
		// A Symbol wrapper (Object(Symbol("s"))): goja calls its class
		// Object and exports it as a string; the intrinsic
		// Symbol.prototype.toString reads its symbol (and throws for any
		// other object).
		if !e.json && o.ExportType() == stringType {
			if s, err := e.b.SymbolString(o); err == nil {
				return Tagged{"$t": "boxed", "class": "Symbol", "v": Tagged{"$t": "symbol", "v": e.str(s.String())}}
			}
		}
	case "Function":
		t := e.function(o).(Tagged)
		if !e.json && depth < e.lim.Depth {
			// Own enumerable properties (a class's static fields) print
			// after the function, as inspect does: [class C] { count: 1 }.
			e.ancestors = append(e.ancestors, o)
			e.paths = append(e.paths, path)
			if props := e.props(o, path, depth); len(props) > 0 {
				t["props"] = props
			}
			e.ancestors = e.ancestors[:len(e.ancestors)-1]
			e.paths = e.paths[:len(e.paths)-1]
			if n, ok := e.refs[o]; ok {
				t["ref"] = n
			}
		}
		return t
	case "Date":
		if t, err := e.b.DateValue(o); err == nil && goja.IsNaN(t) {
			return Tagged{"$t": "date", "v": "Invalid Date"}
		}
		iso, err := e.b.DateISO(o)
		if err != nil {
			return Tagged{"$t": "date", "v": "Invalid Date"}
		}
		return Tagged{"$t": "date", "v": iso.String()}
	case "RegExp":
		src, err1 := e.b.RegExpSource(o)
		flags, err2 := e.b.RegExpFlags(o)
		if err1 != nil || err2 != nil {
			return Tagged{"$t": "regexp", "v": "/(?:)/"}
		}
		return Tagged{"$t": "regexp", "v": "/" + src.String() + "/" + flags.String()}
	case "Error":
		msg, got := e.messages[o]
		if !got {
			msg = e.DataString(o, "message")
		}
		name, msg := e.ErrorName(o), e.str(msg)
		head := ErrorHead(name, msg, e.ConstructorName(o))
		// goja's stack names the bundle's namespaces and bytecode offsets;
		// show the user's frames instead, as error events do.
		t := Tagged{"$t": "error", "name": name, "message": msg, "stack": e.str(e.host.ErrorStack(o, head, e.StackString(o), e.user))}
		if !e.json && depth < e.lim.Depth {
			e.ancestors = append(e.ancestors, o)
			e.paths = append(e.paths, path)
			e.errorExtras(t, o, path, depth)
			e.ancestors = e.ancestors[:len(e.ancestors)-1]
			e.paths = e.paths[:len(e.paths)-1]
			if n, ok := e.refs[o]; ok {
				t["ref"] = n
			}
		}
		return t
	}

	if depth >= e.lim.Depth {
		e.cutDeep = true
		return e.cut(o, class)
	}
	e.ancestors = append(e.ancestors, o)
	e.paths = append(e.paths, path)
	defer func() {
		e.ancestors = e.ancestors[:len(e.ancestors)-1]
		e.paths = e.paths[:len(e.paths)-1]
	}()
	p := e.container(o, class, path, depth)
	if n, ok := e.refs[o]; ok {
		if t, ok := p.(Tagged); ok {
			t["ref"] = n
		}
	}
	return p
}

// container previews an object that may hold others (an array, a Map, a
// Set, a plain or class instance).
func (e *Encoder) container(o *goja.Object, class, path string, depth int) any {
	switch class {
	case "Array":
		return e.array(o, path, depth)
	case "Map":
		return e.mapEntries(o, path, depth)
	case "Set":
		return e.setValues(o, path, depth)
	}
	if t, ok := e.inspectedPreview(o, path, depth); ok {
		return t
	}
	name := e.ConstructorName(o)
	props := e.props(o, path, depth)
	if !e.json && name == "DataView" {
		props = append(e.dataView(o, path, depth), props...)
	}
	if !e.json && o.ExportType() == arrayBufferType {
		if ab, ok := o.Export().(goja.ArrayBuffer); ok {
			props = append(object{
				{Key: "[Uint8Contents]", Value: Tagged{"$t": "bytes", "v": bufferContents(ab)}, Symbol: true},
				{Key: "byteLength", Value: len(ab.Bytes())},
			}, props...)
		}
	}
	if e.json && (name == "Object" || name == "") {
		return props
	}
	if o.ClassName() == "Arguments" {
		name = "[Arguments]" // inspect's prefix for an arguments object
	}
	if tag := e.toStringTag(o); tag != "" && tag != name {
		// inspect's getPrefix: Object [Math], Temp [TT], [Object: null prototype] [Tag].
		if name == "" {
			name = nullPrototype
		}
		name += " [" + capName(tag) + "]"
	}
	if name == "" {
		name = nullPrototype
	}
	if class == "Promise" || o.ExportType() == promiseType {
		name = "Promise"
		if p, ok := o.Export().(*goja.Promise); ok { // exports itself: no code runs
			internal := object{{Key: "[[state]]", Value: [...]string{"pending", "fulfilled", "rejected"}[p.State()]}}
			if p.State() != goja.PromiseStatePending {
				internal = append(internal, field{Key: "[[result]]", Value: e.value(p.Result(), path+".[[result]]", depth+1)})
			}
			props = append(internal, props...)
		}
	}
	return Tagged{"$t": "object", "class": name, "props": props}
}

// dataView previews what Node's inspect lists first of a DataView: its
// byteLength, byteOffset and buffer, read with the intrinsic getters (no
// snippet code; they throw for an object that is not a DataView, which
// then shows none of them).
func (e *Encoder) dataView(o *goja.Object, path string, depth int) object {
	length, offset, buf, err := e.viewFields(o)
	if err != nil {
		return nil
	}
	return object{
		{Key: "byteLength", Value: e.value(length, path+".byteLength", depth+1)},
		{Key: "byteOffset", Value: e.value(offset, path+".byteOffset", depth+1)},
		{Key: "buffer", Value: e.value(buf, path+".buffer", depth+1)},
	}
}

// viewFields reads the DataView o's byteLength, byteOffset and buffer
// through the intrinsic getters (no snippet code runs); they throw for an
// object that is not a DataView.
func (e *Encoder) viewFields(o *goja.Object) (length, offset, buffer goja.Value, err error) {
	g := e.b.DataView(e.vm)
	if g.Err != nil {
		return nil, nil, nil, g.Err
	}
	if length, err = g.ByteLength(o); err != nil {
		return nil, nil, nil, err
	}
	if offset, err = g.ByteOffset(o); err != nil {
		return nil, nil, nil, err
	}
	if buffer, err = g.Buffer(o); err != nil {
		return nil, nil, nil, err
	}
	return length, offset, buffer, nil
}

// DataViewBytes copies the bytes the DataView o views (viewFields).
func (e *Encoder) DataViewBytes(o *goja.Object) ([]byte, error) {
	length, offset, buf, err := e.viewFields(o)
	if err != nil {
		return nil, err
	}
	ab, ok := buf.Export().(goja.ArrayBuffer)
	start, n := offset.ToInteger(), length.ToInteger()
	if !ok || start < 0 || n < 0 || start+n > int64(len(ab.Bytes())) {
		return nil, errors.New("a detached or resized buffer")
	}
	return bytes.Clone(ab.Bytes()[start : start+n]), nil
}

// viewGetters are the intrinsic DataView getters (or the error that they
// were replaced before the first DataView preview).

// bufferContents is an ArrayBuffer's bytes as Node's inspect shows them
// (formatArrayBuffer): <01 ff 10>, the first 100 (maxArrayLength) and
// "... n more bytes"; "(detached)" for a detached one.
func bufferContents(ab goja.ArrayBuffer) string {
	if ab.Detached() {
		return "(detached)"
	}
	b := ab.Bytes()
	const shown = 100
	var sb strings.Builder
	sb.WriteByte('<')
	for i, c := range b[:min(len(b), shown)] {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	if n := len(b) - shown; n > 0 {
		fmt.Fprintf(&sb, " ... %d more byte", n)
		if n > 1 {
			sb.WriteByte('s')
		}
	}
	sb.WriteByte('>')
	return sb.String()
}

// typedArrayTypes are goja's export types of the typed arrays: a typed
// array exports its backing slice, without copying or running code.
var typedArrayTypes = map[reflect.Type]bool{
	reflect.TypeOf([]uint8(nil)): true, reflect.TypeOf([]int8(nil)): true, reflect.TypeOf([]uint16(nil)): true,
	reflect.TypeOf([]int16(nil)): true, reflect.TypeOf([]uint32(nil)): true, reflect.TypeOf([]int32(nil)): true,
	reflect.TypeOf([]uint64(nil)): true, reflect.TypeOf([]int64(nil)): true, reflect.TypeOf([]float32(nil)): true,
	reflect.TypeOf([]float64(nil)): true,
}

// typedArray previews a typed array as Node does (Uint8Array(3) [ 1, 2, 3 ]):
// its first elements read from its backing slice, never its index keys
// (a typed array of 50 million elements has 50 million of them).
func (e *Encoder) typedArray(o *goja.Object, depth int) any {
	v := reflect.ValueOf(o.Export())
	n := v.Len()
	class := e.ConstructorName(o)
	if e.json {
		class = ""
	}
	if depth >= e.lim.Depth && !e.json {
		return Tagged{"$t": "array", "class": class, "length": n, "items": []any{Tagged{"$t": "more", "count": n}}}
	}
	items := []any{}
	i := 0
	for ; i < n && i < e.lim.Keys && e.budget > 0; i++ {
		el := v.Index(i)
		switch {
		case el.CanInt() && (el.Kind() == reflect.Int64):
			items = append(items, Tagged{"$t": "bigint", "v": strconv.FormatInt(el.Int(), 10)})
		case el.CanUint() && (el.Kind() == reflect.Uint64):
			items = append(items, Tagged{"$t": "bigint", "v": strconv.FormatUint(el.Uint(), 10)})
		case el.CanInt():
			items = append(items, el.Int())
		case el.CanUint():
			items = append(items, int64(el.Uint()))
		default:
			items = append(items, number(el.Float()))
		}
		e.spend(8)
	}
	if i < n {
		items = append(items, Tagged{"$t": "more", "count": n - i})
	}
	if e.json {
		return items
	}
	return Tagged{"$t": "array", "class": class, "length": n, "items": items}
}

// cut is the preview of an object past the depth cap.
func (e *Encoder) cut(o *goja.Object, class string) any {
	if class == "Array" {
		n := e.ArrayLength(o)
		return e.subclassArray(Tagged{"$t": "array", "items": []any{Tagged{"$t": "more", "count": n}}}, o, n)
	}
	keys := e.EnumerableKeys(o)
	return Tagged{"$t": "object", "class": e.classLabel(o, class), "props": object{{Key: "…", Value: Tagged{"$t": "more", "count": len(keys)}}}}
}

func (e *Encoder) classLabel(o *goja.Object, class string) string {
	if class == "Map" || class == "Set" {
		return class
	}
	if n := e.ConstructorName(o); n != "" {
		return n
	}
	return nullPrototype
}

// maxProtoSteps bounds a walk up a prototype chain while previewing (lookup).
const maxProtoSteps = 64

// toStringTag is o's Symbol.toStringTag as Node's inspect shows it beside
// the class: a string data property, own or inherited, that is not an own
// enumerable one (inspect lists that among the properties). A getter is not
// called (Node calls it): no snippet code runs.
func (e *Encoder) toStringTag(o *goja.Object) string {
	desc, on, ok := e.Lookup(o, goja.SymToStringTag)
	if !ok || desc == nil {
		return ""
	}
	v, data := DescValue(desc)
	if !data {
		return ""
	}
	if on == o {
		if descFlag(desc, "enumerable") {
			return ""
		}
	}
	s, _ := PrimitiveString(v)
	return s
}

// nullPrototype is the class of an object without a prototype, as Node's
// util.inspect labels it.
const nullPrototype = "[Object: null prototype]"

func (e *Encoder) ArrayLength(o *goja.Object) int64 {
	v, ok := e.OwnData(o, "length")
	if !ok {
		return 0
	}
	if _, ok := v.(*goja.Object); ok {
		return 0
	}
	n, _ := v.Export().(int64)
	return n
}

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

// PrimitiveString returns v when it is a primitive string. An object is
// never exported: Export reads its properties (getters) and recurses
// through its cycles.
func PrimitiveString(v goja.Value) (string, bool) {
	if _, ok := v.(*goja.Object); ok || v == nil {
		return "", false
	}
	s, ok := v.Export().(string)
	return s, ok
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
				if s, ok := PrimitiveString(n); ok && s != "" {
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
		if dv, ok := DescValue(desc); ok {
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
	get, _ := DescField(desc, "get")
	set, _ := DescField(desc, "set")
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
	d, err := e.b.GetDescriptor(goja.Undefined(), o, e.vm.ToValue(name))
	if err != nil || goja.IsUndefined(d) {
		return nil, false
	}
	return DescValue(d.ToObject(e.vm))
}

// DescValue is a property descriptor's value, false for an accessor's.
// A data descriptor's own keys are value/writable/enumerable/configurable,
// an accessor's get/set/enumerable/configurable: a key is read only when
// it is the descriptor's own, so that a "value" or "get" accessor a snippet
// installed on Object.prototype never runs.
func DescValue(desc *goja.Object) (goja.Value, bool) {
	return DescField(desc, "value")
}

// DescField is a property descriptor's own field key (value, get, set,
// enumerable…), false when the descriptor has none. goja builds a
// descriptor object by assignment, so a snippet's accessor of that name
// on Object.prototype keeps the field from being made: only own keys are
// read, never one inherited from Object.prototype.
func DescField(desc *goja.Object, key string) (goja.Value, bool) {
	for _, k := range desc.Keys() {
		if k == key {
			return desc.Get(key), true
		}
	}
	return nil, false
}

// descFlag is a descriptor's own boolean field (enumerable, configurable).
func descFlag(desc *goja.Object, key string) bool {
	v, ok := DescField(desc, key)
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
		if v, data := DescValue(desc); data && !e.builtInHolder(on) {
			if _, fn := goja.AssertFunction(v); fn {
				return false
			}
		}
	}
	desc, on, ok := e.Lookup(o, e.vm.ToValue("toString"))
	if !ok || desc == nil {
		return true
	}
	v, data := DescValue(desc)
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
		v, data := DescValue(desc)
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
	v, _ := DescValue(desc)
	if v == nil {
		return "" // an accessor: not called
	}
	s, _ := PrimitiveString(v)
	return s
}

// domExceptionName is the name of a DOMException (polyfill.js), whose
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
	s, ok := PrimitiveString(v)
	return s, ok && s != ""
}

// trustedNameGetter reports whether desc is an accessor whose getter is the
// polyfill's DOMException name getter (no snippet code).
func (e *Encoder) trustedNameGetter(desc *goja.Object) bool {
	if e.b.domExceptionName == nil {
		return false
	}
	if _, data := DescValue(desc); data {
		return false
	}
	get, ok := DescField(desc, "get")
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

func (e *Encoder) Proto(o *goja.Object) *goja.Object {
	p, err := e.b.GetPrototypeOf(goja.Undefined(), o)
	if err != nil || goja.IsNull(p) || goja.IsUndefined(p) {
		return nil
	}
	return p.ToObject(e.vm)
}

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
		if s, ok := PrimitiveString(n); ok && s != "" {
			return capName(s)
		}
	}
	return "Object"
}

// Host is what an Encoder needs from the runtime that owns it.
type Host interface {
	// ErrorStack is the stack text an error preview shows for the error o:
	// head (its "Name: message" line) and the frames of stack, goja's
	// stack text of o; user selects the user's frames, as error events
	// show them, over the bundle's.
	ErrorStack(o *goja.Object, head, stack string, user bool) string
}

// NewEncoder returns an encoder of console previews on vm, within lim;
// user makes an error's frames the user's (Host.ErrorStack).
func NewEncoder(vm *goja.Runtime, b *Builtins, lim pipe.PreviewLimits, host Host, user bool) Encoder {
	return Encoder{vm: vm, b: b, lim: lim, host: host, user: user}
}

// NewJSONEncoder returns an encoder of facts and output on vm: plain
// objects and arrays as JSON, within jsonLimits.
func NewJSONEncoder(vm *goja.Runtime, b *Builtins, host Host) Encoder {
	return Encoder{vm: vm, b: b, lim: jsonLimits, host: host, json: true}
}

// SetDOMExceptionName records get, the name getter of the polyfill's
// DOMException, when its group loads: errors of that class are named by
// it.
func (b *Builtins) SetDOMExceptionName(get *goja.Object) { b.domExceptionName = get }

// errorClasses are ECMAScript's error classes.
var errorClasses = map[string]bool{"Error": true, "TypeError": true, "RangeError": true, "ReferenceError": true,
	"SyntaxError": true, "EvalError": true, "URIError": true, "AggregateError": true}

// IsErrorClass reports whether name is one of ECMAScript's error classes.
func IsErrorClass(name string) bool { return errorClasses[name] }

// IsTypedArray reports whether o is a typed array (Uint8Array, …), by its
// export type: no code runs.
func IsTypedArray(o *goja.Object) bool { return typedArrayTypes[o.ExportType()] }

// Busy reports whether e is encoding a value now (a getter it called is
// running).
func (e *Encoder) Busy() bool { return e.busy }

// SwapMessages sets the error messages the next previews show (see
// messages) to m and returns the ones set before.
func (e *Encoder) SwapMessages(m map[*goja.Object]string) (old map[*goja.Object]string) {
	old, e.messages = e.messages, m
	return old
}

// SetMessage records s as the message the error o shows: what its message
// getter returned.
func (e *Encoder) SetMessage(o *goja.Object, s string) {
	if e.messages == nil {
		e.messages = map[*goja.Object]string{}
	}
	e.messages[o] = s
}

// Message is the message SetMessage recorded for o.
func (e *Encoder) Message(o *goja.Object) (string, bool) {
	s, ok := e.messages[o]
	return s, ok
}
