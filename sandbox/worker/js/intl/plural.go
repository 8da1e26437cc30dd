package intl

import (
	"slices"
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

var pluralLocales = localeMap(numberLocaleList)

type pluralRules struct {
	locale, data string
	ordinal      bool
	nf           *numberFormat // the digit options
}

func (e *env) newPluralRules(api string, locales, options goja.Value) *pluralRules {
	requested := e.canonicalLocaleList(locales)
	o := e.coerceOptions(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	typ := o.str("type", []string{"cardinal", "ordinal"}, "cardinal")
	r := e.resolveLocale(api, requested, pluralLocales)
	nf := &numberFormat{locale: r.locale, data: r.data, style: "decimal", notation: "standard", signDisplay: "auto"}
	e.pluralDigitOptions(o, nf)
	return &pluralRules{locale: r.locale, data: r.data, ordinal: typ == "ordinal", nf: nf}
}

// pluralDigitOptions is SetNumberFormatDigitOptions as V8 reads it for
// PluralRules (no roundingIncrement or trailingZeroDisplay).
func (e *env) pluralDigitOptions(o opts, nf *numberFormat) {
	nf.minInt = o.number("minimumIntegerDigits", 1, 21, 1)
	mnfd, mxfd := o.get("minimumFractionDigits"), o.get("maximumFractionDigits")
	mnsd, mxsd := o.get("minimumSignificantDigits"), o.get("maximumSignificantDigits")
	o.str("roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto", "morePrecision", "lessPrecision")
	nf.roundingPriority, nf.trailingZeroDisplay = "auto", "auto"
	if !goja.IsUndefined(mnsd) || !goja.IsUndefined(mxsd) {
		nf.rounding = "significant"
		nf.minSig = e.defaultNumber(mnsd, "minimumSignificantDigits", 1, 21, 1)
		nf.maxSig = e.defaultNumber(mxsd, "maximumSignificantDigits", nf.minSig, 21, 21)
		return
	}
	nf.rounding = "fraction"
	lo := e.defaultNumber(mnfd, "minimumFractionDigits", 0, 20, -1)
	hi := e.defaultNumber(mxfd, "maximumFractionDigits", 0, 20, -1)
	switch {
	case lo == -1 && hi == -1:
		lo, hi = 0, 3
	case lo == -1:
		lo = min(0, hi)
	case hi == -1:
		hi = max(3, lo)
	case lo > hi:
		e.rangeError("maximumFractionDigits value is out of range.")
	}
	nf.minFrac, nf.maxFrac = lo, hi
}

// manyMillions are the languages whose cardinal "many" is i % 1000000 = 0
// (for v = 0 and i != 0).
var manyMillions = map[string]bool{"fr": true, "es": true, "it": true, "pt": true}

var formNames = map[plural.Form]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many"}

// selectDecimal is the plural category of the number as formatted with
// the rules' digit options (1.0 with minimumFractionDigits 1 is "other"
// in English).
func (p *pluralRules) selectDecimal(d decimal) string {
	if d.nan || d.inf {
		return "other"
	}
	parts := p.nf.formatParts(decimal{digits: d.digits, point: d.point})
	var in, fr string
	for _, x := range parts {
		switch x.typ {
		case "integer":
			in += x.value
		case "fraction":
			fr = x.value
		}
	}
	return pluralCategory(p.data, in, fr, p.ordinal)
}

// pluralCategory is the plural category, in data's language, of the
// number written with integer digits in and fraction digits fr.
func pluralCategory(data, in, fr string, ordinal bool) string {
	in = strings.TrimLeft(in, "0")
	digits := make([]byte, 0, len(in)+len(fr))
	for _, c := range in + fr {
		digits = append(digits, byte(c-'0'))
	}
	rules := plural.Cardinal
	if ordinal {
		rules = plural.Ordinal
	} else if manyMillions[data[:2]] && len(fr) == 0 && len(in) > 6 && strings.Trim(in[len(in)-6:], "0") == "" {
		// CLDR 38+ (ICU 78): "many" for whole millions, newer than
		// x/text's rules
		return "many"
	}
	return formNames[rules.MatchDigits(language.MustParse(data), digits, len(in), len(fr))]
}

// categories are the rules' categories in V8's order (alphabetical,
// "other" last), found by sampling numbers.
func (p *pluralRules) categories() []string {
	seen := map[string]bool{"other": true}
	for i := 0; i <= 1000; i++ {
		seen[p.selectDecimal(decimalFromFloat(float64(i)))] = true
		if !p.ordinal {
			seen[p.selectDecimal(decimalFromFloat(float64(i)+0.5))] = true
			seen[p.selectDecimal(decimalFromFloat(float64(i)/10+0.1))] = true
		}
	}
	seen[p.selectDecimal(decimalFromFloat(1e6))] = true
	delete(seen, "other")
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return append(out, "other")
}

func (p *pluralRules) resolvedOptions() []kv {
	r := []kv{{"locale", p.locale}, {"type", map[bool]string{true: "ordinal", false: "cardinal"}[p.ordinal]}, {"minimumIntegerDigits", p.nf.minInt}}
	if p.nf.rounding == "significant" {
		r = append(r, kv{"minimumSignificantDigits", p.nf.minSig}, kv{"maximumSignificantDigits", p.nf.maxSig})
	} else {
		r = append(r, kv{"minimumFractionDigits", p.nf.minFrac}, kv{"maximumFractionDigits", p.nf.maxFrac})
	}
	return append(r, kv{"pluralCategories", p.categories()})
}

func (e *env) installPluralRules(ns *goja.Object) *goja.Object {
	const api = "Intl.PluralRules"
	ctor, proto := e.class(ns, "PluralRules", 0, false, func(args []goja.Value) any {
		return e.newPluralRules(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return pluralLocales }))
	e.method(proto, "select", 1, func(c goja.FunctionCall) goja.Value {
		p := stateOf[*pluralRules](e, c.This, "Intl.PluralRules.prototype.select")
		return e.vm.ToValue(p.selectDecimal(decimalFromFloat(c.Argument(0).ToFloat())))
	})
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		p := stateOf[*pluralRules](e, c.This, "Intl.PluralRules.prototype.resolvedOptions")
		return e.object(p.resolvedOptions())
	})
	return proto
}
