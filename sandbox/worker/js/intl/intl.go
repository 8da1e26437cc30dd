// Package intl is the playground's Intl: a goja binding of the basics of
// ECMA-402 (Intl.NumberFormat, DateTimeFormat, Collator, PluralRules,
// ListFormat, RelativeTimeFormat, Segmenter, DisplayNames,
// getCanonicalLocales, supportedValuesOf)
// whose output is Node 20's, byte for byte, for what it supports.
//
// The locale data is recorded from Node 20's ICU by data/gen.mjs (numbers,
// currencies, lists, relative times: data/data.json; every date-time
// pattern the supported DateTimeFormat options select, per locale:
// data/dates-LOCALE.txt.gz). Collation is golang.org/x/text/collate and
// plural rules golang.org/x/text/feature/plural (CLDR). NumberFormat's
// unit style (the 45 simple units, short, long and narrow), compact
// notation, the scientific exponent and formatRange's separator,
// approximately sign and plural ranges are recorded by data/gen_units.mjs
// (data/units.json.gz) for every NumberFormat locale. The embedded data
// is parsed once per process, by Preload (which a worker calls before its
// first run, so that no run's timing shows what an earlier one used) or on
// first use, and shared read-only by every runtime.
//
// The rule of the playground: what is not supported is never silently
// approximated. A locale without recorded data is a RangeError naming it
// (and the supported ones); an option or option value the package does not
// implement is a RangeError or TypeError naming it (a compound unit as
// "kilometer-per-hour"); APIs not provided (Intl.Locale, DurationFormat,
// ...) are undefined.
//
// DisplayNames' names (region, script, currency, language; its calendar
// and dateTimeField types are a RangeError) are recorded from Node 20 by
// data/gen_names.mjs (data/names.json.gz): x/text's are CLDR's of
// another year ("Turkey" for ICU's "Türkiye").
//
// DateTimeFormat's formatRange and formatRangeToParts write ICU's
// interval formats, recorded by data/gen_ranges.mjs
// (data/ranges-LOCALE.txt.gz) for dateStyle/timeStyle and the component
// options without timeZoneName or narrow names; other options are a
// RangeError naming formatRange.
//
// Segmenter is github.com/rivo/uniseg (UAX #29, Unicode 15.0), which
// ICU's rules are for the text compared with Node (segmenter.go); where
// ICU departs from UAX #29 — dictionary word breaks of Chinese, Japanese,
// Thai, Lao, Khmer and Myanmar text, Unicode 15.1's Indic conjunct
// clusters — segment() is a RangeError naming the character.
//
// Options are read as the specification reads them: each once, in the
// specification's order (getters run in that order, and their exceptions
// propagate).
//
// Concurrency: a goja.Runtime is single-threaded; the values New returns
// belong to vm and must be used on its goroutine. The package-level data
// is immutable after loading and safe for any number of runtimes.
package intl

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Thrower throws a JavaScript error of class (RangeError, TypeError) with
// msg in the runtime; it must not return (it panics with the error value,
// as goja's native functions throw). The worker passes its own, which
// records Go-thrown errors for its reports.
type Thrower func(class, msg string)

// env is one runtime's Intl: its prototypes and caches.
type env struct {
	vm    *goja.Runtime
	throw Thrower

	numberFormatProto, dateTimeFormatProto, collatorProto *goja.Object
	pluralRulesProto, listFormatProto, relativeTimeProto  *goja.Object

	collators map[collatorKey]*collate.Collator
	zones     map[string]*time.Location // timeZone's, by the name that loaded
	wrap      goja.Callable             // classWrapper, run once
}

// New builds the Intl namespace object for vm (to be installed as the
// global Intl): NewLocale(vm, throw).Namespace().
func New(vm *goja.Runtime, throw Thrower) *goja.Object {
	return NewLocale(vm, throw).Namespace()
}

func newEnv(vm *goja.Runtime, throw Thrower) *env {
	if throw == nil {
		throw = func(class, msg string) {
			ctor := vm.Get(class)
			o, err := vm.New(ctor, vm.ToValue(msg))
			if err != nil {
				panic(vm.NewTypeError(msg))
			}
			panic(o)
		}
	}
	return &env{vm: vm, throw: throw}
}

func (e *env) rangeError(format string, args ...any) {
	e.throw("RangeError", fmt.Sprintf(format, args...))
	panic("intl: Thrower returned")
}

