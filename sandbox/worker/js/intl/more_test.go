package intl

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestDataIsFresh re-records data/ under Node (when node is on PATH):
// data.json entirely, and every 13th date-time pattern with all the
// style patterns and names (the whole run takes Node about 13 s of CPU);
// each recorded line must be in the embedded file. It runs under a node
// with the ICU data.json names (recordingNode).
func TestDataIsFresh(t *testing.T) {
	var data struct{ ICU string }
	readJSON(t, "data/data.json", &data)
	recordingNode(t, "", data.ICU)
	dir := t.TempDir()
	cmd := exec.Command("node", "data/gen.mjs", dir, "13")
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node data/gen.mjs: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1+len(dateLocaleList) {
		t.Fatalf("gen.mjs wrote %d files; want %d", len(files), 1+len(dateLocaleList))
	}
	stale := "is stale: run `cd sandbox/worker/js/intl && TZ=UTC node data/gen.mjs`"
	for _, f := range files {
		name := filepath.Base(f)
		got, want := read(t, f), read(t, filepath.Join("data", name))
		if name == "data.json" {
			if !bytes.Equal(got, want) {
				t.Errorf("data/%s %s", name, stale)
			}
			continue
		}
		loc := strings.TrimSuffix(strings.TrimPrefix(name, "dates-"), ".txt.gz")
		committed := parseDates(string(want))
		lines := strings.Split(strings.TrimSpace(string(got)), "\n")
		if len(lines) < 1500 {
			t.Errorf("%s: only %d lines recorded", name, len(lines))
		}
		have := map[string]bool{}
		for k, i := range committed.keys {
			have[k+"\t"+committed.patterns[i]] = true
		}
		for k, v := range committed.names {
			have["names:"+k+"\t"+strings.Join(v, "\t")] = true
		}
		_ = loc
		for _, l := range lines {
			if !have[l] {
				t.Errorf("data/%s %s: %q", name, stale, l)
				break
			}
		}
	}
}

