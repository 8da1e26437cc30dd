package intrinsic

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// Builtins are the intrinsics the runtime and its modules call: Object's
// captured when the runtime is created, before any snippet code runs, the
// others found on first use and checked to be the intrinsics (Init), so a
// snippet that replaces Object.getOwnPropertyDescriptor or
// Map.prototype.forEach cannot intercept them.
type Builtins struct {
	OwnKeys        goja.Callable // Reflect.ownKeys
	GetDescriptor  goja.Callable // Object.getOwnPropertyDescriptor
	GetPrototypeOf goja.Callable // Object.getPrototypeOf
	SetPrototypeOf goja.Callable // Object.setPrototypeOf
	ReflectGet     goja.Callable // Reflect.get
	ReflectHas     goja.Callable // Reflect.has
	Freeze         goja.Callable // Object.freeze
	JSONParse      goja.Callable // JSON.parse
	DateISO        goja.Callable // Date.prototype.toISOString
	DateValue      goja.Callable // Date.prototype.getTime
	RegExpSource   goja.Callable // get RegExp.prototype.source
	RegExpFlags    goja.Callable // get RegExp.prototype.flags
	MapForEach     goja.Callable // Map.prototype.forEach
	MapSize        goja.Callable // get Map.prototype.size
	SetSize        goja.Callable // get Set.prototype.size
	SetForEach     goja.Callable // Set.prototype.forEach
	SymbolString   goja.Callable // Symbol.prototype.toString
	BigIntString   goja.Callable // BigInt.prototype.toString
	StringValue    goja.Callable // String.prototype.valueOf (a String wrapper's string)
	Number         goja.Callable // Number (%d)
	ParseInt       goja.Callable // parseInt (%i)
	ParseFloat     goja.Callable // parseFloat (%f)
	// view are DataView's getters, found on the first DataView preview
	// (not per runtime: few runs preview one).
	// view are DataView's getters, found on the first DataView preview
	// (not per runtime: few runs preview one): DataView.
	view *ViewGetters
	vm   *goja.Runtime
}

// ViewGetters are the intrinsic DataView getters (byteLength, byteOffset,
// buffer), or the error that kept them from being found.
type ViewGetters struct {
	ByteLength, ByteOffset, Buffer goja.Callable
	Err                            error
}

// DataView returns the intrinsic DataView getters, found on first use.
func (b *Builtins) DataView(vm *goja.Runtime) *ViewGetters {
	g := b.view
	if g == nil {
		g = &ViewGetters{}
		for _, f := range []struct {
			in intrinsic
			to *goja.Callable
		}{{inViewByteLength, &g.ByteLength}, {inViewByteOffset, &g.ByteOffset}, {inViewBuffer, &g.Buffer}} {
			if *f.to, g.Err = resolve(vm, b, f.in); g.Err != nil {
				break
			}
		}
		b.view = g
	}
	return g
}

var proxyType = reflect.TypeOf(goja.Proxy{})

// Builtins are captured lazily (issue 12). The encoder, the input and reply
// parsers and the polyfills' Proxy traps call intrinsics (builtins) that a
// snippet may have replaced by the time they are needed, so they must be
// the runtime's own. Capturing them all in New built the Reflect, JSON,
// Map, Set, RegExp, Symbol, BigInt and Date objects of every runtime: half
// of a plain run's set-up. Now only Object's functions are captured in New
// (Object is built from a template, one function at a time); every other
// intrinsic is found the first time it is called, by reading own data
// properties through Object.getOwnPropertyDescriptor (no getter, no Proxy
// trap: no snippet code), and accepted only if it is the intrinsic itself:
// a Go-backed function whose Go code is the code of the same intrinsic in
// a pristine runtime (intrinsicCode). Anything else, such as a snippet's
// replacement, fails the call with a TypeError (errReplaced), which callers
// already treat as a builtin that threw (the encoder shows an opaque value).