func (e *env) typeError(format string, args ...any) {
	e.throw("TypeError", fmt.Sprintf(format, args...))
	panic("intl: Thrower returned")
}

func (e *env) namespace() *goja.Object {
	vm := e.vm
	ns := vm.NewObject()
	e.method(ns, "getCanonicalLocales", 1, func(c goja.FunctionCall) goja.Value {
		list := e.canonicalLocaleList(c.Argument(0))
		out := make([]any, len(list))
		for i, l := range list {
			out[i] = l
		}
		return vm.NewArray(out...)
	})
	e.method(ns, "supportedValuesOf", 1, func(c goja.FunctionCall) goja.Value {
		key := e.toString(c.Argument(0))
		var vals []string
		switch key {
		case "calendar":
			vals = []string{"gregory"}
		case "collation":
			vals = []string{"default"}
		case "currency":
			vals = slices.Sorted(slices.Values(currencyList()))
		case "numberingSystem":
			vals = []string{"latn"}
		case "unit":
			vals = loadUnits().Units // Node's, sorted
		case "timeZone":
			e.rangeError("Intl.supportedValuesOf(%q) is not supported in the playground", key)
		default:
			e.rangeError("Invalid key : %s", key)
		}
		out := make([]any, len(vals))
		for i, v := range vals {
			out[i] = v
		}
		return vm.NewArray(out...)
	})
	tag(vm, ns, "Intl")
	e.numberFormatProto = e.installNumberFormat(ns)
	e.dateTimeFormatProto = e.installDateTimeFormat(ns)
	e.collatorProto = e.installCollator(ns)
	e.pluralRulesProto = e.installPluralRules(ns)
	e.relativeTimeProto = e.installRelativeTimeFormat(ns)
	e.listFormatProto = e.installListFormat(ns)
	e.installSegmenter(ns)
	e.installDisplayNames(ns)
	return ns
}

