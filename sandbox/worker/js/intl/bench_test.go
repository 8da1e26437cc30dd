package intl

import (
	"runtime"
	"runtime/metrics"
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

// BenchmarkLoad is the once-per-process cost of each piece of the
// package's data (what Preload loads: inflating, parsing, indexing), and
// of all of it ("all"), with the heap all of it retains (retained-B/op).
//
//	go test -run '^$' -bench Load -benchtime 10x ./sandbox/worker/js/intl/
func BenchmarkLoad(b *testing.B) {
	for _, l := range loaders {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l.raw()
			}
		})
	}
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		var retained uint64
		for b.Loop() {
			b.StopTimer()
			before := liveHeap()
			b.StartTimer()
			held := make([]any, len(loaders))
			for i, l := range loaders {
				held[i] = l.raw()
			}
			b.StopTimer()
			retained += liveHeap() - before
			runtime.KeepAlive(held)
			b.StartTimer()
		}
		b.ReportMetric(float64(retained)/float64(b.N), "retained-B/op")
	})
}

// liveHeap is the heap a full collection leaves.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkPreloadGC is what the preloaded data costs every collection a
// worker makes afterwards: the time of a full runtime.GC with nothing
// loaded ("none") and with everything Preload loads held ("all"), and for
// "all" the heap the data retains (retained-B) and how much of it the
// collector must scan for pointers (scan-B, runtime/metrics'
// /gc/scan/heap:bytes).
//
//	go test -run '^$' -bench PreloadGC -count 5 ./sandbox/worker/js/intl/
func BenchmarkPreloadGC(b *testing.B) {
	for _, tc := range []struct {
		name string
		load bool
	}{{"none", false}, {"all", true}} {
		b.Run(tc.name, func(b *testing.B) {
			heap0, scan0 := liveHeap(), scanHeap()
			var held []any
			if tc.load {
				for _, l := range loaders {
					held = append(held, l.raw())
				}
			}
			heap1, scan1 := liveHeap(), scanHeap()
			for b.Loop() {
				runtime.GC()
			}
			runtime.KeepAlive(held)
			b.ReportMetric(float64(int64(heap1-heap0)), "retained-B")
			b.ReportMetric(float64(int64(scan1-scan0)), "scan-B")
		})
	}
}

// scanHeap is the heap the collector scans for pointers, as of the last
// collection.
func scanHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
