package js_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// What the runtime does not provide is a clear error that names it, at the
// snippet's line, never a silently wrong value.
func TestUnsupportedIsAClearError(t *testing.T) {
	h := newHarness(t, Config{})
	tests := []struct {
		name, code string
		line       int
		contains   []string
	}{
		{"v flag literal", "const x = 1;\n\nconst re = /[a-z]/v;", 3, []string{"SyntaxError", "v (unicode sets"}},
		{"v flag", "const re = new RegExp('[a]', 'v');", 1, []string{"SyntaxError", "v (unicode sets)"}},
		{"unknown property", "\nnew RegExp('\\\\p{Emoji}', 'u');", 2, []string{"SyntaxError", `\p{Emoji}`}},
		// At line 1, column 1: go-sourcemap before v2.1.4 dropped mappings to a file's first character.
		{"Intl unit", "new Intl.NumberFormat('en-US', { style: 'unit', unit: 'meter-per-second' });", 1, []string{"RangeError", `"meter-per-second"`}},
		{"Intl option", "\nconst f = Intl.DateTimeFormat('en-US', { era: 'long' });", 2, []string{"era"}},
		{"unsupported locale", "(1).toLocaleString('th-TH');", 1, []string{"RangeError", `"th-TH"`, "en-US"}},
		{"unsupported option", "(1).toLocaleString('de-DE', { style: 'currency', currency: 'EUR', currencySign: 'accounting' });", 1, []string{"RangeError", "currencySign", "accounting"}},
		{"date locale", "new Date(0).toLocaleDateString('ja-JP');", 1, []string{"RangeError", `"ja-JP"`}},
		{"date time zone", "new Date(0).toLocaleString('en-US', { timeZone: 'Mars/Olympus' });", 1, []string{"RangeError", "Mars/Olympus"}},
		{"TextDecoder encoding", "const d = new TextDecoder('latin1');", 1, []string{"RangeError", "latin1", "utf-8"}},
		{"structuredClone transfer", "const b = new ArrayBuffer(1); structuredClone(b, { transfer: [b] });", 1, []string{"TypeError", "transfer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files("main.js", tt.code), Mode: "module"})
			errs := rec.Errors()
			if res.Outcome != OutcomeError || len(errs) != 1 {
				t.Fatalf("%s %+v logs %q", res.Outcome, errs, rec.Logs())
			}
			e := errs[0]
			if e.File != "main.js" || e.Line != tt.line {
				t.Errorf("error at %s:%d; want main.js:%d (%+v)", e.File, e.Line, tt.line, e)
			}
			for _, c := range tt.contains {
				if !strings.Contains(e.Message, c) {
					t.Errorf("message %q lacks %q", e.Message, c)
				}
			}
		})
	}
}

// The lazily installed APIs behave as built-ins: present, non-enumerable,
// replaceable, and immune to a snippet that replaced the intrinsics first.
func TestPolyfillsAreBuiltinLike(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Mode: "module", Files: files("main.js", `
const names = ["structuredClone", "URL", "TextEncoder", "AbortController", "EventTarget", "WeakRef", "atob"];
console.log(names.map((n) => typeof globalThis[n]).join(","));
console.log(Object.keys(globalThis).filter((k) => names.includes(k)).length);
globalThis.atob = () => "mine";
console.log(atob("eA=="));
const RealMap = Map, RealSet = Set;
globalThis.Map = null; globalThis.Set = null;
const c = structuredClone({ s: new RealSet([1, 2]), m: new RealMap([[1, 2]]) });
console.log(c.s.size, c.m.get(1));
console.log(Symbol.asyncIterator === Symbol.asyncIterator, Object.getOwnPropertyDescriptor(Symbol, "asyncIterator").writable);
`)})
	want := "function,function,function,function,function,function,function|0|mine|2 2|true false"
	if got := strings.Join(rec.Logs(), "|"); res.Outcome != OutcomeOK || got != want {
		t.Errorf("%s %q %+v; want %q", res.Outcome, got, rec.Errors(), want)
	}
}

// A function passed to a host function is refused with a TypeError, not
// sent as a preview.
func TestHostCallRefusesFunctions(t *testing.T) {
	h := newHarness(t, Config{Host: map[string]HostFunc{"log": func(args []json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`true`), nil }}})
	for _, code := range []string{
		`import { host } from "playground"; await host.log(() => 1);`,
		`import { host } from "playground"; await host.log({ cb() {} });`,
		`import { host } from "playground"; await host.log([1, [function f() {}]]);`,
	} {
		res, rec := run(t, h, Request{Mode: "module", Files: files("main.js", code)})
		errs := rec.Errors()
		if res.Outcome != OutcomeError || len(errs) != 1 || !strings.Contains(errs[0].Message, "TypeError: host.log: argument 1 is or holds a function") || errs[0].Line != 1 {
			t.Errorf("%s: %s %+v", code, res.Outcome, errs)
		}
	}
	res, rec := run(t, h, Request{Mode: "module", Files: files("main.js", `import { host } from "playground"; console.log(await host.log({ a: [1, "x"] }));`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "") != "true" {
		t.Errorf("data call: %s %q %+v", res.Outcome, rec.Logs(), rec.Errors())
	}
}
