package intl

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// harness is record.mjs's run function: the same snippet shown the same
// way in goja as in Node.
const harness = `(function run(line) {
  const show = (r) => (typeof r === "string" ? r : typeof r === "bigint" ? r + "n" : JSON.stringify(r) ?? String(r));
  try {
    const f = new Function(/\breturn\b/.test(line) ? line : "return (" + line + ")");
    return show(f());
  } catch (e) {
    return "throws " + (e && e.name);
  }
})`

func newVM(t testing.TB) (*goja.Runtime, goja.Callable) {
	t.Helper()
	vm := goja.New()
	l := NewLocale(vm, nil)
	if err := vm.Set("Intl", l.Namespace()); err != nil {
		t.Fatal(err)
	}
	wireLocaleMethods(t, vm, l)
	v, err := vm.RunString(harness)
	if err != nil {
		t.Fatal(err)
	}
	run, ok := goja.AssertFunction(v)
	if !ok {
		t.Fatal("harness is not a function")
	}
	return vm, run
}

type golden struct {
	Node, ICU string
	Cases     []struct{ Src, Want string }
}

func readGolden(t *testing.T) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGolden runs every snippet of testdata/cases.txt in goja and compares
// it with what Node 20 printed (testdata/golden.json, recorded by
// testdata/record.mjs).
func TestGolden(t *testing.T) {
	g := readGolden(t)
	if len(g.Cases) < 150 {
		t.Errorf("%d golden cases; want at least 150", len(g.Cases))
	}
	vm, run := newVM(t)
	for _, c := range g.Cases {
		got, err := run(goja.Undefined(), vm.ToValue(c.Src))
		if err != nil {
			t.Errorf("%s: %v", c.Src, err)
			continue
		}
		if got.String() != c.Want {
			t.Errorf("%s\n got %q\nwant %q", c.Src, got.String(), c.Want)
		}
	}
}

// TestGoldenIsFresh re-records the golden file under Node (when node is on
// PATH, of the major version and ICU the file names) and fails if its
// cases differ: cases.txt and golden.json go together. The Node version
// the file names is not compared, so another patch release of Node 20
// with the same ICU passes.
func TestGoldenIsFresh(t *testing.T) {
	committed := readGolden(t)
	recordingNode(t, committed.Node, committed.ICU)
	cmd := exec.Command("node", "testdata/record.mjs")
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/record.mjs: %v", err)
	}
	var recorded golden
	if err := json.Unmarshal(out, &recorded); err != nil {
		t.Fatalf("node testdata/record.mjs: %v", err)
	}
	if !slices.Equal(recorded.Cases, committed.Cases) {
		t.Errorf("testdata/golden.json is stale: run `cd sandbox/worker/js/intl && TZ=UTC node testdata/record.mjs > testdata/golden.json`")
	}
}

