package intl

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// numberLocaleList are the locales NumberFormat formats (data/data.json).
var numberLocaleList = []string{"en-US", "en-GB", "en-IN", "de-DE", "de-AT", "de-CH", "fr-FR", "es-ES", "es-MX",
	"it-IT", "nl-NL", "pt-BR", "pt-PT", "ja-JP", "zh-CN", "ko-KR", "ru-RU", "pl-PL", "sv-SE", "hi-IN"}

var numberLocales = localeMap(numberLocaleList)

// numberFormat is a resolved Intl.NumberFormat.
type numberFormat struct {
	locale, data         string
	style                string // decimal, percent, currency, unit
	currency, display    string
	unit, unitDisplay    string
	minInt               int
	minFrac, maxFrac     int
	minSig, maxSig       int
	rounding             string // "fraction", "significant", "compact" (ICU's morePrecision of both)
	grouping             string // "auto", "always", "min2", "" (false)
	notation, compact    string
	signDisplay          string
	trailingZeroDisplay  string
	roundingPriority     string
	boundFormat          *goja.Object
	explicitFractionOpts bool
}

// newNumberFormat is InitializeNumberFormat (ECMA-402 15.1.2), reading the
// options in V8's order (recorded in the golden tests).
func (e *env) newNumberFormat(api string, locales, options goja.Value) *numberFormat {
	requested := e.canonicalLocaleList(locales)
	o := e.coerceOptions(api, options)
	o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit")
	if ns := o.get("numberingSystem"); !goja.IsUndefined(ns) {
		if s := ns.String(); s != "latn" {
			e.rangeError("%s: numberingSystem %q is not supported in the playground (only \"latn\")", api, s)
		}
	}
	r := e.resolveLocale(api, requested, numberLocales)
	nf := &numberFormat{locale: r.locale, data: r.data}
	nf.style = o.str("style", []string{"decimal", "percent", "currency", "unit"}, "decimal")
	cur := o.get("currency")
	if !goja.IsUndefined(cur) {
		c := e.toString(cur)
		if len(c) != 3 || strings.Trim(strings.ToUpper(c), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			e.rangeError("Invalid currency code : %s", c)
		}
		nf.currency = strings.ToUpper(c)
	}
	nf.display = o.str("currencyDisplay", []string{"code", "symbol", "narrowSymbol", "name"}, "symbol", "name")
	o.str("currencySign", []string{"standard", "accounting"}, "standard", "accounting")
	unit := e.readUnit(api, o, nf.style)
	unitDisplay := o.str("unitDisplay", []string{"short", "narrow", "long"}, "short")
	if nf.style == "currency" && nf.currency == "" {
		e.typeError("Currency code is required with currency style.")
	}
	if nf.style == "unit" {
		nf.unit, nf.unitDisplay = unit, unitDisplay
	}
	d := loadData()
	mnfdDefault, mxfdDefault := 0, 3
	switch nf.style {
	case "currency":
		digits, ok := d.CurrencyDigits[nf.currency]
		if !ok {
			e.rangeError("%s: the currency %q is not supported in the playground; supported: %s", api, nf.currency, strings.Join(slices.Sorted(slices.Values(currencyList())), ", "))
		}
		mnfdDefault, mxfdDefault = digits, digits
	case "percent":
		mxfdDefault = 0
	}
	if inc := o.number("roundingIncrement", 1, 5000, 1); inc != 1 {
		e.rangeError("%s: roundingIncrement %d is not supported in the playground (only 1)", api, inc)
	}
	nf.notation = o.str("notation", []string{"standard", "scientific", "engineering", "compact"}, "standard")
	e.digitOptions(api, o, nf, mnfdDefault, mxfdDefault)
	nf.compact = "short"
	if c := o.str("compactDisplay", []string{"short", "long"}, "short"); nf.notation == "compact" {
		nf.compact = c
	}
	defGrouping := "auto"
	if nf.notation == "compact" {
		defGrouping = "min2"
	}
	nf.grouping = defGrouping
	if v := o.get("useGrouping"); !goja.IsUndefined(v) {
		if b, ok := v.Export().(bool); ok {
			if b {
				nf.grouping = "always"
			} else {
				nf.grouping = ""
			}
		} else if !v.ToBoolean() {
			nf.grouping = ""
		} else {
			switch s := e.toString(v); s {
			case "min2", "auto", "always":
				nf.grouping = s
			case "true", "false":
			default:
				e.rangeError("Value %s out of range for %s options property useGrouping", s, api)
			}
		}
	}
	nf.signDisplay = o.str("signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto")
	o.str("roundingMode", []string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}, "halfExpand",
		"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfTrunc", "halfEven")
	return nf
}