// errReplaced is the error of an intrinsic that a snippet replaced before
// the runtime first needed it.
var errReplaced = errors.New("a built-in the playground needs was replaced")

// intrinsic names a builtin by its path from the global object; getter
// selects the getter of the last property instead of its value.
type intrinsic struct {
	path   []string
	getter bool
	// regexp starts the path at the prototype of a fresh regular expression
	// literal instead of the global object (the global RegExp is a Proxy:
	// parity/regexp_install.go).
	regexp bool
}

var (
	inReflectOwnKeys = intrinsic{path: []string{"Reflect", "ownKeys"}}
	inReflectGet     = intrinsic{path: []string{"Reflect", "get"}}
	inReflectHas     = intrinsic{path: []string{"Reflect", "has"}}
	inJSONParse      = intrinsic{path: []string{"JSON", "parse"}}
	inDateISO        = intrinsic{path: []string{"Date", "prototype", "toISOString"}}
	inDateValue      = intrinsic{path: []string{"Date", "prototype", "getTime"}}
	inRegExpSource   = intrinsic{path: []string{"source"}, getter: true, regexp: true}
	inRegExpFlags    = intrinsic{path: []string{"flags"}, getter: true, regexp: true}
	inMapForEach     = intrinsic{path: []string{"Map", "prototype", "forEach"}}
	inSetForEach     = intrinsic{path: []string{"Set", "prototype", "forEach"}}
	inSymbolString   = intrinsic{path: []string{"Symbol", "prototype", "toString"}}
	inBigIntString   = intrinsic{path: []string{"BigInt", "prototype", "toString"}}
	inMapSize        = intrinsic{path: []string{"Map", "prototype", "size"}, getter: true}
	inSetSize        = intrinsic{path: []string{"Set", "prototype", "size"}, getter: true}
	inStringValue    = intrinsic{path: []string{"String", "prototype", "valueOf"}}
	inNumber         = intrinsic{path: []string{"Number"}}
	inParseInt       = intrinsic{path: []string{"parseInt"}}
	inParseFloat     = intrinsic{path: []string{"parseFloat"}}
	inViewBuffer     = intrinsic{path: []string{"DataView", "prototype", "buffer"}, getter: true}
	inViewByteLength = intrinsic{path: []string{"DataView", "prototype", "byteLength"}, getter: true}
	inViewByteOffset = intrinsic{path: []string{"DataView", "prototype", "byteOffset"}, getter: true}

	lazyIntrinsics = []intrinsic{inReflectOwnKeys, inReflectGet, inReflectHas, inJSONParse, inDateISO, inDateValue,
		inRegExpSource, inRegExpFlags, inMapForEach, inSetForEach, inSymbolString, inBigIntString,
		inMapSize, inSetSize, inStringValue, inNumber, inParseInt, inParseFloat,
		inViewBuffer, inViewByteLength, inViewByteOffset}
)

func (in intrinsic) key() string {
	k := strings.Join(in.path, ".")
	if in.regexp {
		k = "RegExp.prototype." + k
	}
	if in.getter {
		k = "get " + k
	}
	return k
}

// intrinsicCode maps each lazy intrinsic (intrinsic.key) to the address of
// its Go code, read once per process from a pristine runtime.
var intrinsicCode = sync.OnceValue(func() map[string]uintptr {
	vm := goja.New()
	gopd, _ := goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("getOwnPropertyDescriptor"))
	gpo, _ := goja.AssertFunction(vm.Get("Object").ToObject(vm).Get("getPrototypeOf"))
	m := map[string]uintptr{}
	for _, in := range lazyIntrinsics {
		o, err := findIntrinsic(vm, gopd, gpo, in)
		if err != nil {
			panic("sandbox: intrinsic " + in.key() + ": " + err.Error())
		}
		pc, ok := nativeCode(o)
		if !ok {
			panic("sandbox: intrinsic " + in.key() + " is not Go-backed")
		}
		m[in.key()] = pc
	}
	return m
})

