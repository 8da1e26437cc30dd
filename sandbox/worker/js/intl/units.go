package intl

import (
	"slices"
	"strings"

	"github.com/dop251/goja"
)

// unitsData is data/units.json.gz, recorded from Node 20's ICU by
// data/gen_units.mjs (and compacted into data/units.bin): for each
// NumberFormat locale, the unit style's patterns, compact notation's
// patterns, the scientific exponent separator and formatRange's
// separator, approximately sign and plural ranges.
type unitsData struct {
	Units   []string // the sanctioned simple units
	Locales map[string]*unitLocale
}

type unitLocale struct {
	Exponent     string                    // "E"; sv: "×10^"
	Approx       string                    // formatRange's approximately sign ("~")
	Range        string                    // formatRange's separator ("–")
	Unit         strMap                    // "kilometer/long/one" (unit/display/plural category) → a signedTemplate's Neg, '\x1d', Pos
	Compact      map[string][]*compactData // "short"/"long" → by power of ten (0–14)
	PluralRanges strMap                    // "one/other" → the range's category
}

// template is a recorded formatToParts, encoded (a part is "n" the
// number's digits, "s" its sign, otherwise type '\x1e' value; parts are
// separated by '\x1f'): a string, which the collector does not scan.
type template string

// next returns t's first part (its type and value) and the rest.
func (t template) next() (typ, value string, rest template) {
	p, r, _ := strings.Cut(string(t), "\x1f")
	typ, value, _ = strings.Cut(p, "\x1e")
	return typ, value, template(r)
}

type signedTemplate struct{ Neg, Pos template }

// unit returns the templates of unit in display ("kilometer", "long")
// for the plural category cat, or for "other".
func (l *unitLocale) unit(unit, display, cat string) signedTemplate {
	v, ok := l.Unit.get(unit + "/" + display + "/" + cat)
	if !ok {
		v, _ = l.Unit.get(unit + "/" + display + "/other")
	}
	neg, pos, _ := strings.Cut(v, "\x1d")
	return signedTemplate{template(neg), template(pos)}
}

// compactData is one power of ten's compact patterns: the number is
// divided by 10^Div and written in the plural category's pattern. A power
// without an entry (nil) is written in full.
type compactData struct {
	Div  int
	Cats strMap // plural category (or "=1") → template
}

// cat returns the template of the plural category cat, or "other"'s.
func (c *compactData) cat(cat string) template {
	v, ok := c.Cats.get(cat)
	if !ok {
		v, _ = c.Cats.get("other")
	}
	return template(v)
}

// loadUnits reads data/units.bin (tables_test.go's writeUnits): the
// units, then each locale's data.
var loadUnits = lazy("units", func() *unitsData {
	r := &tableReader{name: "data/units.bin", s: unitsTable}
	units := r.list()
	d := &unitsData{Units: units.strings(), Locales: map[string]*unitLocale{}}
	for range r.num() {
		loc := r.str()
		l := &unitLocale{Exponent: r.str(), Approx: r.str(), Range: r.str(), Unit: r.strMap(), PluralRanges: r.strMap(),
			Compact: map[string][]*compactData{}}
		for range r.num() {
			disp := r.str()
			list := make([]*compactData, r.num())
			for i := range list {
				if div := r.num(); div > 0 { // 1 + Div; 0 none
					list[i] = &compactData{Div: div - 1, Cats: r.strMap()}
				}
			}
			l.Compact[disp] = list
		}
		d.Locales[loc] = l
	}
	r.done()
	return d
})

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
