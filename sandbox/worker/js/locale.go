package js

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Locale-sensitive methods. The playground has no Intl (typeof Intl is
// "undefined": a snippet that feature-detects it falls back, and one that
// uses it gets "Intl is not defined"). goja's own locale methods ignore
// their arguments (Number.prototype.toLocaleString even reads the locale
// as a radix), so they are replaced by:
//
//   - Number.prototype.toLocaleString(locales, options): the locales of
//     numberLocales (separators, grouping and percent patterns as Node 20's
//     ICU 73 formats them, recorded from Node), with the options
//     minimumFractionDigits, maximumFractionDigits, minimumIntegerDigits,
//     useGrouping, style ("decimal", "percent"; "currency" in English only,
//     with the currencies of currencySymbols). Any other locale is a
//     RangeError and any other option a TypeError, each naming it.
//   - Date.prototype.toLocaleString, toLocaleDateString and
//     toLocaleTimeString: English (en, en-US) with no options or
//     {timeZone: "UTC"}; anything else is an error naming it.
//   - String.prototype.localeCompare(that, locales, options): Unicode
//     collation (golang.org/x/text/collate, CLDR root order as ICU's),
//     with the options sensitivity and numeric.
//   - String.prototype.toLocaleUpperCase / toLocaleLowerCase: a locale
//     with special casing rules (tr, az, lt) is a RangeError.
//
// golang.org/x/text's number formatting was measured against Node 20 and
// not used: its CLDR data is older (fr-FR groups with U+00A0 where ICU 73
// uses U+202F; es-ES, it-IT, pl-PL group four-digit numbers) and it places
// currency symbols differently.

// numberLocale is how one locale writes numbers.
type numberLocale struct {
	decimal, group string
	minGrouping    int    // the fewest integer digits that get a separator is 3+minGrouping
	indian         bool   // groups of 2 above the first 3 (12,34,567)
	percent        string // "#" stands for the digits, "-" for the sign
	minus          string
}

var numberLocales = map[string]numberLocale{
	"en-US": {".", ",", 1, false, "-#%", "-"},
	"en-GB": {".", ",", 1, false, "-#%", "-"},
	"en-IN": {".", ",", 1, true, "-#%", "-"},
	"de-DE": {",", ".", 1, false, "-#\u00a0%", "-"},
	"de-AT": {",", "\u00a0", 1, false, "-#\u00a0%", "-"},
	"de-CH": {".", "'", 1, false, "-#%", "-"},
	"fr-FR": {",", "\u202f", 1, false, "-#\u00a0%", "-"},
	"es-ES": {",", ".", 2, false, "-#\u00a0%", "-"},
	"es-MX": {".", ",", 1, false, "-#%", "-"},
	"it-IT": {",", ".", 2, false, "-#%", "-"},
	"nl-NL": {",", ".", 1, false, "-#%", "-"},
	"pt-BR": {",", ".", 1, false, "-#%", "-"},
	"pt-PT": {",", "\u00a0", 2, false, "-#%", "-"},
	"ja-JP": {".", ",", 1, false, "-#%", "-"},
	"zh-CN": {".", ",", 1, false, "-#%", "-"},
	"ko-KR": {".", ",", 1, false, "-#%", "-"},
	"ru-RU": {",", "\u00a0", 1, false, "-#\u00a0%", "-"},
	"pl-PL": {",", "\u00a0", 2, false, "-#%", "-"},
	"sv-SE": {",", "\u00a0", 1, false, "-#\u00a0%", "\u2212"},
	"hi-IN": {".", ",", 1, true, "-#%", "-"},
}

// languageDefaults maps a bare language to the locale Node picks for it.
var languageDefaults = map[string]string{
	"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "it": "it-IT", "nl": "nl-NL", "pt": "pt-BR",
	"ja": "ja-JP", "zh": "zh-CN", "ko": "ko-KR", "ru": "ru-RU", "pl": "pl-PL", "sv": "sv-SE", "hi": "hi-IN",
}

// currencySymbols are the currencies en-US writes with a symbol (Node 20).
var currencySymbols = map[string]struct {
	symbol string
	digits int
}{
	"USD": {"$", 2}, "EUR": {"€", 2}, "GBP": {"£", 2}, "JPY": {"¥", 0}, "INR": {"₹", 2}, "CNY": {"CN¥", 2},
	"CAD": {"CA$", 2}, "AUD": {"A$", 2}, "CHF": {"CHF\u00a0", 2}, "MXN": {"MX$", 2}, "BRL": {"R$", 2}, "KRW": {"₩", 0},
}

// localeOf reads a locales argument: undefined is en-US; a string or the
// first element of an array names the locale. ok is false (with the name)
// for a locale the playground does not format.
func (e *Runtime) localeOf(method string, v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "en-US"
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		v = o.Get("0")
		if v == nil || goja.IsUndefined(v) {
			return "en-US"
		}
	}
	tag, err := language.Parse(v.String())
	if err != nil {
		e.throw("RangeError", fmt.Sprintf("%s: incorrect locale information provided: %q", method, v.String()))
	}
	name := tag.String()
	if d, ok := languageDefaults[name]; ok {
		name = d
	}
	if _, ok := numberLocales[name]; !ok {
		keys := make([]string, 0, len(numberLocales))
		for k := range numberLocales {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.throw("RangeError", fmt.Sprintf("%s: the locale %q is not supported in the playground (no Intl); supported: %s", method, v.String(), strings.Join(keys, ", ")))
	}
	return name
}

// options reads an options argument's own enumerable keys, refusing any
// key not in allowed with a TypeError naming it.
func (e *Runtime) options(method string, v goja.Value, allowed ...string) *goja.Object {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	o, ok := v.(*goja.Object)
	if !ok {
		e.throw("TypeError", method+": options must be an object")
	}
	for _, k := range o.Keys() {
		if !slices.Contains(allowed, k) {
			e.throw("TypeError", fmt.Sprintf("%s: the option %q is not supported in the playground (no Intl); supported: %s", method, k, strings.Join(allowed, ", ")))
		}
	}
	return o
}

func optString(o *goja.Object, name, def string) string {
	if o == nil {
		return def
	}
	if v := o.Get(name); v != nil && !goja.IsUndefined(v) {
		return v.String()
	}
	return def
}

func (e *Runtime) optInt(method string, o *goja.Object, name string, def, lo, hi int) int {
	if o == nil {
		return def
	}
	v := o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		e.throw("RangeError", fmt.Sprintf("%s value is out of range.", name))
	}
	return int(f)
}