// nativeCode is the address of the Go code of o when o is a Go-backed
// function (goja exports those as their Go function).
func nativeCode(o *goja.Object) (uintptr, bool) {
	if o.ExportType() != nativeFuncType {
		return 0, false
	}
	f, ok := o.Export().(func(goja.FunctionCall) goja.Value)
	if !ok || f == nil {
		return 0, false
	}
	return reflect.ValueOf(f).Pointer(), true
}

// emptyRegExpProgram makes a fresh regular expression from a literal (no
// global is read).
var emptyRegExpProgram = goja.MustCompile("regexp.js", "/(?:)/", true)

var nativeFuncType = reflect.TypeOf(func(goja.FunctionCall) goja.Value { return nil })

// findIntrinsic follows in.path from vm's global object through own data
// properties (the last one's getter when in.getter), read as descriptors:
// no getter runs and no Proxy is entered, so no snippet code runs.
func findIntrinsic(vm *goja.Runtime, gopd, gpo goja.Callable, in intrinsic) (*goja.Object, error) {
	o := vm.GlobalObject()
	if in.regexp {
		re, err := vm.RunProgram(emptyRegExpProgram)
		if err != nil {
			return nil, errReplaced
		}
		p, err := gpo(goja.Undefined(), re) // a fresh literal's prototype is the intrinsic one
		if err != nil {
			return nil, errReplaced
		}
		if o, _ = p.(*goja.Object); o == nil {
			return nil, errReplaced
		}
	}
	for i, name := range in.path {
		if o.ExportType() == proxyType {
			return nil, errReplaced
		}
		d, err := gopd(goja.Undefined(), o, vm.ToValue(name))
		if err != nil {
			return nil, errReplaced
		}
		desc, ok := d.(*goja.Object)
		if !ok {
			return nil, errReplaced
		}
		field := "value"
		if in.getter && i == len(in.path)-1 {
			field = "get"
		}
		// The descriptor is a plain object goja made; its fields are own
		// data properties, and an absent one must not be looked up on
		// Object.prototype (a snippet may have put a getter there).
		if !slices.Contains(desc.GetOwnPropertyNames(), field) {
			return nil, errReplaced
		}
		next, ok := desc.Get(field).(*goja.Object)
		if !ok {
			return nil, errReplaced
		}
		o = next
	}
	return o, nil
}

// lazy returns a Callable that finds and checks intrinsic in on its
// first call (see above) and calls it; it fails with errReplaced if the
// runtime's property is no longer the intrinsic.
func (b *Builtins) lazy(in intrinsic) goja.Callable {
	var f goja.Callable
	var ferr error
	return func(this goja.Value, args ...goja.Value) (goja.Value, error) {
		vm := b.vm // not captured: the closure stays in its size class
		if f == nil && ferr == nil {
			f, ferr = resolve(vm, b, in)
		}
		if ferr != nil {
			// A JS TypeError, as a builtin that throws returns it: callers
			// that rethrow it (the polyfills' traps) throw it into the snippet.
			return nil, vm.Try(func() { panic(vm.NewTypeError(in.key() + ": " + ferr.Error())) })
		}
		return f(this, args...)
	}
}

// resolve finds in (see lazy) with b's Object functions.
func resolve(vm *goja.Runtime, b *Builtins, in intrinsic) (goja.Callable, error) {
	o, err := findIntrinsic(vm, b.GetDescriptor, b.GetPrototypeOf, in)
	if err != nil {
		return nil, err
	}
	if pc, ok := nativeCode(o); !ok || pc != intrinsicCode()[in.key()] {
		return nil, errReplaced
	}
	f, ok := goja.AssertFunction(o)
	if !ok {
		return nil, errReplaced
	}
	return f, nil
}

