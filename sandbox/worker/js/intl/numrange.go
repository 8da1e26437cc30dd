package intl

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// rangePart is one piece of formatRangeToParts: a part and its source,
// "startRange", "endRange" or "shared".
type rangePart struct {
	part
	source string
}

// layer says which of ICU's modifiers a part of a formatted number belongs
// to, the collapsing of formatRange being decided per layer: 0 the digits,
// 1 inner (the scientific exponent), 2 middle (sign, currency, percent,
// compact: the pattern), 3 outer (the unit; but the percent unit's short
// and narrow forms are ICU's percent pattern, middle). A literal belongs
// to the layer of the nearest part outward of it that is not a literal.
func (nf *numberFormat) layers(ps []part) []int {
	unitLayer := 3
	if nf.unit == "percent" && nf.unitDisplay != "long" {
		unitLayer = 2
	}
	of := func(typ string) int {
		switch typ {
		case "integer", "group", "decimal", "fraction", "nan", "infinity":
			return 0
		case "exponentSeparator", "exponentMinusSign", "exponentInteger":
			return 1
		case "unit":
			return unitLayer
		case "literal":
			return -1
		}
		return 2
	}
	ls := make([]int, len(ps))
	first, last := -1, -1
	for i, p := range ps {
		ls[i] = of(p.typ)
		if ls[i] == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := range ps {
		if ls[i] != -1 {
			continue
		}
		ls[i] = 2
		if i < first { // outward is toward the start
			for j := i - 1; j >= 0; j-- {
				if ls[j] != -1 {
					ls[i] = ls[j]
					break
				}
			}
		} else if i > last {
			for j := i + 1; j < len(ps); j++ {
				if of(ps[j].typ) != -1 {
					ls[i] = of(ps[j].typ)
					break
				}
			}
		} else {
			ls[i] = 0 // between digits (none in the recorded data)
		}
	}
	return ls
}

// affixes returns a formatted number's parts of layer l before the digits
// and after them.
func affixes(ps []part, ls []int, l int) (pre, post []part) {
	seenCore := false
	for i, p := range ps {
		switch {
		case ls[i] == 0:
			seenCore = true
		case ls[i] == l && !seenCore:
			pre = append(pre, p)
		case ls[i] == l:
			post = append(post, p)
		}
	}
	return pre, post
}

func partsEqual(a, b []part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func codePoints(ps ...[]part) int {
	n := 0
	for _, x := range ps {
		for _, p := range x {
			n += utf8.RuneCountInString(p.value)
		}
	}
	return n
}

// formatRange is PartitionNumberRangePattern as ICU 73 does it (Node 20,
// number_rangeformatter.cpp with UNUM_RANGE_COLLAPSE_AUTO): two values
// that format alike are one value with the approximately sign; otherwise
// the unit (outer) is written once when both have it, the pattern
// (middle: sign, currency, percent, compact) once when it is the same and
// more than one code point, and spaces go around the separator unless
// every non-empty modifier of the start was collapsed.
func (nf *numberFormat) formatRange(x, y decimal) []rangePart {
	a, b := nf.formatParts(x), nf.formatParts(y)
	if joinParts(a) == joinParts(b) {
		ps := nf.formatPartsWith(x, true, "")
		out := make([]rangePart, len(ps))
		for i, p := range ps {
			out[i] = rangePart{p, "shared"}
		}
		return out
	}
	ld := loadUnits().Locales[nf.data]
	if nf.style == "unit" {
		// the unit's plural form is the range's (CLDR plural ranges)
		ca, cb := nf.unitCategory(a), nf.unitCategory(b)
		cat, _ := ld.PluralRanges.get(ca + "/" + cb)
		if cat == "" {
			cat = "other" // ICU's StandardPluralRanges::resolve
		}
		b = nf.formatPartsWith(y, false, cat)
	}
	la, lb := nf.layers(a), nf.layers(b)
	collapsed := [4]bool{}
	oa1, oa2 := affixes(a, la, 3)
	ob1, ob2 := affixes(b, lb, 3)
	collapsed[3] = nf.style == "unit" || partsEqual(oa1, ob1) && partsEqual(oa2, ob2)
	ma1, ma2 := affixes(a, la, 2)
	mb1, mb2 := affixes(b, lb, 2)
	collapsed[2] = collapsed[3] && partsEqual(ma1, mb1) && partsEqual(ma2, mb2) && codePoints(ma1, ma2) > 1
	ia1, ia2 := affixes(a, la, 1)
	spaced := codePoints(ia1, ia2) > 0 || !collapsed[2] && codePoints(ma1, ma2) > 0 || !collapsed[3] && codePoints(oa1, oa2) > 0
	sep := ld.Range
	if spaced {
		if r, _ := utf8.DecodeRuneInString(sep); !unicode.IsSpace(r) {
			sep = " " + sep
		}
		if r, _ := utf8.DecodeLastRuneInString(sep); !unicode.IsSpace(r) {
			sep += " "
		}
	}
	var out []rangePart
	// each side's own parts: those of the layers not collapsed
	own := func(ps []part, ls []int, source string) {
		for i, p := range ps {
			if ls[i] < 2 || !collapsed[ls[i]] {
				out = append(out, rangePart{p, source})
			}
		}
	}
	sharedPre := func(ps []part, ls []int) {
		for i, p := range ps {
			if ls[i] == 0 || ls[i] == 1 {
				return
			}
			if collapsed[ls[i]] {
				out = append(out, rangePart{p, "shared"})
			}
		}
	}
	sharedPost := func(ps []part, ls []int) {
		start := len(ps)
		for i := len(ps) - 1; i >= 0; i-- {
			if ls[i] == 0 || ls[i] == 1 {
				break
			}
			start = i
		}
		for i := start; i < len(ps); i++ {
			if collapsed[ls[i]] {
				out = append(out, rangePart{ps[i], "shared"})
			}
		}
	}
	sharedPre(b, lb)
	own(a, la, "startRange")
	out = append(out, rangePart{part{"literal", sep}, "shared"})
	own(b, lb, "endRange")
	sharedPost(b, lb)
	return out
}

// unitCategory is the plural category a formatted number's unit was
// written in: that of its digits.
func (nf *numberFormat) unitCategory(ps []part) string {
	var in, fr strings.Builder
	for _, p := range ps {
		switch p.typ {
		case "integer":
			in.WriteString(p.value)
		case "fraction":
			fr.WriteString(p.value)
		case "nan", "infinity":
			return "other"
		}
	}
	return pluralCategory(nf.data, in.String(), fr.String(), false)
}

// rangeArgs reads formatRange's start and end: undefined is a TypeError,
// NaN a RangeError, as V8 words them.
func (e *env) rangeArgs(c goja.FunctionCall) (decimal, decimal) {
	var ds [2]decimal
	for i, name := range []string{"start", "end"} {
		v := c.Argument(i)
		if goja.IsUndefined(v) {
			e.typeError("Invalid %s : undefined", name)
		}
		ds[i] = e.toDecimal(v)
		if ds[i].nan {
			e.rangeError("Invalid %s : %s", name, e.toString(v))
		}
	}
	return ds[0], ds[1]
}

func (e *env) installNumberRange(proto *goja.Object) {
	e.method(proto, "formatRange", 2, func(c goja.FunctionCall) goja.Value {
		nf := stateOf[*numberFormat](e, c.This, "Intl.NumberFormat.prototype.formatRange")
		x, y := e.rangeArgs(c)
		var b strings.Builder
		for _, p := range nf.formatRange(x, y) {
			b.WriteString(p.value)
		}
		return e.vm.ToValue(b.String())
	})
	e.method(proto, "formatRangeToParts", 2, func(c goja.FunctionCall) goja.Value {
		nf := stateOf[*numberFormat](e, c.This, "Intl.NumberFormat.prototype.formatRangeToParts")
		x, y := e.rangeArgs(c)
		rs := nf.formatRange(x, y)
		arr := make([]any, len(rs))
		for i, r := range rs {
			o := e.vm.NewObject()
			_ = o.Set("type", r.typ)
			_ = o.Set("value", r.value)
			_ = o.Set("source", r.source)
			arr[i] = o
		}
		return e.vm.NewArray(arr...)
	})
}
