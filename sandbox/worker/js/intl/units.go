package intl

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dop251/goja"
)

// unitsData is data/units.json.gz, recorded from Node 20's ICU by
// data/gen_units.mjs: for each NumberFormat locale, the unit style's
// patterns, compact notation's patterns, the scientific exponent
// separator and formatRange's separator, approximately sign and plural
// ranges.
type unitsData struct {
	ICU     string
	Units   []string // the sanctioned simple units
	Locales map[string]*unitLocale
}

type unitLocale struct {
	Exponent     string                               // "E"; sv: "×10^"
	Approx       string                               // formatRange's approximately sign ("~")
	Range        string                               // formatRange's separator ("–")
	Unit         map[string]map[string]signedTemplate // "kilometer/long" → plural category → patterns
	Compact      map[string][]*compactData            // "short"/"long" → by power of ten (0–14)
	PluralRanges map[string]string                    // "one/other" → the range's category
}

// template is a recorded formatToParts: ["n"] the number's digits, ["s"]
// its sign, otherwise [type, value].
type template [][]string

type signedTemplate struct{ Neg, Pos template }

// compactData is one power of ten's compact patterns: the number is
// divided by 10^Div and written in the plural category's pattern. A power
// without an entry (nil) is written in full.
type compactData struct {
	Div  int
	Cats map[string]template
}

var loadUnits = lazy("units", func() *unitsData {
	var d unitsData
	if err := json.Unmarshal(gunzipData("data/units.json.gz"), &d); err != nil {
		panic("intl: data/units.json.gz: " + err.Error())
	}
	return &d
})

// pick returns the category's template, or "other"'s.
func pick[T any](m map[string]T, cat string) T {
	if t, ok := m[cat]; ok {
		return t
	}
	return m["other"]
}

// readUnit reads the unit option as V8 does: validated always (the
// well-formed simple units and X-per-Y), required by style "unit". A
// compound unit (X-per-Y) is well formed but has no recorded data: a
// RangeError naming it.
func (e *env) readUnit(api string, o opts, style string) string {
	v := o.get("unit")
	unit := ""
	if !goja.IsUndefined(v) {
		unit = e.toString(v)
		units := loadUnits().Units
		num, den, per := strings.Cut(unit, "-per-")
		switch {
		case slices.Contains(units, unit):
		case per && slices.Contains(units, num) && slices.Contains(units, den):
			e.rangeError("%s: the compound unit %q is not supported in the playground (only the simple units of Intl.supportedValuesOf(\"unit\") in Node)", api, unit)
		default:
			e.rangeError("Invalid unit argument for Intl.NumberFormat() '%s'", unit)
		}
	}
	if style == "unit" && unit == "" {
		e.typeError("Invalid unit argument for Intl.NumberFormat() ''")
	}
	return unit
}

// compactFor finds r's compact pattern: the power of ten of the value
// rounded, and the value divided by that power's divisor and rounded
// again (999,999 is 1M: it moves to the next power when it rounds up).
func (nf *numberFormat) compactFor(d decimal) (decimal, *compactData) {
	display := nf.compact
	if nf.style == "currency" {
		display = "short" // ICU: "$1.2K" even when long
	}
	list := loadUnits().Locales[nf.data].Compact[display]
	r := nf.round(d)
	e := min(max(r.magnitude(), 0), len(list)-1)
	c := list[e]
	if c == nil {
		return r, nil
	}
	r = nf.round(d.shift(-c.Div))
	if r.magnitude() > e-c.Div && e+1 < len(list) {
		if c = list[e+1]; c == nil {
			return nf.round(d), nil
		}
		r = nf.round(d.shift(-c.Div))
	}
	return r, c
}