// Init captures vm's Object functions into b now and every other builtin
// lazily (lazy). vm must be fresh: no snippet code has run on it.
func (b *Builtins) Init(vm *goja.Runtime) {
	object := vm.Get("Object").ToObject(vm)
	fn := func(name string) goja.Callable {
		f, ok := goja.AssertFunction(object.Get(name))
		if !ok {
			panic("sandbox: missing builtin Object." + name)
		}
		return f
	}
	*b = Builtins{
		vm:             vm,
		GetDescriptor:  fn("getOwnPropertyDescriptor"),
		GetPrototypeOf: fn("getPrototypeOf"),
		SetPrototypeOf: fn("setPrototypeOf"),
		Freeze:         fn("freeze"),
		OwnKeys:        b.lazy(inReflectOwnKeys),
		ReflectGet:     b.lazy(inReflectGet),
		ReflectHas:     b.lazy(inReflectHas),
		JSONParse:      b.lazy(inJSONParse),
		DateISO:        b.lazy(inDateISO),
		DateValue:      b.lazy(inDateValue),
		RegExpSource:   b.lazy(inRegExpSource),
		RegExpFlags:    b.lazy(inRegExpFlags),
		MapForEach:     b.lazy(inMapForEach),
		SetForEach:     b.lazy(inSetForEach),
		SymbolString:   b.lazy(inSymbolString),
		BigIntString:   b.lazy(inBigIntString),
		MapSize:        b.lazy(inMapSize),
		SetSize:        b.lazy(inSetSize),
		StringValue:    b.lazy(inStringValue),
		Number:         b.lazy(inNumber),
		ParseInt:       b.lazy(inParseInt),
		ParseFloat:     b.lazy(inParseFloat),
	}
}

// typedArrayTypes are goja's export types of the typed arrays: a typed
// array exports its backing slice, without copying or running code.
var typedArrayTypes = map[reflect.Type]bool{
	reflect.TypeOf([]uint8(nil)): true, reflect.TypeOf([]int8(nil)): true, reflect.TypeOf([]uint16(nil)): true,
	reflect.TypeOf([]int16(nil)): true, reflect.TypeOf([]uint32(nil)): true, reflect.TypeOf([]int32(nil)): true,
	reflect.TypeOf([]uint64(nil)): true, reflect.TypeOf([]int64(nil)): true, reflect.TypeOf([]float32(nil)): true,
	reflect.TypeOf([]float64(nil)): true,
}

// IsTypedArray reports whether o is a typed array (Uint8Array, …), by its
// export type: no code runs.
func IsTypedArray(o *goja.Object) bool { return typedArrayTypes[o.ExportType()] }

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

// OwnData returns the value of o's own data property name, or false when it
// is missing or an accessor (which must not be called), read through the
// intrinsic Object.getOwnPropertyDescriptor: no snippet code runs.
func (b *Builtins) OwnData(o *goja.Object, name string) (goja.Value, bool) {
	d, err := b.GetDescriptor(goja.Undefined(), o, b.vm.ToValue(name))
	if err != nil || goja.IsUndefined(d) {
		return nil, false
	}
	return DescValue(d.ToObject(b.vm))
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

// Proto is o's prototype through the intrinsic Object.getPrototypeOf (a
// Proxy's trap is not asked: getPrototypeOf of a Proxy is its target's
// handler's, which the callers check for first), nil for none.
func (b *Builtins) Proto(o *goja.Object) *goja.Object {
	p, err := b.GetPrototypeOf(goja.Undefined(), o)
	if err != nil || goja.IsNull(p) || goja.IsUndefined(p) {
		return nil
	}
	return p.ToObject(b.vm)
}

// FormatNumber formats f as JavaScript's Number::toString does
// (ECMA-262, Number::toString with radix 10): the shortest digits that
// round-trip, in positional notation for exponents from -7 to 20 and as
// 1.5e+21 / 1e-7 outside.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return sign + m + "e" + es + strconv.Itoa(absInt(n-1))
}

func absInt(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// IsNumber reports whether v exports as a number (goja's int64 or
// float64): a number primitive.
func IsNumber(v goja.Value) bool {
	switch v.Export().(type) {
	case int64, float64:
		return true
	}
	return false
}
