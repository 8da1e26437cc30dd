package intl

import (
	"math"
	"strings"

	"github.com/dop251/goja"
)

// Locale is one runtime's Intl: the namespace, built on first use, and the
// locale-sensitive methods of Number, BigInt, Date and String, which
// ECMA-402 defines through the same constructors (so
// (1234.5).toLocaleString("de") is new Intl.NumberFormat("de").format(1234.5)).
//
// Its methods take goja values, throw JavaScript errors through the
// Thrower (RangeError, TypeError; never return an error) and must be
// called on vm's goroutine.
type Locale struct {
	e  *env
	ns *goja.Object
}

// NewLocale makes vm's Locale. It builds no objects and reads no data;
// throw raises errors (nil: vm's global RangeError and TypeError).
func NewLocale(vm *goja.Runtime, throw Thrower) *Locale {
	return &Locale{e: newEnv(vm, throw)}
}

// Namespace returns the Intl object, building it on the first call (the
// six constructors with their prototypes: about 60 goja objects).
func (l *Locale) Namespace() *goja.Object {
	if l.ns == nil {
		l.ns = l.e.namespace()
	}
	return l.ns
}

// NumberToLocaleString is Number.prototype.toLocaleString and
// BigInt.prototype.toLocaleString: x is the receiver's primitive value (a
// Number or a BigInt).
func (l *Locale) NumberToLocaleString(x, locales, options goja.Value) string {
	nf := l.e.newNumberFormat("Number.prototype.toLocaleString", locales, options)
	return joinParts(nf.formatParts(l.e.toDecimal(x)))
}

// DateToLocaleString is Date.prototype.toLocaleString (method
// "toLocaleString"), toLocaleDateString and toLocaleTimeString: ms is the
// receiver's time value; NaN is "Invalid Date".
func (l *Locale) DateToLocaleString(method string, ms float64, locales, options goja.Value) string {
	required, defaults := "any", "all"
	switch method {
	case "toLocaleDateString":
		required, defaults = "date", "date"
	case "toLocaleTimeString":
		required, defaults = "time", "time"
	}
	if math.IsNaN(ms) {
		return "Invalid Date"
	}
	df := l.e.newDateTimeFormat("Date.prototype."+method, locales, options, required, defaults)
	return strings.ReplaceAll(joinParts(df.formatParts(l.e, ms)), "\u202f", " ")
}

// LocaleCompare is String.prototype.localeCompare: new
// Intl.Collator(locales, options).compare(a, b).
func (l *Locale) LocaleCompare(a, b string, locales, options goja.Value) int {
	c := l.e.newCollator("String.prototype.localeCompare", locales, options)
	return l.e.collatorFor(c).CompareString(c.prepare(a), c.prepare(b))
}