// installLocale replaces goja's locale methods (see the file comment).
func (e *Runtime) installLocale() {
	vm := e.vm
	proto := func(ctor string) *goja.Object {
		return vm.GlobalObject().Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
	}
	def := func(o *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
		e.replace(o, name, length, fn) // looks native: name, length, toString
	}
	// Number's and String's prototypes without building their constructors.
	def(vm.ToValue(0).ToObject(vm).Prototype(), "toLocaleString", 0, func(c goja.FunctionCall) goja.Value {
		ok := false
		switch t := c.This.(type) {
		case *goja.Object:
			ok = t.ClassName() == "Number"
		default:
			_, isNum := t.Export().(float64)
			_, isInt := t.Export().(int64)
			ok = isNum || isInt
		}
		if !ok {
			e.throw("TypeError", "Number.prototype.toLocaleString requires that 'this' be a Number")
		}
		return vm.ToValue(e.formatNumberLocale(c.This.ToFloat(), c.Argument(0), c.Argument(1)))
	})
	datePrototype := proto("Date")
	getTime, _ := goja.AssertFunction(datePrototype.Get("getTime"))
	for _, m := range []struct {
		name       string
		date, time bool
	}{{"toLocaleString", true, true}, {"toLocaleDateString", true, false}, {"toLocaleTimeString", false, true}} {
		def(datePrototype, m.name, 0, func(c goja.FunctionCall) goja.Value {
			method := "Date.prototype." + m.name
			tv, err := getTime(c.This)
			if err != nil {
				panic(err)
			}
			ms := tv.ToFloat()
			if math.IsNaN(ms) {
				return vm.ToValue("Invalid Date")
			}
			if loc := e.localeOf(method, c.Argument(0)); loc != "en-US" {
				e.throw("RangeError", fmt.Sprintf("%s: the locale %q is not supported in the playground (no Intl); dates are formatted in English (en-US) only", method, c.Argument(0).String()))
			}
			o := e.options(method, c.Argument(1), "timeZone")
			zone := time.Local
			if tz := optString(o, "timeZone", ""); tz != "" {
				if !strings.EqualFold(tz, "UTC") && tz != "Etc/UTC" && tz != "GMT" {
					e.throw("RangeError", fmt.Sprintf("%s: the time zone %q is not supported in the playground; use \"UTC\"", method, tz))
				}
				zone = time.UTC
			}
			t := time.UnixMilli(int64(ms)).In(zone)
			var parts []string
			if m.date {
				parts = append(parts, t.Format("1/2/2006"))
			}
			if m.time {
				parts = append(parts, t.Format("3:04:05 PM"))
			}
			return vm.ToValue(strings.Join(parts, ", "))
		})
	}
	stringPrototype := vm.ToValue("").ToObject(vm).Prototype()
	collators := map[string]*collate.Collator{}
	def(stringPrototype, "localeCompare", 1, func(c goja.FunctionCall) goja.Value {
		const method = "String.prototype.localeCompare"
		if goja.IsUndefined(c.This) || goja.IsNull(c.This) {
			e.throw("TypeError", method+" called on null or undefined")
		}
		a, b := c.This.String(), c.Argument(0).String()
		loc := "en-US"
		if v := c.Argument(1); !goja.IsUndefined(v) {
			loc = e.localeOf(method, v)
		}
		o := e.options(method, c.Argument(2), "sensitivity", "numeric")
		var opts []collate.Option
		sens := optString(o, "sensitivity", "variant")
		switch sens {
		case "base":
			opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
		case "accent":
			opts = append(opts, collate.IgnoreCase)
		case "case":
			opts = append(opts, collate.IgnoreDiacritics)
		case "variant":
		default:
			e.throw("RangeError", fmt.Sprintf("%s: sensitivity %q; want base, accent, case or variant", method, sens))
		}
		if o != nil && o.Get("numeric") != nil && o.Get("numeric").ToBoolean() {
			opts = append(opts, collate.Numeric)
		}
		key := fmt.Sprint(loc, opts)
		col, ok := collators[key]
		if !ok {
			col = collate.New(language.MustParse(loc), opts...)
			collators[key] = col
		}
		return vm.ToValue(col.CompareString(a, b))
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
				e.throw("TypeError", method+" called on null or undefined")
			}
			if v := c.Argument(0); !goja.IsUndefined(v) {
				tag, err := language.Parse(v.String())
				if err != nil {
					e.throw("RangeError", fmt.Sprintf("%s: incorrect locale information provided: %q", method, v.String()))
				}
				if base, _ := tag.Base(); base.String() == "tr" || base.String() == "az" || base.String() == "lt" {
					e.throw("RangeError", fmt.Sprintf("%s: the %q locale's casing rules are not supported in the playground", method, v.String()))
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

// formatNumberLocale is Number.prototype.toLocaleString.
func (e *Runtime) formatNumberLocale(x float64, locales, options goja.Value) string {
	const method = "Number.prototype.toLocaleString"
	loc := e.localeOf(method, locales)
	nl := numberLocales[loc]
	o := e.options(method, options, "style", "currency", "minimumFractionDigits", "maximumFractionDigits",
		"minimumIntegerDigits", "useGrouping")
	style := optString(o, "style", "decimal")
	minFrac, maxFrac := 0, 3
	var cur struct {
		symbol string
		digits int
	}
	switch style {
	case "decimal":
	case "percent":
		maxFrac = 0
	case "currency":
		code := strings.ToUpper(optString(o, "currency", ""))
		if code == "" {
			e.throw("TypeError", "Currency code is required with currency style.")
		}
		if loc != "en-US" && loc != "en-GB" && loc != "en-IN" {
			e.throw("RangeError", fmt.Sprintf("%s: currency formatting is supported in English (en-US) only in the playground, not %q", method, loc))
		}
		c, ok := currencySymbols[code]
		if !ok {
			e.throw("RangeError", fmt.Sprintf("%s: the currency %q is not supported in the playground", method, code))
		}
		cur = c
		minFrac, maxFrac = c.digits, c.digits
	default:
		e.throw("RangeError", fmt.Sprintf("%s: style %q is not supported in the playground; want decimal, percent or currency", method, style))
	}
	if o != nil && o.Get("minimumFractionDigits") != nil && !goja.IsUndefined(o.Get("minimumFractionDigits")) {
		minFrac = e.optInt(method, o, "minimumFractionDigits", minFrac, 0, 100)
		maxFrac = max(maxFrac, minFrac)
	}
	if o != nil && o.Get("maximumFractionDigits") != nil && !goja.IsUndefined(o.Get("maximumFractionDigits")) {
		maxFrac = e.optInt(method, o, "maximumFractionDigits", maxFrac, 0, 100)
		if maxFrac < minFrac {
			if o.Get("minimumFractionDigits") != nil && !goja.IsUndefined(o.Get("minimumFractionDigits")) {
				e.throw("RangeError", "maximumFractionDigits value is out of range.")
			}
			minFrac = maxFrac
		}
	}
	minInt := e.optInt(method, o, "minimumIntegerDigits", 1, 1, 21)
	grouping := true
	if o != nil {
		if v := o.Get("useGrouping"); v != nil && !goja.IsUndefined(v) {
			grouping = v.ToBoolean()
		}
	}
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 0):
		s := "∞"
		if x < 0 {
			s = nl.minus + s
		}
		return s
	}
	if style == "percent" {
		x *= 100
	}
	neg := x < 0 || (x == 0 && math.Signbit(x))
	intPart, frac := roundDecimal(math.Abs(x), minFrac, maxFrac)
	if intPart == "0" && strings.Trim(frac, "0") == "" && neg && x != 0 {
		neg = true // -0.0001 rounds to -0, as ICU prints it
	}
	for len(intPart) < minInt {
		intPart = "0" + intPart
	}
	if grouping {
		intPart = group(intPart, nl)
	}
	digits := intPart
	if frac != "" {
		digits += nl.decimal + frac
	}
	sign := ""
	if neg {
		sign = nl.minus
	}
	switch style {
	case "percent":
		p := strings.Replace(nl.percent, "#", digits, 1)
		return strings.Replace(p, "-", sign, 1)
	case "currency":
		return sign + cur.symbol + digits
	}
	return sign + digits
}

// roundDecimal rounds the shortest decimal form of x (x ≥ 0) to at most
// maxFrac fraction digits, half away from zero (ICU's default, applied to
// the shortest representation: 1.005 → 1.01), keeping at least minFrac.
func roundDecimal(x float64, minFrac, maxFrac int) (string, string) {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	if len(frac) > maxFrac {
		up := frac[maxFrac] >= '5'
		frac = frac[:maxFrac]
		if up {
			digits := []byte(intPart + frac)
			i := len(digits) - 1
			for ; i >= 0; i-- {
				if digits[i] == '9' {
					digits[i] = '0'
					continue
				}
				digits[i]++
				break
			}
			if i < 0 {
				digits = append([]byte{'1'}, digits...)
			}
			intPart, frac = string(digits[:len(digits)-maxFrac]), string(digits[len(digits)-maxFrac:])
		}
	}
	frac = strings.TrimRight(frac, "0")
	for len(frac) < minFrac {
		frac += "0"
	}
	return intPart, frac
}

func group(digits string, nl numberLocale) string {
	if len(digits) < 3+nl.minGrouping {
		return digits
	}
	var parts []string
	head, tail := digits[:len(digits)-3], digits[len(digits)-3:]
	parts = append(parts, tail)
	size := 3
	if nl.indian {
		size = 2
	}
	for len(head) > size {
		parts = append(parts, head[len(head)-size:])
		head = head[:len(head)-size]
	}
	if head != "" {
		parts = append(parts, head)
	}
	slices.Reverse(parts)
	return strings.Join(parts, nl.group)
}