// TestUnsupportedIsAnError: what the playground does not implement throws
// an error that names it (Node would format these; falling back would be
// silently wrong).
func TestUnsupportedIsAnError(t *testing.T) {
	vm, _ := newVM(t)
	for _, c := range []struct{ src, want string }{
		{`new Intl.NumberFormat("ar-EG").format(1)`, `RangeError: Intl.NumberFormat: the locale "ar-EG" is not supported in the playground; supported: de-AT`},
		{`new Intl.NumberFormat("en-US-u-nu-arab").format(1)`, `RangeError: Intl.NumberFormat: the locale "en-US-u-nu-arab" has a Unicode extension`},
		{`new Intl.NumberFormat("en", {style: "unit", unit: "kilometer-per-hour"})`, `RangeError: Intl.NumberFormat: the compound unit "kilometer-per-hour" is not supported in the playground`},
		{`new Intl.NumberFormat("de", {unit: "meter-per-second"})`, `RangeError: Intl.NumberFormat: the compound unit "meter-per-second" is not supported in the playground`},
		{`new Intl.NumberFormat("en", {style: "currency", currency: "XAF"})`, `RangeError: Intl.NumberFormat: the currency "XAF" is not supported in the playground; supported: AUD,`},
		{`new Intl.NumberFormat("en", {style: "currency", currency: "EUR", currencyDisplay: "name"})`, `RangeError: Intl.NumberFormat: currencyDisplay "name" is not supported in the playground`},
		{`new Intl.NumberFormat("en", {style: "currency", currency: "EUR", currencySign: "accounting"})`, `RangeError: Intl.NumberFormat: currencySign "accounting" is not supported`},
		{`new Intl.NumberFormat("en", {roundingMode: "floor"})`, `RangeError: Intl.NumberFormat: roundingMode "floor" is not supported`},
		{`new Intl.NumberFormat("en", {roundingIncrement: 5})`, `RangeError: Intl.NumberFormat: roundingIncrement 5 is not supported`},
		{`new Intl.NumberFormat("en", {roundingPriority: "lessPrecision"})`, `RangeError: Intl.NumberFormat: roundingPriority "lessPrecision" is not supported`},
		{`new Intl.NumberFormat("en", {numberingSystem: "arab"})`, `RangeError: Intl.NumberFormat: numberingSystem "arab" is not supported in the playground`},
		{`Intl.supportedValuesOf("timeZone")`, `RangeError: Intl.supportedValuesOf("timeZone") is not supported in the playground`},
		// ICU's dictionaries, not UAX #29, break Chinese, Japanese and Thai
		// words (Node: 今日|は|良い|天気|です; สวัสดี|ครับ), and Unicode 15.1's
		// GB9c keeps Indic conjuncts in one grapheme (Node: न|म|स्ते)
		{`[...new Intl.Segmenter("ja", {granularity: "word"}).segment("今日は良い天気です")]`, `RangeError: Intl.Segmenter: word segmentation of "今" (Chinese, Japanese, Thai, Lao, Khmer or Myanmar text) uses ICU's dictionaries in Node`},
		{`new Intl.Segmenter("en", {granularity: "word"}).segment("hi สวัสดีครับ")`, `RangeError: Intl.Segmenter: word segmentation of "ส"`},
		{`[...new Intl.Segmenter("hi", {granularity: "grapheme"}).segment("नमस्ते")]`, `RangeError: Intl.Segmenter: grapheme clusters across an Indic conjunct (the virama U+094D before a consonant) follow Unicode 15.1's rule GB9c in Node`},
		{`new Intl.DateTimeFormat("en-US", {hour: "numeric", timeZoneName: "short"}).formatRange(0, 36e5)`, `RangeError: Intl.DateTimeFormat.prototype.formatRange: formatRange is not recorded in the playground for these options`},
		{`new Intl.DateTimeFormat("en-US", {month: "narrow", day: "numeric"}).formatRangeToParts(0, 36e8)`, `RangeError: Intl.DateTimeFormat.prototype.formatRangeToParts: formatRange is not recorded in the playground`},
		{`new Intl.DisplayNames("en", {type: "calendar"})`, `RangeError: Intl.DisplayNames: type "calendar" is not supported in the playground`},
		{`new Intl.DisplayNames("en", {type: "dateTimeField"})`, `RangeError: Intl.DisplayNames: type "dateTimeField" is not supported in the playground`},
		{`new Intl.DisplayNames("en", {type: "language"}).of("en-fonipa")`, `RangeError: Intl.DisplayNames: the language tag "en-fonipa" has a variant (fonipa), whose name the playground does not have`},
		{`new Intl.DisplayNames("th", {type: "region"})`, `RangeError: Intl.DisplayNames: the locale "th" is not supported in the playground`},
		{`new Intl.Segmenter("ar-EG")`, `RangeError: Intl.Segmenter: the locale "ar-EG" is not supported in the playground`},
	} {
		_, err := vm.RunString(c.src)
		if err == nil {
			t.Errorf("%s: no error; want %q", c.src, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.src, err, c.want)
		}
	}
}

// wireLocaleMethods replaces goja's locale methods with Locale's, as the
// worker's runtime does (the wiring proposed to it).
func wireLocaleMethods(t testing.TB, vm *goja.Runtime, l *Locale) {
	t.Helper()
	proto := func(ctor string) *goja.Object {
		return vm.Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
	}
	set := func(o *goja.Object, name string, fn func(goja.FunctionCall) goja.Value) {
		if err := o.Set(name, fn); err != nil {
			t.Fatal(err)
		}
	}
	toLocale := func(c goja.FunctionCall) goja.Value {
		x := c.This
		if o, ok := x.(*goja.Object); ok {
			x = o.Export().(goja.Value)
		}
		return vm.ToValue(l.NumberToLocaleString(x, c.Argument(0), c.Argument(1)))
	}
	set(proto("Number"), "toLocaleString", func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			c.This = vm.ToValue(o.Export())
		}
		return toLocale(c)
	})
	set(proto("BigInt"), "toLocaleString", func(c goja.FunctionCall) goja.Value {
		if o, ok := c.This.(*goja.Object); ok {
			c.This = vm.ToValue(o.Export())
		}
		return toLocale(c)
	})
	getTime, _ := goja.AssertFunction(proto("Date").Get("getTime"))
	for _, m := range []string{"toLocaleString", "toLocaleDateString", "toLocaleTimeString"} {
		set(proto("Date"), m, func(c goja.FunctionCall) goja.Value {
			tv, err := getTime(c.This)
			if err != nil {
				panic(err)
			}
			return vm.ToValue(l.DateToLocaleString(m, tv.ToFloat(), c.Argument(0), c.Argument(1)))
		})
	}
	set(proto("String"), "localeCompare", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(l.LocaleCompare(c.This.String(), c.Argument(0).String(), c.Argument(1), c.Argument(2)))
	})
}
