package intl

import (
	"github.com/dop251/goja"
)

var listLocales = localeMap([]string{"en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "nl-NL", "pt-BR", "pt-PT", "sv-SE"})

type listFormat struct {
	locale, data, typ, style string
}

func (e *env) newListFormat(api string, locales, options goja.Value) *listFormat {
	requested := e.canonicalLocaleList(locales)
	o := e.getOptionsObject(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	r := e.resolveLocale(api, requested, listLocales)
	lf := &listFormat{locale: r.locale, data: r.data}
	lf.typ = o.str("type", []string{"conjunction", "disjunction", "unit"}, "conjunction")
	lf.style = o.str("style", []string{"long", "short", "narrow"}, "long")
	return lf
}

// getOptionsObject is GetOptionsObject: undefined is no options, an
// object itself, anything else a TypeError (ListFormat,
// RelativeTimeFormat... take no primitives).
func (e *env) getOptionsObject(api string, v goja.Value) opts {
	if v == nil || goja.IsUndefined(v) {
		return opts{e: e, api: api}
	}
	o, ok := v.(*goja.Object)
	if !ok {
		e.typeError("Options must be an object")
	}
	return opts{e: e, o: o, api: api}
}

// stringList is StringListFromIterable: undefined is empty; every element
// must be a string.
func (e *env) stringList(v goja.Value) []string {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	var out []string
	e.iterate(v, func(x goja.Value) {
		s, ok := x.Export().(string)
		if _, isObj := x.(*goja.Object); !ok || isObj {
			e.typeError("Iterable yielded %s which is not a string", describe(x))
		}
		if len(out) >= 1_000_000 {
			e.rangeError("Intl.ListFormat: a list of more than 1000000 items is more than the playground formats")
		}
		out = append(out, s)
	})
	return out
}

// iterate runs the iteration protocol over v.
func (e *env) iterate(v goja.Value, fn func(goja.Value)) {
	vm := e.vm
	obj := v.ToObject(vm)
	m, ok := goja.AssertFunction(obj.GetSymbol(goja.SymIterator))
	if !ok {
		e.typeError("%s is not iterable", describe(v))
	}
	itv, err := m(v)
	if err != nil {
		panic(err)
	}
	it, ok := itv.(*goja.Object)
	if !ok {
		e.typeError("Result of the Symbol.iterator method is not an object")
	}
	next, ok := goja.AssertFunction(it.Get("next"))
	if !ok {
		e.typeError("next is not a function")
	}
	for {
		rv, err := next(it)
		if err != nil {
			panic(err)
		}
		r, ok := rv.(*goja.Object)
		if !ok {
			e.typeError("Iterator result %s is not an object", describe(rv))
		}
		if d := r.Get("done"); d != nil && d.ToBoolean() {
			return
		}
		x := r.Get("value")
		if x == nil {
			x = goja.Undefined()
		}
		func() {
			ok := false
			defer func() {
				if !ok { // close the iterator on an abrupt completion
					if ret, isFn := goja.AssertFunction(it.Get("return")); isFn {
						_, _ = ret(it)
					}
				}
			}()
			fn(x)
			ok = true
		}()
	}
}

func (lf *listFormat) parts(list []string) []part {
	d := loadData().Lists[lf.data][lf.typ+"/"+lf.style]
	var out []part
	for i, s := range list {
		if i > 0 {
			sep := d.Middle
			switch {
			case len(list) == 2:
				sep = d.Pair
			case i == 1:
				sep = d.Start
			case i == len(list)-1:
				sep = d.End
			}
			out = append(out, part{"literal", sep})
		}
		out = append(out, part{"element", s})
	}
	return out
}

func (e *env) installListFormat(ns *goja.Object) *goja.Object {
	const api = "Intl.ListFormat"
	ctor, proto := e.class(ns, "ListFormat", 0, false, func(args []goja.Value) any {
		return e.newListFormat(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return listLocales }))
	e.method(proto, "format", 1, func(c goja.FunctionCall) goja.Value {
		lf := stateOf[*listFormat](e, c.This, "Intl.ListFormat.prototype.format")
		return e.vm.ToValue(joinParts(lf.parts(e.stringList(c.Argument(0)))))
	})
	e.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		lf := stateOf[*listFormat](e, c.This, "Intl.ListFormat.prototype.formatToParts")
		return e.partsArray(lf.parts(e.stringList(c.Argument(0))), nil)
	})
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		lf := stateOf[*listFormat](e, c.This, "Intl.ListFormat.prototype.resolvedOptions")
		return e.object([]kv{{"locale", lf.locale}, {"type", lf.typ}, {"style", lf.style}})
	})
	return proto
}