// digitOptions is SetNumberFormatDigitOptions in V8's reading order.
func (e *env) digitOptions(api string, o opts, nf *numberFormat, mnfdDefault, mxfdDefault int) {
	nf.minInt = o.number("minimumIntegerDigits", 1, 21, 1)
	mnfd, mxfd := o.get("minimumFractionDigits"), o.get("maximumFractionDigits")
	mnsd, mxsd := o.get("minimumSignificantDigits"), o.get("maximumSignificantDigits")
	nf.roundingPriority = o.str("roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto", "morePrecision", "lessPrecision")
	nf.trailingZeroDisplay = o.str("trailingZeroDisplay", []string{"auto", "stripIfInteger"}, "auto")
	hasSd := !goja.IsUndefined(mnsd) || !goja.IsUndefined(mxsd)
	hasFd := !goja.IsUndefined(mnfd) || !goja.IsUndefined(mxfd)
	needSd, needFd := true, true
	if nf.roundingPriority == "auto" {
		needSd = hasSd
		if needSd || (!hasFd && nf.notation == "compact") {
			needFd = false
		}
	}
	if needSd {
		if hasSd {
			nf.minSig = e.defaultNumber(mnsd, "minimumSignificantDigits", 1, 21, 1)
			nf.maxSig = e.defaultNumber(mxsd, "maximumSignificantDigits", nf.minSig, 21, 21)
		} else {
			nf.minSig, nf.maxSig = 1, 21
		}
	}
	if needFd {
		if hasFd {
			// 0–20 in Node 20 (V8 11.3), not ECMA-402 2023's 0–100
			lo := e.defaultNumber(mnfd, "minimumFractionDigits", 0, 20, -1)
			hi := e.defaultNumber(mxfd, "maximumFractionDigits", 0, 20, -1)
			switch {
			case lo == -1:
				lo = min(mnfdDefault, hi)
			case hi == -1:
				hi = max(mxfdDefault, lo)
			case lo > hi:
				e.rangeError("maximumFractionDigits value is out of range.")
			}
			nf.minFrac, nf.maxFrac = lo, hi
			nf.explicitFractionOpts = true
		} else {
			nf.minFrac, nf.maxFrac = mnfdDefault, mxfdDefault
		}
	}
	switch {
	case !needSd && !needFd:
		nf.rounding = "compact"
		nf.minFrac, nf.maxFrac, nf.minSig, nf.maxSig = 0, 0, 1, 2
	case needSd:
		nf.rounding = "significant"
	default:
		nf.rounding = "fraction"
	}
}

// part is one piece of formatToParts.
type part struct{ typ, value string }

// round applies the rounding options to a finite value.
func (nf *numberFormat) round(d decimal) decimal {
	switch nf.rounding {
	case "significant":
		return d.roundSignificant(nf.maxSig)
	case "compact":
		// morePrecision of (maximumFractionDigits 0) and
		// (maximumSignificantDigits 2): whichever keeps more digits.
		a, b := d.roundFraction(0), d.roundSignificant(2)
		if b.fractionDigits() > a.fractionDigits() {
			return b
		}
		return a
	}
	return d.roundFraction(nf.maxFrac)
}

// noExponent is formatParts' exponent for a notation without one.
const noExponent = math.MinInt

// scientific is d as its mantissa, rounded, and its exponent in
// scientific notation (one integer digit: 1.235E5) or engineering (the
// exponent a multiple of 3: 123.456E3), as ICU writes them: zero is 0E0,
// and a mantissa that rounds up to 10 (or 1000) moves to the next
// exponent.
func (nf *numberFormat) scientific(d decimal) (decimal, int) {
	step := 1
	if nf.notation == "engineering" {
		step = 3
	}
	exp := d.magnitude()
	exp -= ((exp % step) + step) % step
	r := nf.round(d.shift(-exp))
	if r.magnitude() >= step {
		exp += step
		r = nf.round(d.shift(-exp))
	}
	return r, exp
}

