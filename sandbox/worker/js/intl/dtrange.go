package intl

import (
	"strings"
	"time"

	"github.com/dop251/goja"
)

// DateTimeFormat.prototype.formatRange and formatRangeToParts: ICU's
// interval formats, recorded from Node 20 by data/gen_ranges.mjs for
// dateStyle/timeStyle and the component combinations without
// timeZoneName or narrow names (data/ranges-LOCALE.txt.gz, compacted into
// data/ranges.bin), by the field in which the two dates first differ.

var rangeTable = lazy("ranges", func() []*dateData { return loadDateKind("data/ranges.bin", rangesTable) })

// loadRanges returns the interval patterns of locale, one of dateLocaleList.
func loadRanges(locale string) *dateData { return dateLocale(rangeTable(), locale) }

// rangeLevel is the largest field in which x and y differ in the
// format's zone ("y", "M", "d", "a" the half of the day, "h", "m", "s"),
// or "" when they are the same to the second.
func (df *dateTimeFormat) rangeLevel(x, y time.Time) string {
	switch {
	case x.Year() != y.Year():
		return "y"
	case x.Month() != y.Month():
		return "M"
	case x.Day() != y.Day():
		return "d"
	case x.Hour()/12 != y.Hour()/12:
		return "a"
	case x.Hour() != y.Hour():
		return "h"
	case x.Minute() != y.Minute():
		return "m"
	case x.Second() != y.Second():
		return "s"
	}
	return ""
}

func (e *env) formatDateRange(df *dateTimeFormat, api string, x, y float64) []rangePart {
	tx := time.UnixMilli(int64(x)).In(df.zone)
	ty := time.UnixMilli(int64(y)).In(df.zone)
	level := df.rangeLevel(tx, ty)
	if level == "" {
		ps := df.formatParts(e, x)
		out := make([]rangePart, len(ps))
		for i, p := range ps {
			out[i] = rangePart{p, "shared"}
		}
		return out
	}
	df.formatParts(e, y) // its checks (the year 1)
	key := df.key
	if !strings.HasPrefix(key, "style:") && len(key) == 9 && key[7] != '-' {
		key = "" // with timeZoneName: not recorded
	}
	switch {
	case strings.HasSuffix(key, "K"):
		key = key[:len(key)-1] + "h" // h11 writes h12's pattern, its hours from 0
	case strings.HasSuffix(key, "k"):
		key = key[:len(key)-1] + "H"
	}
	p, ok := loadRanges(df.data).pattern(key + "|" + level)
	if !ok {
		e.rangeError("%s: formatRange is not recorded in the playground for these options (%s)", api, df.key)
	}
	data := loadDates(df.data)
	var out []rangePart
	source, t := "shared", tx
	for _, tok := range tokens(p) {
		switch tok.field {
		case "":
			out = append(out, rangePart{part{"literal", tok.literal}, source})
		case "@s":
			source, t = "startRange", tx
		case "@e":
			source, t = "endRange", ty
		case "@x":
			source, t = "shared", tx
		default:
			out = append(out, rangePart{df.field(data, tok.field, t), source})
		}
	}
	return out
}

// dateRangeArgs reads formatRange's dates: undefined is a TypeError, as
// V8 words it; an invalid time value a RangeError.
func (e *env) dateRangeArgs(c goja.FunctionCall) (float64, float64) {
	if goja.IsUndefined(c.Argument(0)) || goja.IsUndefined(c.Argument(1)) {
		e.typeError("Invalid time value")
	}
	return e.toDateValue(c.Argument(0)), e.toDateValue(c.Argument(1))
}

func (e *env) installDateRange(proto *goja.Object) {
	vm := e.vm
	e.method(proto, "formatRange", 2, func(c goja.FunctionCall) goja.Value {
		const api = "Intl.DateTimeFormat.prototype.formatRange"
		df := stateOf[*dateTimeFormat](e, c.This, api)
		x, y := e.dateRangeArgs(c)
		var b strings.Builder
		single := true
		for _, p := range e.formatDateRange(df, api, x, y) {
			b.WriteString(p.value)
			single = single && p.source == "shared"
		}
		if single {
			// one date: V8 formats it as format does, U+202F as a space
			return vm.ToValue(strings.ReplaceAll(b.String(), "\u202f", " "))
		}
		return vm.ToValue(b.String())
	})
	e.method(proto, "formatRangeToParts", 2, func(c goja.FunctionCall) goja.Value {
		const api = "Intl.DateTimeFormat.prototype.formatRangeToParts"
		df := stateOf[*dateTimeFormat](e, c.This, api)
		x, y := e.dateRangeArgs(c)
		rs := e.formatDateRange(df, api, x, y)
		arr := make([]any, len(rs))
		for i, r := range rs {
			o := vm.NewObject()
			_ = o.Set("type", r.typ)
			_ = o.Set("value", r.value)
			_ = o.Set("source", r.source)
			arr[i] = o
		}
		return vm.NewArray(arr...)
	})
}
