package intl

import (
	"math"
	"strings"

	"github.com/dop251/goja"
)

var relativeLocales = localeMap([]string{"en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH"})

type relativeTimeFormat struct {
	locale, data, style, numeric string
	nf                           *numberFormat
	plural                       *pluralRules
}

func (e *env) newRelativeTimeFormat(api string, locales, options goja.Value) *relativeTimeFormat {
	requested := e.canonicalLocaleList(locales)
	o := e.getOptionsObject(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	if v := o.get("numberingSystem"); !goja.IsUndefined(v) {
		if s := e.toString(v); s != "latn" {
			e.rangeError("%s: numberingSystem %q is not supported in the playground (only \"latn\")", api, s)
		}
	}
	r := e.resolveLocale(api, requested, relativeLocales)
	rf := &relativeTimeFormat{locale: r.locale, data: r.data}
	rf.style = o.str("style", []string{"long", "short", "narrow"}, "long")
	rf.numeric = o.str("numeric", []string{"always", "auto"}, "always")
	rf.nf = &numberFormat{locale: r.locale, data: r.data, style: "decimal", notation: "standard", signDisplay: "auto",
		minInt: 1, maxFrac: 3, rounding: "fraction", grouping: "auto", trailingZeroDisplay: "auto"}
	rf.plural = &pluralRules{locale: r.locale, data: r.data, nf: rf.nf}
	return rf
}

var relativeUnits = []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}

func (e *env) relativeParts(rf *relativeTimeFormat, value, unitV goja.Value) []part {
	x := value.ToFloat()
	unit := e.toString(unitV)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		e.rangeError("Invalid time value") // V8's message for a non-finite value
	}
	u := strings.TrimSuffix(unit, "s")
	found := false
	for _, ru := range relativeUnits {
		found = found || ru == u
	}
	if !found {
		e.rangeError("Invalid unit argument for format() '%s'", unit)
	}
	d := loadData().RTF[rf.data][rf.style+"/"+u]
	if rf.numeric == "auto" && x == math.Trunc(x) && math.Abs(x) <= 2 {
		key := map[float64]string{-2: "-2", -1: "-1", 0: "0", 1: "1", 2: "2"}[x]
		if s, ok := d.Auto[key]; ok {
			return []part{{"literal", s}}
		}
	}
	past := x < 0 || (x == 0 && math.Signbit(x))
	abs := decimalFromFloat(math.Abs(x))
	num := rf.nf.formatParts(abs)
	one := rf.plural.selectDecimal(abs) == "one"
	pattern := d.FutureOther
	switch {
	case past && one:
		pattern = d.PastOne
	case past:
		pattern = d.PastOther
	case one:
		pattern = d.FutureOne
	}
	before, after, _ := strings.Cut(pattern, "{n}")
	var out []part
	if before != "" {
		out = append(out, part{"literal", before})
	}
	for _, p := range num {
		out = append(out, part{p.typ, p.value})
	}
	if after != "" {
		out = append(out, part{"literal", after})
	}
	return out
}

func (e *env) installRelativeTimeFormat(ns *goja.Object) *goja.Object {
	const api = "Intl.RelativeTimeFormat"
	ctor, proto := e.class(ns, "RelativeTimeFormat", 0, false, func(args []goja.Value) any {
		return e.newRelativeTimeFormat(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return relativeLocales }))
	e.method(proto, "format", 2, func(c goja.FunctionCall) goja.Value {
		rf := stateOf[*relativeTimeFormat](e, c.This, "Intl.RelativeTimeFormat.prototype.format")
		return e.vm.ToValue(joinParts(e.relativeParts(rf, c.Argument(0), c.Argument(1))))
	})
	e.method(proto, "formatToParts", 2, func(c goja.FunctionCall) goja.Value {
		rf := stateOf[*relativeTimeFormat](e, c.This, "Intl.RelativeTimeFormat.prototype.formatToParts")
		parts := e.relativeParts(rf, c.Argument(0), c.Argument(1))
		unit := strings.TrimSuffix(c.Argument(1).String(), "s") // a string: relativeParts checked it
		return e.partsArray(parts, func(o *goja.Object, p part) {
			if p.typ != "literal" {
				_ = o.Set("unit", unit)
			}
		})
	})
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		rf := stateOf[*relativeTimeFormat](e, c.This, "Intl.RelativeTimeFormat.prototype.resolvedOptions")
		return e.object([]kv{{"locale", rf.locale}, {"style", rf.style}, {"numeric", rf.numeric}, {"numberingSystem", "latn"}})
	})
	return proto
}