// formatParts formats d (the value, already exact) into parts.
func (nf *numberFormat) formatParts(d decimal) []part {
	return nf.formatPartsWith(d, false, "")
}

// formatPartsWith is formatParts, with formatRange's approximately sign
// when approx and, when unitCat is not "", the unit's plural category
// (a range's).
func (nf *numberFormat) formatPartsWith(d decimal, approx bool, unitCat string) []part {
	data := loadData().Numbers[nf.data]
	group, decimalSep := data.Group, data.Decimal
	var cur currencyData
	if nf.style == "currency" {
		cur = data.Currency[nf.currency+"/"+nf.display]
		group = cur.Group
		if cur.Decimal != "" {
			decimalSep = cur.Decimal
		}
	}
	var num []part
	var compact *compactData
	var compactT template
	cat := "other" // of the number as written
	exponent := noExponent
	if nf.style == "percent" {
		d = d.shift(2)
	}
	switch {
	case d.nan:
		num = []part{{"nan", data.NaN}}
	case d.inf:
		num = []part{{"infinity", data.Infinity}}
	default:
		r := nf.round(d)
		if nf.notation == "compact" {
			r, compact = nf.compactFor(d)
		}
		if nf.notation == "scientific" || nf.notation == "engineering" {
			r, exponent = nf.scientific(d)
		}
		d = r
		minFrac := nf.minFrac
		if nf.rounding != "fraction" {
			minFrac = 0
			if nf.rounding == "significant" && nf.minSig > 0 {
				// enough fraction digits for minSig significant ones
				// (an integer's digits all count: 1e16 shows 17)
				switch {
				case d.isZero():
					minFrac = nf.minSig - 1
				case d.point > 0:
					minFrac = max(0, nf.minSig-d.point)
				default:
					minFrac = -d.point + max(len(d.digits), nf.minSig)
				}
			}
		}
		if nf.trailingZeroDisplay == "stripIfInteger" && d.fractionDigits() == 0 {
			minFrac = 0
		}
		in, fr := d.integerAndFraction(nf.minInt, minFrac)
		if compact != nil || nf.style == "unit" {
			cat = pluralCategory(nf.data, in, fr, false)
		}
		if compact != nil {
			t := compact.cat(cat)
			if one, ok := compact.Cats.get("=1"); ok && in == "1" && fr == "" {
				t = template(one)
			}
			compactT = t
		}
		minGrouping := data.MinGrouping
		switch nf.grouping {
		case "always":
			minGrouping = 1
		case "min2":
			minGrouping = 2
		}
		if nf.grouping != "" && len(in) >= 3+minGrouping {
			size := 3
			var groups []string
			head := in
			for len(head) > size {
				groups = append(groups, head[len(head)-size:])
				head = head[:len(head)-size]
				if data.Indian {
					size = 2
				}
			}
			groups = append(groups, head)
			slices.Reverse(groups)
			for i, g := range groups {
				if i > 0 {
					num = append(num, part{"group", group})
				}
				num = append(num, part{"integer", g})
			}
		} else {
			num = append(num, part{"integer", in})
		}
		if fr != "" {
			num = append(num, part{"decimal", decimalSep}, part{"fraction", fr})
		}
	}
	if exponent != noExponent {
		num = append(num, part{"exponentSeparator", loadUnits().Locales[nf.data].Exponent})
		if exponent < 0 {
			num = append(num, part{"exponentMinusSign", data.Minus})
		}
		num = append(num, part{"exponentInteger", strconv.Itoa(max(exponent, -exponent))})
	}
	if compact != nil {
		num = fill(compactT, nil, num)
	}
	// the sign
	zero := d.isZero()
	var sign part
	switch nf.signDisplay {
	case "auto":
		if d.neg && !d.nan {
			sign = part{"minusSign", data.Minus}
		}
	case "always":
		if d.neg && !d.nan {
			sign = part{"minusSign", data.Minus}
		} else {
			sign = part{"plusSign", data.Plus}
		}
	case "exceptZero":
		switch {
		case zero || d.nan:
		case d.neg:
			sign = part{"minusSign", data.Minus}
		default:
			sign = part{"plusSign", data.Plus}
		}
	case "negative":
		if d.neg && !zero && !d.nan {
			sign = part{"minusSign", data.Minus}
		}
	}
	signed := sign.typ != "" || approx
	var signParts []part
	if approx {
		signParts = append(signParts, part{"approximatelySign", loadUnits().Locales[nf.data].Approx})
	}
	if sign.typ != "" {
		signParts = append(signParts, sign)
	}
	var pattern, symbol string
	switch nf.style {
	case "unit":
		if unitCat != "" {
			cat = unitCat
		}
		t := loadUnits().Locales[nf.data].unit(nf.unit, nf.unitDisplay, cat)
		if signed {
			return fill(t.Neg, signParts, num)
		}
		return fill(t.Pos, nil, num)
	case "percent":
		pattern = data.PercentPositive
		if signed {
			pattern = data.Percent
		}
	case "currency":
		pattern, symbol = cur.Positive, cur.Symbol
		if signed {
			pattern = cur.Pattern
		}
	default:
		pattern = "{n}"
		if signed {
			pattern = "{s}{n}"
		}
	}
	var out []part
	lit := func(s string) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].typ == "literal" {
			out[n-1].value += s
			return
		}
		out = append(out, part{"literal", s})
	}
	for pattern != "" {
		i := strings.IndexByte(pattern, '{')
		if i < 0 {
			lit(pattern)
			break
		}
		lit(pattern[:i])
		pattern = pattern[i:]
		switch {
		case strings.HasPrefix(pattern, "{{"):
			lit("{")
			pattern = pattern[2:]
		case strings.HasPrefix(pattern, "{s}"):
			out = append(out, signParts...)
			pattern = pattern[3:]
		case strings.HasPrefix(pattern, "{n}"):
			for _, p := range num {
				if p.typ == "literal" {
					lit(p.value)
				} else {
					out = append(out, p)
				}
			}
			pattern = pattern[3:]
		case strings.HasPrefix(pattern, "{c}"):
			out = append(out, part{"currency", symbol})
			pattern = pattern[3:]
		case strings.HasPrefix(pattern, "{p}"):
			out = append(out, part{"percentSign", data.PercentSign})
			pattern = pattern[3:]
		default:
			lit("{")
			pattern = pattern[1:]
		}
	}
	return out
}