// readJSON decodes the JSON file path (read: gunzipped when it ends in
// .gz) into v, failing t with the file's name when it cannot.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(read(t, path), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// read returns the file path's bytes, gunzipped when it ends in .gz,
// failing t when it cannot.
func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestUnsupportedDatesAndOthers: the rest of what the playground does not
// implement is an error naming it.
func TestUnsupportedDatesAndOthers(t *testing.T) {
	vm, _ := newVM(t)
	for _, c := range []struct{ src, want string }{
		{`new Intl.DateTimeFormat("fr-FR")`, `RangeError: Intl.DateTimeFormat: the locale "fr-FR" is not supported in the playground; supported: de-DE, en-GB, en-US`},
		{`new Intl.DateTimeFormat("en-AU")`, `the locale "en-AU" is not supported`},
		{`new Intl.DateTimeFormat("en", {era: "short"})`, `RangeError: Intl.DateTimeFormat: the option era is not supported in the playground`},
		{`new Intl.DateTimeFormat("en", {dayPeriod: "short"})`, `the option dayPeriod is not supported`},
		{`new Intl.DateTimeFormat("en", {fractionalSecondDigits: 2})`, `fractionalSecondDigits is not supported`},
		{`new Intl.DateTimeFormat("en", {timeZoneName: "longGeneric"})`, `timeZoneName "longGeneric" is not supported in the playground (only "short")`},
		{`new Intl.DateTimeFormat("en", {calendar: "japanese"})`, `calendar "japanese" is not supported`},
		{`new Intl.DateTimeFormat("en", {timeStyle: "full", timeZone: "Asia/Tokyo"})`, `long time zone names for "Asia/Tokyo" in "en" are not supported`},
		{`new Intl.DateTimeFormat("de", {timeZoneName: "short", timeZone: "Europe/Berlin"})`, `short time zone names for "Europe/Berlin" in "de" are not supported`},
		{`new Intl.DateTimeFormat("en").format(Date.parse("0000-06-01T00:00:00Z"))`, `dates before year 1`},
		{`new Date(0).toLocaleDateString("ja-JP")`, `Date.prototype.toLocaleDateString: the locale "ja-JP" is not supported`},
		{`new Date(0).toLocaleString("en", {timeZone: "Nowhere/City"})`, `RangeError: Invalid time zone specified: Nowhere/City`},
		{`new Date(0).toLocaleString("en", {timeZone: "localtime"})`, `RangeError: Invalid time zone specified: localtime`},                   // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "Local"})`, `RangeError: Invalid time zone specified: Local`},                           // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "posixrules"})`, `RangeError: Invalid time zone specified: posixrules`},                 // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "Factory"})`, `RangeError: Invalid time zone specified: Factory`},                       // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "posix/Europe/Paris"})`, `RangeError: Invalid time zone specified: posix/Europe/Paris`}, // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "right/UTC"})`, `RangeError: Invalid time zone specified: right/UTC`},                   // a zoneinfo file, not a zone (as Node 20)
		{`new Date(0).toLocaleString("en", {timeZone: "POSIX/UTC"})`, `RangeError: Invalid time zone specified: POSIX/UTC`},                   // a zoneinfo file, not a zone (as Node 20)
		{`new Intl.Collator("en", {caseFirst: "upper"})`, `caseFirst "upper" is not supported`},
		{`new Intl.Collator("en", {usage: "search"})`, `usage "search" is not supported`},
		{`new Intl.Collator("en", {collation: "phonebk"})`, `collation "phonebk" is not supported`},
		{`new Intl.Collator("tlh")`, `the locale "tlh" is not supported`},
		{`new Intl.PluralRules("ar")`, `Intl.PluralRules: the locale "ar" is not supported`},
		{`new Intl.ListFormat("es")`, `Intl.ListFormat: the locale "es" is not supported`},
		{`new Intl.RelativeTimeFormat("fr")`, `Intl.RelativeTimeFormat: the locale "fr" is not supported`},
		{`Intl.supportedValuesOf("timeZone")`, `Intl.supportedValuesOf("timeZone") is not supported`},
		{`(1).toLocaleString("th-TH-u-nu-thai")`, `Number.prototype.toLocaleString: the locale "th-TH-u-nu-thai" has a Unicode extension`},
		{`"a".localeCompare("b", "en", {caseFirst: "lower"})`, `String.prototype.localeCompare: caseFirst "lower" is not supported`},
		{`new Intl.NumberFormat(Array.from({length: 1001}, () => "en"))`, `a list of 1001 locales is more than the playground reads`},
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

// TestSupportedLocalesAgreeWithData: what supportedLocalesOf reports is
// what formats (a supported locale never throws), for every constructor
// and every supported locale.
func TestSupportedLocalesAgreeWithData(t *testing.T) {
	vm, _ := newVM(t)
	v, err := vm.RunString(`
		const out = [];
		for (const [C, sample] of [
			[Intl.NumberFormat, (f) => f.format(-1234.5) + f.formatToParts(1).length],
			[Intl.DateTimeFormat, (f) => f.format(0)],
			[Intl.PluralRules, (f) => f.select(1)],
			[Intl.ListFormat, (f) => f.format(["a", "b", "c"])],
			[Intl.RelativeTimeFormat, (f) => f.format(-1, "day")],
			[Intl.Collator, (f) => String(f.compare("a", "b"))],
		]) {
			const all = ["en", "en-US", "en-GB", "en-IN", "de", "de-DE", "de-AT", "de-CH", "fr", "fr-FR", "es", "es-ES", "es-MX",
				"it", "it-IT", "nl", "nl-NL", "pt", "pt-BR", "pt-PT", "ja", "ja-JP", "zh", "zh-CN", "ko", "ko-KR", "ru", "ru-RU",
				"pl", "pl-PL", "sv", "sv-SE", "hi", "hi-IN", "ar", "tr"];
			const ok = C.supportedLocalesOf(all);
			for (const l of all) {
				let s;
				try { s = sample(new C(l)); } catch (e) { s = null; }
				if ((s !== null) !== ok.includes(l)) out.push(C.name + " " + l + " supported=" + ok.includes(l) + " formats=" + (s !== null));
				if (s === "") out.push(C.name + " " + l + " formats as empty");
			}
			if (ok.length < 5) out.push(C.name + " supports only " + ok);
		}
		out.join("\n")`)
	if err != nil {
		t.Fatal(err)
	}
	if s := v.String(); s != "" {
		t.Error(s)
	}
}

// TestThrower: errors go through the Thrower the worker passes (which
// records them for its reports), with their class and message.
func TestThrower(t *testing.T) {
	vm := goja.New()
	var got []string
	l := NewLocale(vm, func(class, msg string) {
		got = append(got, class+": "+msg)
		panic(vm.NewTypeError(msg))
	})
	_ = vm.Set("Intl", l.Namespace())
	if _, err := vm.RunString(`new Intl.NumberFormat("en", {style: "bogus"})`); err == nil {
		t.Fatal("no error")
	}
	want := "RangeError: Value bogus out of range for Intl.NumberFormat options property style"
	if len(got) != 1 || got[0] != want {
		t.Errorf("thrower got %q; want [%q]", got, want)
	}
}

// TestNamespaceIsLazyAndPerRuntime: NewLocale builds nothing; Namespace
// builds once; two runtimes share no objects.
func TestNamespaceIsLazyAndPerRuntime(t *testing.T) {
	vm1, vm2 := goja.New(), goja.New()
	l1, l2 := NewLocale(vm1, nil), NewLocale(vm2, nil)
	if l1.ns != nil {
		t.Fatal("NewLocale built the namespace")
	}
	a, b := l1.Namespace(), l1.Namespace()
	if a != b {
		t.Error("Namespace built twice")
	}
	_ = vm1.Set("Intl", a)
	_ = vm2.Set("Intl", l2.Namespace())
	if _, err := vm1.RunString(`Intl.NumberFormat.prototype.extra = 1`); err != nil {
		t.Fatal(err)
	}
	v, err := vm2.RunString(`typeof Intl.NumberFormat.prototype.extra`)
	if err != nil || v.String() != "undefined" {
		t.Errorf("runtimes share Intl objects: %v %v", v, err)
	}
}

// TestConcurrentRuntimes runs formatters in parallel runtimes (the data
// is loaded once and shared; run with -race).
func TestConcurrentRuntimes(t *testing.T) {
	done := make(chan string)
	for i := 0; i < 4; i++ {
		go func() {
			vm := goja.New()
			_ = vm.Set("Intl", New(vm, nil))
			v, err := vm.RunString(`[new Intl.NumberFormat("de").format(1234.5), new Intl.DateTimeFormat("en-GB", {dateStyle: "long"}).format(0),
				new Intl.Collator("sv").compare("ä", "z"), new Intl.RelativeTimeFormat("en").format(2, "day")].join("|")`)
			if err != nil {
				done <- err.Error()
				return
			}
			done <- v.String()
		}()
	}
	for i := 0; i < 4; i++ {
		if s := <-done; s != "1.234,5|1 January 1970|1|in 2 days" {
			t.Errorf("got %q", s)
		}
	}
}
