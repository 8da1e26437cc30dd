package parity

import (
	"fmt"
	"math/big"
	"reflect"

	"github.com/dop251/goja"
	"golang.org/x/text/language"
)

// Locale-sensitive methods and Intl (package intl: ECMA-402's
// NumberFormat, DateTimeFormat, Collator, PluralRules, ListFormat and
// RelativeTimeFormat for the locales whose data it carries, strings as
// Node 20 prints them; anything else is a RangeError or TypeError naming
// the locale or option). goja's own locale methods ignore their arguments
// (Number.prototype.toLocaleString even reads the locale as a radix), so
// they are replaced by the same formatters, as ECMA-402 defines them:
//
//   - Number.prototype.toLocaleString and BigInt.prototype.toLocaleString
//     are new Intl.NumberFormat(locales, options).format(x);
//   - Date.prototype.toLocaleString, toLocaleDateString and
//     toLocaleTimeString are Intl.DateTimeFormat's format with the date,
//     time or both as defaults;
//   - String.prototype.localeCompare is Intl.Collator's compare;
//   - String.prototype.toLocaleUpperCase / toLocaleLowerCase: a locale
//     with special casing rules (tr, az, lt) cases by them (casing.go).
//
// Intl itself is a lazy global (polyfill.go's lazyNames, group "intl"):
// a run builds it when it first reads it.
//
// Patch for: goja's locale methods ignore their locales and options.
// Upstream: dop251/goja#572 ("Builtin Date locale's methods ignore locale
// argument", open as of 2026-11; the pull request dop251/goja#633 that
// tried to fix it for dates was closed). Delete InstallLocale when goja
// has ECMA-402.

// InstallLocale replaces goja's locale methods (see the file comment).
func (p *Patcher) InstallLocale() {
	// Array.prototype.toLocaleString loops over its receiver in Go: the
	// loop guard (loops.go) of the name that reaches it.
	p.installLoopMethod(p.vm.NewArray().Prototype(), "toLocaleString", 0, -1, builtinFunc)
	vm := p.vm
	proto := func(ctor string) *goja.Object {
		return vm.GlobalObject().Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
	}
	def := func(o *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
		p.replace(o, name, length, fn) // looks native: name, length, toString
	}
	// Number's and BigInt's toLocaleString take their receiver's primitive,
	// read without running code (a wrapper exports its primitive).
	numberLocale := func(kind string, isKind func(goja.Value) bool) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			x := c.This
			if o, ok := x.(*goja.Object); ok && (o.ClassName() == "Number" || o.ExportType() == bigIntType) {
				x = vm.ToValue(o.Export())
			}
			if !isKind(x) {
				p.h.Throw("TypeError", kind+".prototype.toLocaleString requires that 'this' be a "+kind)
			}
			return vm.ToValue(p.h.Locale().NumberToLocaleString(x, c.Argument(0), c.Argument(1)))
		}
	}
	// Number's prototype without building the Number constructor.
	def(vm.ToValue(0).ToObject(vm).Prototype(), "toLocaleString", 0, numberLocale("Number", func(v goja.Value) bool {
		switch v.Export().(type) {
		case float64, int64:
			return true
		}
		return false
	}))
	def(proto("BigInt"), "toLocaleString", 0, numberLocale("BigInt", func(v goja.Value) bool {
		_, ok := v.Export().(*big.Int)
		return ok
	}))
	datePrototype := proto("Date")
	getTime, _ := goja.AssertFunction(datePrototype.Get("getTime"))
	for _, name := range []string{"toLocaleString", "toLocaleDateString", "toLocaleTimeString"} {
		def(datePrototype, name, 0, func(c goja.FunctionCall) goja.Value {
			tv, err := getTime(c.This) // a TypeError for a receiver that is no Date
			if err != nil {
				panic(err)
			}
			return vm.ToValue(p.h.Locale().DateToLocaleString(name, tv.ToFloat(), c.Argument(0), c.Argument(1)))
		})
	}
	stringPrototype := vm.ToValue("").ToObject(vm).Prototype()
	def(stringPrototype, "localeCompare", 1, func(c goja.FunctionCall) goja.Value {
		const method = "String.prototype.localeCompare"
		if goja.IsUndefined(c.This) || goja.IsNull(c.This) {
			p.h.Throw("TypeError", method+" called on null or undefined")
		}
		return vm.ToValue(p.h.Locale().LocaleCompare(p.jsString(c.This).String(), p.jsString(c.Argument(0)).String(), c.Argument(1), c.Argument(2)))
	})
	// The case functions are taken now, before any snippet code runs: a
	// snippet that replaces String.prototype.toUpperCase does not change
	// (or break) toLocaleUpperCase.
	caseFn := func(name string) goja.Callable {
		f, ok := goja.AssertFunction(stringPrototype.Get(name))
		if !ok {
			panic("sandbox: missing builtin String.prototype." + name)
		}
		return f
	}
	toUpper, toLower := caseFn("toUpperCase"), caseFn("toLowerCase")
	for _, name := range []string{"toLocaleUpperCase", "toLocaleLowerCase"} {
		upper := name == "toLocaleUpperCase"
		def(stringPrototype, name, 0, func(c goja.FunctionCall) goja.Value {
			method := "String.prototype." + name
			if goja.IsUndefined(c.This) || goja.IsNull(c.This) {
				p.h.Throw("TypeError", method+" called on null or undefined")
			}
			if v := c.Argument(0); !goja.IsUndefined(v) {
				tag, err := language.Parse(v.String())
				if err != nil {
					p.h.Throw("RangeError", fmt.Sprintf("%s: incorrect locale information provided: %q", method, v.String()))
				}
				if r, ok := localeCase(c.This.String(), tag, upper); ok { // tr, az, lt: parity/casing.go
					return vm.ToValue(r)
				}
			}
			s := c.This.ToString()
			f := toLower
			if upper {
				f = toUpper
			}
			r, err := f(s)
			if err != nil {
				panic(err)
			}
			return r
		})
	}
}

// bigIntType is goja's export type of a BigInt wrapper object.
var bigIntType = reflect.TypeOf((*big.Int)(nil))