// fill renders a recorded template: part "s" is sign, "n" num; adjacent
// literals merge, as ICU's do.
func fill(t template, sign, num []part) []part {
	out := make([]part, 0, strings.Count(string(t), "\x1f")+1+len(num)+len(sign))
	add := func(p part) {
		if n := len(out); n > 0 && p.typ == "literal" && out[n-1].typ == "literal" {
			out[n-1].value += p.value
			return
		}
		out = append(out, p)
	}
	for t != "" {
		var typ, value string
		typ, value, t = t.next()
		switch typ {
		case "s":
			for _, p := range sign {
				add(p)
			}
		case "n":
			for _, p := range num {
				add(p)
			}
		default:
			add(part{typ, value})
		}
	}
	return out
}

func joinParts(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.value)
	}
	return b.String()
}

// toIntlMathematicalValue converts format's argument: a BigInt exactly, a
// string as a decimal literal (exactly) or by ToNumber, anything else by
// ToNumber.
func (e *env) toDecimal(v goja.Value) decimal {
	if v == nil || goja.IsUndefined(v) {
		return decimal{nan: true}
	}
	if _, isObj := v.(*goja.Object); isObj {
		v = toPrimitiveNumber(e.vm, v)
	}
	switch x := v.Export().(type) {
	case *big.Int:
		return decimalFromBig(x)
	case string:
		// exactly, unless beyond a double's range: V8 formats "1e400"
		// as ∞ (ToNumber's value)
		if d, ok := decimalFromString(x); ok {
			if f := v.ToFloat(); !math.IsInf(f, 0) && (f != 0 || d.isZero()) {
				return d
			}
		}
	}
	return decimalFromFloat(v.ToFloat())
}

// toPrimitiveNumber is ToPrimitive(v, number) for an object.
func toPrimitiveNumber(vm *goja.Runtime, v goja.Value) goja.Value {
	o := v.(*goja.Object)
	if x, ok := o.Export().(*big.Int); ok {
		return vm.ToValue(x)
	}
	if f, ok := goja.AssertFunction(o.Get("valueOf")); ok {
		r, err := f(o)
		if err != nil {
			panic(err)
		}
		if _, isObj := r.(*goja.Object); !isObj {
			return r
		}
	}
	return vm.ToValue(v.ToFloat())
}

