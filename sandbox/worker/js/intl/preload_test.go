package intl

import (
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestPreloadLeavesNothingToLoad: after Preload, every loader has loaded
// once, and formatting in every supported locale (the golden cases, and
// each kind of data in each locale) loads nothing more: no run's timing
// depends on what an earlier run used (issue 22).
func TestPreloadLeavesNothingToLoad(t *testing.T) {
	Preload()
	if got, want := loads.Load(), int64(len(loaders)); got != want {
		t.Fatalf("after Preload, %d loads; want one per loader (%d)", got, want)
	}
	Preload()
	if got, want := loads.Load(), int64(len(loaders)); got != want {
		t.Fatalf("after a second Preload, %d loads; want %d", got, want)
	}

	before := loads.Load()
	vm, run := newVM(t)
	for _, c := range readGolden(t).Cases {
		if _, err := run(goja.Undefined(), vm.ToValue(c.Src)); err != nil {
			t.Fatalf("%s: %v", c.Src, err)
		}
	}
	_ = vm.Set("numberLocales", numberLocaleList)
	_ = vm.Set("dateLocales", dateLocaleList)
	_ = vm.Set("collatorLocales", slices.Sorted(func(yield func(string) bool) {
		for l := range collatorLocales() {
			if !yield(l) {
				return
			}
		}
	}))
	_, err := vm.RunString(`
		for (const l of numberLocales) {
			new Intl.NumberFormat(l, {style: "currency", currency: "EUR"}).format(1234.5);
			new Intl.NumberFormat(l, {style: "unit", unit: "kilometer", unitDisplay: "long"}).format(2);
			new Intl.NumberFormat(l, {notation: "compact"}).format(12345);
			new Intl.NumberFormat(l, {notation: "scientific"}).format(12345);
			new Intl.NumberFormat(l).formatRange(1, 2);
			new Intl.PluralRules(l).select(1);
			new Intl.DisplayNames(l, {type: "region"}).of("DE");
			new Intl.DisplayNames(l, {type: "language"}).of("fr");
			new Intl.Segmenter(l).segment("a b");
		}
		for (const l of collatorLocales) new Intl.Collator(l).compare("a", "b");
		for (const l of dateLocales) {
			for (const o of [{dateStyle: "full", timeStyle: "long"}, {month: "long", day: "numeric"}, {hour: "numeric", hourCycle: "h23"}]) {
				const df = new Intl.DateTimeFormat(l, o);
				df.format(0);
				df.formatRange(0, 40 * 864e5);
				df.formatRangeToParts(0, 3600e3);
			}
			new Intl.RelativeTimeFormat(l).format(-1, "day");
			new Intl.ListFormat(l).format(["a", "b", "c"]);
		}
		Intl.supportedValuesOf("currency");
		Intl.supportedValuesOf("unit");
	`)
	if err != nil {
		t.Fatal(err)
	}
	if n := loads.Load() - before; n != 0 {
		t.Errorf("formatting after Preload loaded %d more times", n)
	}
}

// TestEveryDataFileHasALoader: Preload loads every embedded data file
// (data.json and each generated table, data/*.bin), under the loader
// names that BenchmarkLoad reports, and the recorded files that are
// compacted into the tables (data/*.gz) are not embedded.
func TestEveryDataFileHasALoader(t *testing.T) {
	var names []string
	for _, l := range loaders {
		names = append(names, l.name)
	}
	for _, f := range append(binFiles(t), "data/data.json") {
		name := strings.TrimSuffix(filepath.Base(f), ".bin")
		if !slices.Contains(names, name) {
			t.Errorf("embedded %s has no loader (loaders: %q)", f, names)
		}
	}
	src, err := os.ReadFile("data.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "//go:embed") && strings.Contains(line, ".gz") {
			t.Errorf("data.go embeds a recorded file (%s): embed its table, data/*.bin", line)
		}
	}
}

// TestNoOtherProcessCaches: the package's process-wide state is made by
// lazy (preload.go), which Preload covers. A sync.Once
// or sync.Map elsewhere would be a cache that Preload does not fill.
func TestNoOtherProcessCaches(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "preload.go" {
			continue
		}
		af, err := parser.ParseFile(gotoken.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "sync" {
				t.Errorf("%s imports sync: load process-wide data with lazy (preload.go), so that Preload loads it", f)
			}
		}
	}
}

// TestCachesAreBounded: a snippet that tries many distinct time zones and
// locales grows no cache. Only zones that load are cached, and in the
// runtime, not the process; the locale tables are fixed.
func TestCachesAreBounded(t *testing.T) {
	vm := goja.New()
	l := NewLocale(vm, nil)
	_ = vm.Set("Intl", l.Namespace())
	before := loads.Load()
	v, err := vm.RunString(`
		let thrown = 0;
		for (let i = 0; i < 2000; i++) {
			for (const tz of ["Nowhere/Zone" + i, "America/Nowhere_" + i, "Etc/GMT+" + (15 + i), "zone" + i + "/x/y", "x".repeat(60 + i % 20)]) {
				try { new Intl.DateTimeFormat("en-US", {timeZone: tz}); } catch (e) { if (e instanceof RangeError) thrown++; }
			}
			for (const loc of ["zz-" + i, "ja-JP-u-nu-x" + i, "de-" + (100 + i % 900)]) {
				try { new Intl.DateTimeFormat(loc).formatRange(0, 1); } catch (e) {}
				try { new Intl.NumberFormat(loc).format(1); } catch (e) {}
				try { new Intl.DisplayNames(loc, {type: "region"}).of("DE"); } catch (e) {}
			}
		}
		for (let i = 0; i < 100; i++) {
			new Intl.DateTimeFormat("en-US", {timeZone: "Asia/Tokyo"}).format(0);
			new Intl.DateTimeFormat("en-US", {timeZone: i % 2 ? "UTC" : "Etc/UTC"}).format(0);
		}
		thrown`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.ToInteger(), int64(2000*5); got != want {
		t.Errorf("%d invalid time zones threw a RangeError; want %d", got, want)
	}
	if got, want := slices.Sorted(func(yield func(string) bool) {
		for z := range l.e.zones {
			if !yield(z) {
				return
			}
		}
	}), []string{"Asia/Tokyo"}; !slices.Equal(got, want) {
		t.Errorf("zones cached = %q; want %q (UTC's names resolve without loading)", got, want)
	}
	if n := len(NewLocale(goja.New(), nil).e.zones); n != 0 {
		t.Errorf("a new runtime starts with %d zones cached; want none", n)
	}
	if len(dateTable()) != len(dateLocaleList) || len(rangeTable()) != len(dateLocaleList) {
		t.Errorf("locale tables have %d, %d locales; want %d", len(dateTable()), len(rangeTable()), len(dateLocaleList))
	}
	if after := loads.Load(); after-before > int64(len(loaders)) {
		t.Errorf("%d loads; want at most one per loader (%d)", after-before, len(loaders))
	}
}