// tag sets o[Symbol.toStringTag] as the specification does (not writable,
// not enumerable, configurable).
func tag(vm *goja.Runtime, o *goja.Object, name string) {
	_ = o.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// method defines a built-in method: writable, configurable, not enumerable,
// with its name and length.
func (e *env) method(o *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	f := e.function(name, length, fn)
	_ = o.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func (e *env) function(name string, length int, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := e.vm.ToValue(fn).(*goja.Object)
	_ = f.DefineDataProperty("name", e.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", e.vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// getter defines an accessor property with a getter only (as
// Intl.Collator.prototype.compare).
func (e *env) getter(o *goja.Object, name string, fn func(goja.FunctionCall) goja.Value) {
	f := e.function("get "+name, 0, fn)
	_ = o.DefineAccessorProperty(name, f, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// instance is the internal state of one Intl object: the object is a goja
// dynamic object whose Export is the instance, so that the state cannot be
// read, forged or moved by script. Script-set properties are kept in
// props, as on an ordinary object.
type instance struct {
	state any
	props map[string]goja.Value
	keys  []string
}

func (o *instance) Get(k string) goja.Value { return o.props[k] }
func (o *instance) Has(k string) bool       { _, ok := o.props[k]; return ok }
func (o *instance) Keys() []string          { return slices.Clone(o.keys) }
func (o *instance) Set(k string, v goja.Value) bool {
	if o.props == nil {
		o.props = map[string]goja.Value{}
	}
	if _, ok := o.props[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.props[k] = v
	return true
}
func (o *instance) Delete(k string) bool {
	if _, ok := o.props[k]; ok {
		delete(o.props, k)
		o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
	}
	return true
}

// classWrapper makes a constructor's function: goja's native
// constructors cannot tell `new C()` from `C()`, and the specification
// tells them apart (NumberFormat, DateTimeFormat and Collator construct
// when called; the others throw), so the function is a two-line script
// function passing new.target to Go.
var classWrapper = goja.MustCompile("intl", `(function (make) { return function (locales, options) { return make(new.target, locales, options) } })`, true)

// class makes a constructor named name with its prototype (tagged
// "Intl."+name). init reads the arguments and returns the new object's
// state. callable says whether calling it without new constructs (as
// NumberFormat, DateTimeFormat and Collator) or is a TypeError.
func (e *env) class(ns *goja.Object, name string, length int, callable bool, init func(args []goja.Value) any) (*goja.Object, *goja.Object) {
	vm := e.vm
	proto := vm.NewObject()
	mk := func(c goja.FunctionCall) goja.Value {
		p := proto
		if nt, ok := c.Argument(0).(*goja.Object); ok {
			if np, ok := nt.Get("prototype").(*goja.Object); ok {
				p = np // a subclass's
			}
		} else if !callable {
			e.typeError("Constructor Intl.%s requires 'new'", name)
		}
		st := init(c.Arguments[1:])
		o := vm.NewDynamicObject(&instance{state: st})
		_ = o.SetPrototype(p)
		return o
	}
	if e.wrap == nil {
		w, err := vm.RunProgram(classWrapper)
		if err != nil {
			panic(err)
		}
		e.wrap, _ = goja.AssertFunction(w)
	}
	// Named as the class: goja names a native frame by its function's
	// name, which for a Go function is its Go symbol, our module path
	// included (issue 22).
	cv, err := e.wrap(goja.Undefined(), e.function(name, 0, mk))
	if err != nil {
		panic(err)
	}
	ctor := cv.(*goja.Object)
	_ = ctor.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctor.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	tag(vm, proto, "Intl."+name)
	_ = ns.DefineDataProperty(name, ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return ctor, proto
}

// this returns the state of a method's receiver, or throws the TypeError
// V8 throws for a receiver of the wrong kind.
func stateOf[T any](e *env, this goja.Value, method string) T {
	if o, ok := this.(*goja.Object); ok {
		if in, ok := o.Export().(*instance); ok {
			if st, ok := in.state.(T); ok {
				return st
			}
		}
	}
	e.typeError("Method %s called on incompatible receiver %s", method, describe(this))
	panic("unreachable")
}

// toString is ToString: a Symbol is a TypeError (goja's Value.String
// would print it).
func (e *env) toString(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		e.typeError("Cannot convert a Symbol value to a string")
	}
	return v.String()
}

func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if _, ok := v.(*goja.Object); ok {
		return "#<Object>"
	}
	return v.String()
}

// --- options ---------------------------------------------------------

// opts is an options object being read; nil reads every option as
// undefined.
type opts struct {
	e   *env
	o   *goja.Object
	api string // "Intl.NumberFormat": names the API in errors
}

// coerceOptions is CoerceOptionsToObject: undefined is no options, null a
// TypeError, a primitive its wrapper object.
func (e *env) coerceOptions(api string, v goja.Value) opts {
	if v == nil || goja.IsUndefined(v) {
		return opts{e: e, api: api}
	}
	if goja.IsNull(v) {
		e.typeError("Cannot convert undefined or null to object")
	}
	return opts{e: e, o: v.ToObject(e.vm), api: api}
}

// get reads one option (once).
func (p opts) get(name string) goja.Value {
	if p.o == nil {
		return goja.Undefined()
	}
	v := p.o.Get(name)
	if v == nil {
		return goja.Undefined()
	}
	return v
}

// str is GetOption of type string: undefined is def; a value not in
// values is a RangeError naming the option and value; a value in values
// but in unsupported is a RangeError saying the playground lacks it.
func (p opts) str(name string, values []string, def string, unsupported ...string) string {
	v := p.get(name)
	if goja.IsUndefined(v) {
		return def
	}
	s := p.e.toString(v)
	if values != nil && !slices.Contains(values, s) {
		p.e.rangeError("Value %s out of range for %s options property %s", s, p.api, name)
	}
	if slices.Contains(unsupported, s) {
		p.e.rangeError("%s: %s %q is not supported in the playground", p.api, name, s)
	}
	return s
}

// boolean is GetOption of type boolean; undefined is def (-1 for none).
func (p opts) boolean(name string) (set, val bool) {
	v := p.get(name)
	if goja.IsUndefined(v) {
		return false, false
	}
	return true, v.ToBoolean()
}

// number is GetNumberOption: undefined is def; NaN or outside [lo, hi] a
// RangeError; otherwise floor.
func (p opts) number(name string, lo, hi, def int) int {
	return p.e.defaultNumber(p.get(name), name, lo, hi, def)
}

// defaultNumber is DefaultNumberOption.
func (e *env) defaultNumber(v goja.Value, name string, lo, hi, def int) int {
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		e.rangeError("%s value is out of range.", name)
	}
	return int(math.Floor(f))
}

// --- locales ---------------------------------------------------------

var tagPattern = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*(-[0-9A-WYZa-wyz](-[A-Za-z0-9]{2,8})+)*(-[xX](-[A-Za-z0-9]{1,8})+)?$`)

// canonicalLocale validates and canonicalizes one language tag.
func (e *env) canonicalLocale(s string) string {
	if len(s) > 200 || !tagPattern.MatchString(s) {
		e.rangeError("Incorrect locale information provided")
	}
	t, err := language.Parse(s)
	if err != nil {
		e.rangeError("Incorrect locale information provided")
	}
	return t.String()
}

// canonicalLocaleList is CanonicalizeLocaleList.
func (e *env) canonicalLocaleList(v goja.Value) []string {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if goja.IsNull(v) {
		e.typeError("Cannot convert undefined or null to object")
	}
	var list []string
	add := func(s string) {
		c := e.canonicalLocale(s)
		if !slices.Contains(list, c) {
			list = append(list, c)
		}
	}
	if _, isObj := v.(*goja.Object); !isObj {
		if s, ok := v.Export().(string); ok {
			add(s)
			return list
		}
	}
	o := v.ToObject(e.vm)
	n := toLength(o.Get("length"))
	if n > 1000 {
		e.rangeError("Intl: a list of %d locales is more than the playground reads (1000)", int64(n))
	}
	for k := int64(0); k < n; k++ {
		kv := o.Get(fmt.Sprint(k))
		if kv == nil {
			continue // a hole
		}
		if _, isObj := kv.(*goja.Object); !isObj {
			if _, isStr := kv.Export().(string); !isStr {
				e.typeError("Language ID should be string or object.")
			}
		}
		add(e.toString(kv))
	}
	return list
}

func toLength(v goja.Value) int64 {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > 1<<53-1 {
		return 1<<53 - 1
	}
	return int64(f)
}

// resolved is the outcome of locale negotiation: the locale
// resolvedOptions reports and the data locale formatting uses.
type resolved struct {
	locale, data string
}

// resolveLocale picks the first requested locale (after CanonicalizeLocaleList)
// or the default en-US. supported maps each supported locale (as
// canonicalized) to its data locale. A first requested locale that is not
// supported is a RangeError naming it and the supported ones: Node would
// format it with its own data, and falling back would be silently wrong.
// Unicode extensions (-u-...) are a RangeError (none is implemented).
func (e *env) resolveLocale(api string, requested []string, supported map[string]string) resolved {
	if len(requested) == 0 {
		return resolved{"en-US", supported["en-US"]}
	}
	r := requested[0]
	if i := strings.Index(r, "-u-"); i >= 0 || strings.HasPrefix(r, "x-") || strings.Contains(r, "-x-") {
		e.rangeError("%s: the locale %q has a Unicode extension or private use subtag, which the playground does not support", api, r)
	}
	if d, ok := supported[r]; ok {
		return resolved{r, d}
	}
	keys := make([]string, 0, len(supported))
	for k := range supported {
		if strings.Contains(k, "-") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	e.rangeError("%s: the locale %q is not supported in the playground; supported: %s (and their languages alone, as \"en\")", api, r, strings.Join(keys, ", "))
	panic("unreachable")
}

// supportedLocalesOf is the static supportedLocalesOf of a constructor.
func (e *env) supportedLocalesOf(api string, supported func() map[string]string) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value {
		list := e.canonicalLocaleList(c.Argument(0))
		o := e.coerceOptions(api, c.Argument(1))
		o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
		s := supported()
		out := []any{}
		for _, l := range list {
			if _, ok := s[l]; ok {
				out = append(out, l)
			}
		}
		return e.vm.NewArray(out...)
	}
}

// localeMap builds a supported-locale map: each locale maps to itself and
// each language alone ("en") to defaults[lang] when that is in locales.
func localeMap(locales []string) map[string]string {
	m := map[string]string{}
	for _, l := range locales {
		m[l] = l
	}
	for lang, l := range languageDefaults {
		if _, ok := m[l]; ok {
			m[lang] = l
		}
	}
	return m
}

// languageDefaults maps a language alone to the locale whose data Node
// formats it with.
var languageDefaults = map[string]string{
	"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "it": "it-IT", "nl": "nl-NL", "pt": "pt-BR",
	"ja": "ja-JP", "zh": "zh-CN", "ko": "ko-KR", "ru": "ru-RU", "pl": "pl-PL", "sv": "sv-SE", "hi": "hi-IN",
}
