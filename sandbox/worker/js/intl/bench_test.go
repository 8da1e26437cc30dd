package intl

import (
	"testing"

	"github.com/dop251/goja"
)

// BenchmarkNamespace is the cost of building Intl in a fresh runtime (the
// first touch of Intl in a run): constructors, prototypes, methods.
func BenchmarkNamespace(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		vm := goja.New()
		b.StartTimer()
		NewLocale(vm, nil).Namespace()
	}
}

// BenchmarkNumberFormat constructs a currency formatter and formats with
// it, as (x).toLocaleString("de-DE", {style: "currency", currency: "EUR"}).
func BenchmarkNumberFormat(b *testing.B) {
	vm := goja.New()
	l := NewLocale(vm, nil)
	opts, _ := vm.RunString(`({style: "currency", currency: "EUR"})`)
	x, loc := vm.ToValue(1234.5), vm.ToValue("de-DE")
	b.ReportAllocs()
	for b.Loop() {
		if s := l.NumberToLocaleString(x, loc, opts); s != "1.234,50\u00a0€" {
			b.Fatal(s)
		}
	}
}

// BenchmarkDateTimeFormat constructs a date formatter with components and
// formats with it, as date.toLocaleDateString("en-US", {...}).
func BenchmarkDateTimeFormat(b *testing.B) {
	vm := goja.New()
	l := NewLocale(vm, nil)
	opts, _ := vm.RunString(`({weekday: "long", year: "numeric", month: "long", day: "numeric"})`)
	loc := vm.ToValue("en-US")
	b.ReportAllocs()
	for b.Loop() {
		if s := l.DateToLocaleString("toLocaleDateString", 0, loc, opts); s != "Thursday, January 1, 1970" {
			b.Fatal(s)
		}
	}
}

// BenchmarkLocaleCompare is "a".localeCompare("b") with a fresh collator
// options read and the runtime's cached x/text collator.
func BenchmarkLocaleCompare(b *testing.B) {
	vm := goja.New()
	l := NewLocale(vm, nil)
	u := goja.Undefined()
	b.ReportAllocs()
	for b.Loop() {
		if l.LocaleCompare("résumé", "resume", u, u) != 1 {
			b.Fatal("order")
		}
	}
}

// BenchmarkLoadDates is the once-per-process cost of a date locale's
// patterns (inflating 0.8 MB and indexing about 25,000 keys).
func BenchmarkLoadDates(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		dateCache.Delete("en-US")
		if len(loadDates("en-US").keys) < 19000 {
			b.Fatal("patterns")
		}
	}
}