func (e *env) partsArray(ps []part, extra func(o *goja.Object, p part)) goja.Value {
	arr := make([]any, len(ps))
	for i, p := range ps {
		o := e.vm.NewObject()
		_ = o.Set("type", p.typ)
		_ = o.Set("value", p.value)
		if extra != nil {
			extra(o, p)
		}
		arr[i] = o
	}
	return e.vm.NewArray(arr...)
}

func (e *env) installNumberFormat(ns *goja.Object) *goja.Object {
	const api = "Intl.NumberFormat"
	vm := e.vm
	ctor, proto := e.class(ns, "NumberFormat", 0, true, func(args []goja.Value) any {
		return e.newNumberFormat(api, arg(args, 0), arg(args, 1))
	})
	e.method(ctor, "supportedLocalesOf", 1, e.supportedLocalesOf(api, func() map[string]string { return numberLocales }))
	e.getter(proto, "format", func(c goja.FunctionCall) goja.Value {
		nf := stateOf[*numberFormat](e, c.This, "get Intl.NumberFormat.prototype.format")
		if nf.boundFormat == nil {
			nf.boundFormat = e.function("", 1, func(c goja.FunctionCall) goja.Value {
				return vm.ToValue(joinParts(nf.formatParts(e.toDecimal(c.Argument(0)))))
			})
		}
		return nf.boundFormat
	})
	e.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		nf := stateOf[*numberFormat](e, c.This, "Intl.NumberFormat.prototype.formatToParts")
		return e.partsArray(nf.formatParts(e.toDecimal(c.Argument(0))), nil)
	})
	e.installNumberRange(proto)
	e.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		nf := stateOf[*numberFormat](e, c.This, "Intl.NumberFormat.prototype.resolvedOptions")
		return e.object(nf.resolvedOptions())
	})
	return proto
}

// kv is one property of a resolvedOptions object, in order.
type kv struct {
	k string
	v any
}

func (e *env) object(props []kv) *goja.Object {
	o := e.vm.NewObject()
	for _, p := range props {
		switch v := p.v.(type) {
		case []string:
			arr := make([]any, len(v))
			for i, s := range v {
				arr[i] = s
			}
			_ = o.Set(p.k, e.vm.NewArray(arr...))
		default:
			_ = o.Set(p.k, v)
		}
	}
	return o
}

func (nf *numberFormat) resolvedOptions() []kv {
	r := []kv{{"locale", nf.locale}, {"numberingSystem", "latn"}, {"style", nf.style}}
	if nf.style == "currency" {
		r = append(r, kv{"currency", nf.currency}, kv{"currencyDisplay", nf.display}, kv{"currencySign", "standard"})
	}
	if nf.style == "unit" {
		r = append(r, kv{"unit", nf.unit}, kv{"unitDisplay", nf.unitDisplay})
	}
	r = append(r, kv{"minimumIntegerDigits", nf.minInt})
	if nf.rounding != "fraction" {
		r = append(r, kv{"minimumSignificantDigits", nf.minSig}, kv{"maximumSignificantDigits", nf.maxSig})
	}
	if nf.rounding != "significant" {
		r = append(r, kv{"minimumFractionDigits", nf.minFrac}, kv{"maximumFractionDigits", nf.maxFrac})
	}
	var grouping any = false
	if nf.grouping != "" {
		grouping = nf.grouping
	}
	r = append(r, kv{"useGrouping", grouping}, kv{"notation", nf.notation})
	if nf.notation == "compact" {
		r = append(r, kv{"compactDisplay", nf.compact})
	}
	priority := nf.roundingPriority
	if nf.rounding == "compact" {
		priority = "morePrecision"
	}
	r = append(r, kv{"signDisplay", nf.signDisplay}, kv{"roundingMode", "halfExpand"}, kv{"roundingIncrement", 1},
		kv{"trailingZeroDisplay", nf.trailingZeroDisplay}, kv{"roundingPriority", priority})
	return r
}

func arg(args []goja.Value, i int) goja.Value {
	if i < len(args) {
		return args[i]
	}
	return goja.Undefined()
}
