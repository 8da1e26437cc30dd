package js

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// Pay-per-use set-up (usage.go): a program gets the additions it names,
// and one that may reach a name it does not spell gets everything.

func compiled(t *testing.T, src string) need {
	t.Helper()
	prg, err := Compile(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return usageOf(prg)
}

func TestUsageSummary(t *testing.T) {
	for _, c := range []struct {
		src        string
		want, none need // want ⊆ needs; none ∩ needs = ∅
	}{
		{`console.log("hello")`, consoleMethod("log"), needAll &^ consoleMethod("log")},
		{`const o = {a: 1}; console.log(o.a, o["b"], [1][0], o?.a)`, consoleMethod("log") | needArrayToString, needAll &^ consoleMethod("log") &^ needArrayToString},
		// What makes an array longer than it could fill: the toString guard
		// (parity/tostring_guard.go).
		{`const a = []; a.length = 5`, needArrayToString, needLoopGuards | needPolyfills},
		{`Array(5)`, needArrayToString, needLoopGuards | needPolyfills},
		{`const o = {length: 5}`, needArrayToString, needPolyfills},
		{`const a = []; a[7] = 1`, needArrayToString, needPolyfills},
		{`const a = [1, 2]; console.log(a + "")`, 0, needArrayToString},
		{`console.table([]); console.error(1)`, consoleMethod("table") | consoleMethod("error"), needAll &^ consoleMethod("table") &^ consoleMethod("error")},
		// console as a value: every method.
		{`const c = console; c.log(1)`, needConsole, needAdditions},
		{`Object.keys(console)`, needConsole, needAdditions},
		{`"log" in console`, needConsole, needAdditions},
		{`"x".padStart(3)`, needStringGuards, needSortGuard | needLocale | needPolyfills},
		{`const {padEnd} = String.prototype`, needStringGuards, needPolyfills},
		{`const o = {repeat: 1}`, needStringGuards, needPolyfills},
		{`o = {"sort"() {}}`, needSortGuard, needPolyfills},
		{`"x"["repeat"](2)`, needStringGuards, needPolyfills},
		{`[3, 1].sort()`, needSortGuard, needStringGuards | needPolyfills},
		{`[3, 1].toSorted()`, 0, needSortGuard},
		{`BigInt.asUintN(8, 1n)`, needBigIntGuards, needPolyfills},
		{`Math.max.apply(null, [1])`, needApplyGuards, needPolyfills},
		{`new RegExp("a")`, needRegExp | needNativeToString, needPolyfills},
		{`(1).toLocaleString()`, needLocale, needPolyfills},
		{`"a".localeCompare("b")`, needLocale, needPolyfills},
		{`setTimeout(() => {}, 1)`, needSetTimeout, needSetInterval | needCrypto | needAdditions},
		{`queueMicrotask(() => {})`, needQueueMicrotask | needNativeToString, needPolyfills},
		{`crypto.randomUUID()`, needCrypto, needAdditions},
		{`performance.now()`, needPerformance, needAdditions},
		// A polyfill may load: its own names count (and it reads setTimeout
		// and performance).
		{`structuredClone({})`, needGlobalHolder | needSetTimeout | needPerformance | needNativeToString | polyfillNeeds(), 0},
		{`"a".isWellFormed()`, needStringHolder | polyfillNeeds(), 0},
		{`Map.groupBy([], x => x)`, needGroupBy | polyfillNeeds(), 0},
		{`Symbol.asyncIterator`, needAsyncIterator | polyfillNeeds(), 0},
		// Escapes are cooked: the name is the same.
		{`"\u0070adStart"`, needStringGuards, 0},
		{`var p\u0061dStart = 1`, needStringGuards, 0},
		{"`padStart`", needStringGuards, 0},
		// A class constructor reaches nothing by that name.
		{`class A { constructor() { this.x = 1 } }`, 0, needAll},
		{`class A { static constructor() {} }`, needAll, 0},
		// Dynamic: everything.
		{`const k = "a"; ({})[k]`, needAll, 0},
		{"({})[`a`]", needAll, 0},
		{`const k = "a"; ({[k]: 1})`, needAll, 0},
		{`const k = "a"; const {[k]: v} = {}`, needAll, 0},
		{`const k = "a"; class A { [k]() {} }`, needAll, 0},
		{`const k = "a"; class A { [k] = 1 }`, needAll, 0},
		{`const k = "a"; k in {}`, needAll, 0},
		{`"a" in {}`, 0, needAll},
		{`(0, eval)("1")`, needAll, 0},
		{`(() => 0).constructor`, needAll, 0},
		{`Object.getOwnPropertyDescriptors(String.prototype)`, needAll, 0},
		{`Object.getOwnPropertyNames(String.prototype)`, needAll, 0},
		{`Object.hasOwn(Symbol, "x")`, needAll, 0},
		{`globalThis.x = 1`, needAll, 0},
		{`({}).__proto__`, needAll, 0},
		{`new Proxy({}, {})`, needAll, 0},
		{`Object.getPrototypeOf([].values())`, needAll, 0},
		{`({}).__lookupGetter__("a")`, needAll, 0},
		{`require("lodash")`, needAll, 0},
		{`rt.lib("lodash")`, needAll, 0},
		// esbuild's __export helper (an entry with exports) is not dynamic;
		// anything else that looks like it is.
		{"var __defProp = Object.defineProperty;\nvar __export = (target, all) => {\n  for (var name in all)\n    __defProp(target, name, { get: all[name], enumerable: true });\n};\n__export({}, {a: () => 1})", 0, needAll},
		{"var __export2 = (target, all) => {\n  for (var name in all)\n    __defProp3(target, name, { get: all[name], enumerable: true });\n};", 0, needAll},
		{"var __export = (target, all) => {\n  for (var name in all)\n    __defProp(target, name, { get: all[name + \"\"], enumerable: true });\n};", needAll, 0},
		{"var __export = (target, all) => {\n  for (var name in all)\n    __defProp(target, name, { get: all[name], enumerable: true }), all[name]();\n};", needAll, 0},
		{"var __expor = (target, all) => {\n  for (var name in all)\n    __defProp(target, name, { get: all[name], enumerable: true });\n};", needAll, 0},
		{"var __export = function (target, all) {\n  for (var name in all)\n    __defProp(target, name, { get: all[name], enumerable: true });\n};", needAll, 0},
	} {
		got := compiled(t, c.src)
		if got&c.want != c.want || got&c.none != 0 {
			t.Errorf("%s: needs %b; want all of %b and none of %b", c.src, got, c.want, c.none)
		}
	}
}

// TestUsageOfRealBundles: the bundler's own output (its banner, the
// playground module, TypeScript's lowering) keeps a plain run plain, and a
// library import gets everything.
func TestUsageOfRealBundles(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files []pipe.File
		want  need
	}{
		{"two-file TypeScript hello", []pipe.File{
			{Path: "main.ts", Source: "import { greet } from \"./greet\";\nconst who: string = \"world\";\nconsole.log(greet(who));\n"},
			{Path: "greet.ts", Source: "export function greet(name: string): string { return \"hello \" + name; }\n"},
		}, 0},
		{"playground facts and input", []pipe.File{
			{Path: "main.ts", Source: "import { facts, input } from \"playground\";\nfacts.count = 1;\nconsole.log(input);\nexport default 42;\n"},
		}, 0},
		{"async and a class", []pipe.File{
			{Path: "main.ts", Source: "class Box<T> { constructor(public v: T) {} get(): T { return this.v } }\nawait Promise.resolve();\nconsole.log(new Box(1).get());\n"},
		}, 0},
		{"a loop over an array", []pipe.File{
			{Path: "main.js", Source: "const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s)\n"},
		}, needArrayToString},
		{"lodash", []pipe.File{{Path: "main.js", Source: "import _ from \"lodash\";\nconsole.log(_.sum([1, 2]));\n"}}, needAll},
	} {
		b := bundle.BundleMode(c.files, c.files[0].Path, "", set)
		if len(b.Errors) > 0 {
			t.Fatalf("%s: %+v", c.name, b.Errors)
		}
		got := compiled(t, b.Code)
		if c.want == needAll && got != needAll || c.want != needAll && got&needAdditions != c.want {
			t.Errorf("%s: needs %b, want %b\n%s", c.name, got, c.want, b.Code)
		}
	}
}

// reverse spells a name backwards: a program that builds the name from
// it never spells it.
func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// TestUsageDynamicRoutesReachAdditions reaches each guard, lazy name and
// global through every route that does not spell its name, and checks
// that it is there and behaves as in Node (the guards' errors are Node
// 20's).
func TestUsageDynamicRoutesReachAdditions(t *testing.T) {
	targets := []struct {
		name   string
		holder string // an expression that spells no dynamic name
		own    string // the object that owns it ("" when not own: a lazy name answered by a holder)
		check  string // a function of the value, returning what is logged
		want   string
	}{
		{"padStart", `String.prototype`, `String.prototype`, `f => { try { f.call("ab", 2 ** 62); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Invalid string length"},
		{"padEnd", `String.prototype`, `String.prototype`, `f => { try { f.call("ab", 2 ** 40, "xy"); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Invalid string length"},
		{"repeat", `String.prototype`, `String.prototype`, `f => { try { f.call("ab", 2 ** 62); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Invalid string length"},
		{"sort", `Array.prototype`, `Array.prototype`, `f => { const a = [5, 3, 1, 4, 2]; f.call(a, (x, y) => { a.length = 0; return x - y }); return a.join() + " " + a.length }`, "1,2,3,4,5 5"},
		{"asUintN", `BigInt`, `BigInt`, `f => { try { f.call(BigInt, 2 ** 31, -1n); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Maximum BigInt size exceeded"},
		{"asIntN", `BigInt`, `BigInt`, `f => { try { f.call(BigInt, 2 ** 53, 1n); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Invalid value: not (convertible to) a safe integer"},
		{"apply", `Math.max`, `Object.getPrototypeOf(Math.max)`, `f => { try { f.call(Math.max, null, {length: 2 ** 32}); return "no error" } catch (e) { return e.name + ": " + e.message } }`, "RangeError: Invalid array length"},
		{"toLocaleString", `Date.prototype`, `Date.prototype`, `f => f.call(new Date(0), "en-US", {timeZone: "UTC"})`, "1/1/1970, 12:00:00 AM"},
		{"localeCompare", `String.prototype`, `String.prototype`, `f => f.call("a", "A", "en", {sensitivity: "base"})`, "0"},
		{"toLocaleUpperCase", `String.prototype`, `String.prototype`, `f => f.call("i", "tr")`, "İ"}, // goja's own: "I"
		{"RegExp", `globalThis`, `globalThis`, `f => new f("\\p{Lu}", "u").test("É") + " " + String(f)`, "true function RegExp() { [native code] }"},
		{"structuredClone", `globalThis`, ``, `f => f({a: [1]}).a[0] + " " + String(f)`, "1 function structuredClone() { [native code] }"},
		{"URL", `globalThis`, ``, `f => new f("https://example.com:8080/a/../b").href`, "https://example.com:8080/b"},
		{"AbortController", `globalThis`, ``, `f => typeof new f().signal`, "object"},
		{"isWellFormed", `String.prototype`, ``, `f => f.call("a\uD800")`, "false"},
		{"map", `[].values()`, ``, `f => [...f.call([1, 2].values(), x => x * 2)].join()`, "2,4"},
		{"groupBy", `Map`, `Map`, `f => f.call(Map, [1, 2, 3], x => x % 2).get(1).join()`, "1,3"},
		{"withResolvers", `Promise`, `Promise`, `f => typeof f.call(Promise).resolve`, "function"},
		{"fromAsync", `Array`, `Array`, `f => typeof f + " " + f.length`, "function 1"},
		{"asyncIterator", `Symbol`, `Symbol`, `f => typeof f + " " + String(f)`, "symbol Symbol(Symbol.asyncIterator)"},
		{"setTimeout", `globalThis`, `globalThis`, `f => typeof f + " " + f.length + " " + f.name`, "function 5 setTimeout"},
		{"clearInterval", `globalThis`, `globalThis`, `f => typeof f + " " + f.length`, "function 1"},
		{"queueMicrotask", `globalThis`, `globalThis`, `f => String(f)`, "function queueMicrotask() { [native code] }"},
		{"performance", `globalThis`, `globalThis`, `f => typeof f.now`, "function"},
		{"crypto", `globalThis`, `globalThis`, `f => f.getRandomValues.length`, "1"},
	}
	routes := []struct {
		name    string
		get     string // (h, k) => h[k], spelling neither the name nor h[k] when it can
		ownOnly bool
	}{
		{"computed member", `(h, k) => h[k]`, false},
		{"computed optional member", `(h, k) => h?.[k]`, false},
		{"computed destructuring", `(h, k) => { const {[k]: v} = h; return v }`, false},
		// Smuggling the name through the numeric-key rules (numeric.go).
		{"numeric name reassigned", `(h, k) => { let i = 0; i = k; return h[i] }`, false},
		{"numeric name ||=", `(h, k) => { let i = 0; i ||= k; return h[i] }`, false},
		{"numeric conditional", `(h, k) => { let i = 0; return h[i ? 1 : k] }`, false},
		{"numeric name in for-of", `(h, k) => { let i = 0; for (i of [k]); return h[i] }`, false},
		{"numeric name destructured", `(h, k) => { let i = 0; ({i} = {i: k}); return h[i] }`, false},
		{"numeric name array-destructured", `(h, k) => { let i = 0; [i] = [k]; return h[i] }`, false},
		{"numeric name as a parameter", `(h, k) => { let i = 1; const f = (i) => h[i]; return f(k) }`, false},
		{"numeric name as a catch parameter", `(h, k) => { let i = 1; try { throw k } catch (i) { return h[i] } }`, false},
		{"numeric name through another", `(h, k) => { let i = 1; let j = i; j = k; return h[j] }`, false},
		{"string plus a non-numeric", `(h, k) => { let i = 1; return h["" + k] }`, false},
		{"Reflect.get", `(h, k) => Reflect.get(h, k)`, false},
		{"Function", `Function("h", "k", "return h[k]")`, false},
		{"eval", `(0, eval)("(h, k) => h[k]")`, false},
		{"constructor", `(() => 0).constructor("h", "k", "return h[k]")`, false},
		{"generator function constructor", `(h, k) => (function* () {}).constructor("h", "k", "yield h[k]")(h, k).next().value`, false},
		{"Proxy", `(h, k) => new Proxy({}, {get: (_, p) => h === null ? 0 : Reflect.get(h, k)}).x`, false},
		{"getOwnPropertyDescriptor", `(h, k) => Object.getOwnPropertyDescriptor(h, k).value`, true},
		{"getOwnPropertyDescriptors", `(h, k) => Object.values(Object.getOwnPropertyDescriptors(h)).map(d => d.value).find(v => (typeof v === "function" && v.name === k) || (typeof v === "symbol" && String(v) === "Symbol(Symbol." + k + ")"))`, true},
		{"getOwnPropertyNames", `(h, k) => { for (const n of Object.getOwnPropertyNames(h)) if (n === k) return Object.getOwnPropertyDescriptor(h, n).value }`, true},
	}
	var b strings.Builder
	want := []string{}
	for ri, r := range routes {
		for _, tg := range targets {
			h := tg.holder
			if r.ownOnly {
				if tg.own == "" {
					continue
				}
				h = tg.own
			}
			b.Reset()
			b.WriteString(`const k = "` + reverse(tg.name) + `".split("").reverse().join("");` + "\n")
			b.WriteString(`const get = ` + r.get + ";\n")
			if r.name == "getOwnPropertyDescriptors" && (tg.name == "performance" || tg.name == "crypto") {
				continue // objects: no name to find them by among the values
			}
			b.WriteString(`console.log((` + tg.check + `)(get(` + h + `, k)));` + "\n")
			src := b.String()
			if ri == 0 {
				want = append(want, tg.name)
			}
			prg, err := Compile("(async function (rt) {\n" + src + "\n})")
			if err != nil {
				t.Fatalf("%s via %s: %v", tg.name, r.name, err)
			}
			if usageOf(prg) != needAll {
				t.Errorf("%s via %s: the program is not dynamic (needs %b)", tg.name, r.name, usageOf(prg))
			}
			got := logTextsOf(t, prg)
			if len(got) != 1 || got[0] != tg.want {
				t.Errorf("%s via %s: logged %q, want %q", tg.name, r.name, got, tg.want)
			}
		}
	}
	if len(want) != len(targets) {
		t.Fatalf("ran %d targets of %d", len(want), len(targets))
	}
}

// TestUsageExistenceRoutes: whether a name exists, asked without spelling
// it, has Node's answer.
func TestUsageExistenceRoutes(t *testing.T) {
	for _, c := range []struct{ holder, name string }{
		{"globalThis", "structuredClone"}, {"globalThis", "setTimeout"}, {"globalThis", "crypto"},
		{"String.prototype", "isWellFormed"}, {"Symbol", "asyncIterator"}, {"Map", "groupBy"}, {"[].values()", "take"},
	} {
		k := `"` + reverse(c.name) + `".split("").reverse().join("")`
		checkLogs(t, `const k = `+k+`; console.log(k in `+c.holder+`, typeof `+c.holder+`[k] !== "undefined")`, "true true")
	}
	// Own properties (Node: all own).
	checkLogs(t, `const k = (s) => s.split("").reverse().join("");
console.log(Object.hasOwn(globalThis, k("tuoemiTtes")), Object.hasOwn(Map, k("yBpuorg")), Object.hasOwn(Symbol, k("rotaretIcnysa")), String.prototype.hasOwnProperty(k("tratSdap")))`,
		"true true true true")
}

// logTextsOf runs prg and returns its log lines; the run must end ok.
func logTextsOf(t *testing.T, prg *goja.Program) []string {
	t.Helper()
	j := Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	var texts []string
	res := New(j).Execute(context.Background(), j, func(ev pipe.Event) {
		switch ev.Kind {
		case pipe.EventLog:
			texts = append(texts, ev.Text)
		case pipe.EventError:
			t.Errorf("error event: %+v", ev.Error)
		}
	})
	if res.Outcome != pipe.OutcomeOK {
		t.Errorf("outcome %s; logs %q", res.Outcome, texts)
	}
	return texts
}

// TestUsageNamedGetsItsAddition: a program that spells a name (and
// nothing dynamic) gets that addition: the guard's or Node's answer.
func TestUsageNamedGetsItsAddition(t *testing.T) {
	checkLogs(t, `try { "ab".padStart(2 ** 62) } catch (e) { console.log(e.message) }`, "Invalid string length")
	checkLogs(t, `console.log(typeof structuredClone, typeof URL, "x".padStart === String.prototype.padStart)`, "function function true")
	checkLogs(t, `console.log(String(queueMicrotask), setTimeout.length, String(RegExp))`,
		"function queueMicrotask() { [native code] } 5 function RegExp() { [native code] }")
	checkLogs(t, `console.log(typeof Symbol.asyncIterator, typeof Map.groupBy, typeof Promise.withResolvers)`, "symbol function function")
	// A polyfill that loads reads setTimeout and performance, which the
	// program did not name.
	checkLogs(t, `const s = AbortSignal.timeout(5); await new Promise((r) => s.addEventListener("abort", r)); console.log(s.aborted)`, "true")
}

// TestUsageInstallOrder: a runtime prepared without its program (as the
// worker prepares the next one) and one made for its program list the
// same globals in the same order.
func TestUsageInstallOrder(t *testing.T) {
	prg, err := Compile(`(async function (rt) { console.log(Object.getOwnPropertyNames(globalThis).join()) })`)
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Program: prg, Timeout: 5 * time.Second, Limits: pipe.DefaultLimits()}
	var lines []string
	for _, prepared := range []bool{false, true} {
		pj := j
		if prepared {
			pj.Program = nil
		}
		e := New(pj)
		var line string
		e.Execute(context.Background(), j, func(ev pipe.Event) {
			if ev.Kind == pipe.EventLog {
				line = ev.Text
			}
		})
		lines = append(lines, line)
	}
	if lines[0] != lines[1] || !strings.Contains(lines[0], "console,setTimeout,setInterval,clearTimeout,clearInterval,queueMicrotask,performance,crypto") {
		t.Errorf("globals differ or are out of order:\n%s\n%s", lines[0], lines[1])
	}
}

// TestUsagePreloadInstallsEverything: library code may reach anything.
func TestUsagePreloadInstallsEverything(t *testing.T) {
	e := New(Job{Limits: pipe.DefaultLimits()})
	e.Preload(nil)
	if e.installed != 0 {
		t.Errorf("Preload without libraries installed %b", e.installed)
	}
	e.Preload([]bundle.LibraryUse{{Name: "nonexistent"}})
	if e.installed != needAll {
		t.Errorf("Preload with a library installed %b, want everything", e.installed)
	}
}

// TestUsageConsoleMethods: a program that lists console sees every
// method, in the same order as a program that may reach anything.
func TestUsageConsoleMethods(t *testing.T) {
	const all = "log,info,warn,error,debug,trace,dir,assert,count,countReset,time,timeLog,timeEnd,group,groupCollapsed,groupEnd,table"
	checkLogs(t, `console.log(Object.keys(console).join())`, all)
	checkLogs(t, `const k = "log"; console[k](Object.keys(console).join())`, all)
	checkLogs(t, `console.log(typeof console.table, console.log.name, String(console.log))`, "function log function log() { [native code] }")
}

// TestUsageFactsGlobal: the facts object under its registered symbol, for
// a program that may reach it.
func TestUsageFactsGlobal(t *testing.T) {
	checkLogs(t, `const s = Symbol.for("playground.facts"); console.log(globalThis[s] === rt.facts)`, "true")
}

// TestUsageRuntimeObjectHidesLib: lib (library code) is not among the
// runtime object's enumerable values, so no listing finds it.
func TestUsageRuntimeObjectHidesLib(t *testing.T) {
	checkLogs(t, `console.log(Object.keys(rt).join(), Object.values(rt).length, typeof rt.lib)`, "facts,input,done 3 function")
}

// TestUsageNumericKeys: a computed key whose value is provably numbery
// (numeric.go) keeps a program plain; every near miss is dynamic.
func TestUsageNumericKeys(t *testing.T) {
	for _, c := range []struct {
		src     string
		dynamic bool
	}{
		{`const a = [1, 2, 3]; let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; console.log(s)`, false},
		{`const a = [1]; let i = 0; while (i < 1) { a[i] = 2; i += 1 } console.log(a)`, false},
		{`const a = []; a[1 + 2]; a[-1]; a[+"x"]; a[~0]; a[2 ** 3]; a[7 % 2]; a[1 << 2]; a[1n]; a[4 >>> 1]; a[5 & 3]`, false},
		{`const a = []; let j = 0; j--; --j; a[j++]; a[--j]`, false},
		{`const a = {}; a["" + 1]; a[1 + ""]; a["k" + 0]; a[0 + "k"]; a[NaNish() + 1]`, false},
		{`const a = []; let n = 2, m = n * 2, p = m; a[p]; a[n ? 1 : 2]; a[(0, 1)]`, false},
		{`const a = []; let i = 0; let j = i; j = i + 1; a[j]`, false},
		{`const a = []; let x = 1; x ||= 2; a[x]`, false},
		{`const a = []; for (let i = 0; i < 3; i++) { const k = "x" + i; console.log(a[k]) }`, false},
		{`const a = []; a[(i = 1)]; var i`, false},          // the assignment's value: 1
		{`const a = []; a[i]; var i`, true},                 // var i without initializer
		{`const a = []; var i = j; var j = 1; a[i]`, false}, // undefined before the assignment: "undefined" names nothing
		{`const a = []; let i = 1; a[i in a ? 1 : 0]`, false},
		{`class A { [1 + 1]() {} static [2] = 1 }; ({[3 * 2]: 1})`, false},
		// Near misses: dynamic.
		{`const s = "x"; let i = 0; s[i]; function f(i) {}`, true},
		{`const s = "x"; let i = 0; s[i]; const g = (i) => i`, true},
		{`const s = "x"; let i = 0; s[i]; try {} catch (i) {}`, true},
		{`const s = "x"; let i = 0; s[i]; const {i: j} = {}; ({i} = {})`, true},
		{`const s = "x"; let i = 0; s[i]; const {j: i2} = {}; [i] = ["repeat"]`, true},
		{`const s = "x"; let x = "pe"; s["re" + x]`, true},
		{`const s = "x"; let x = "re"; s[x + "peat"]`, true},
		{`const s = "x"; let k = "repeat"; s[cond ? 1 : k]`, true},
		{"const s = \"x\"; s[`re${1}`]", true},
		{"const s = \"x\"; let i = 1; s[`repeat`+i]", false},
		{`const s = "x"; let i = 0; s[i]; i = "repeat"`, true},
		{`const s = "x"; let i = 0; s[i]; { let i = "repeat" }`, true},
		{`const s = "x"; let i = 0; s[i]; function g() { i = f() }`, true},
		{`const s = "x"; let i = 0; s[i]; i ||= "repeat"`, true},
		{`const s = "x"; let i = 0; s[i]; i &&= "repeat"`, true},
		{`const s = "x"; let i = 0; s[i]; i = i ? "repeat" : 1`, true},
		{`const o = {}; for (const i in o) s[i]`, true},
		{`const o = []; let i = 0; for (i of o) s[i]`, true},
		{`const o = []; var i = 0; for (var i of o) s[i]`, true},
		{`var i = 0; s[i]; function i() {}`, true},
		{`let i = 0; s[i]; { function i() {} }`, true},
		{`let i = 0; s[i]; { class i {} }`, true},
		{`let i = 0; s[i]; const C = class i {}`, true},
		{`let i; s[i]`, true},
		{`s[i]`, true}, // never bound: a global
		{`var i = 0; s[i]; this.i = "repeat"`, true},
		{`var i = 0; s[i]; this["i"] = "repeat"`, true},
		{`var i = 0; s[i]; Object.defineProperty(this, "i", {value: "repeat"})`, true},
		{`let i = 0; let j = i; s[j]; i = "repeat"`, true},
		{`i = 0; s[i]; Object.assign(this, JSON.parse('{"i":"repeat"}'))`, true},
		{`let i = 0; s[i]; function f() { Object.assign(this, {i: "repeat"}) }`, true},
		{`let i = 0; s[i]; class A { m() { return this } }`, true}, // conservative
		{`var i = 0; s[i]; Object.assign(o, {i: "repeat"})`, true},
		{`let i = 0; s[i + 1]; class A { m() { return this } }`, false}, // the key needs no name
		{`let i = j; let j = i; s[i]`, false},
		{`let i = j; let j = k; s[i]; var k = "x"`, true},
		{`const a = []; a[a.length]`, true},
		{`const a = []; a[typeof 1]`, true},
		{`const a = []; a[!1]`, true},
		{`const a = []; a[1 < 2]`, true},
		{`const a = []; a[f() + f()]`, true},
		{`const a = []; let x = 1; x += "a"; a[x]`, false}, // "1a": still has the digit
		{`const a = []; let x = "a"; x += 1; a[x]`, true},  // x is also bound to "a"
		{`let k = 0; k in o`, false},
		{`let k = "a"; k in o`, true},
	} {
		prg, err := Compile(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := usageOf(prg) == needAll; got != c.dynamic {
			t.Errorf("%s: dynamic %v, want %v", c.src, got, c.dynamic)
		}
	}
}

// TestUsageNamesHaveNoDigits: no name an addition, a lazy global, an
// iterator helper, a console method or a runtime global answers to could
// be a numbery string (numeric.go relies on it).
func TestUsageNamesHaveNoDigits(t *testing.T) {
	names := []string{}
	for n, bits := range needByName() {
		if bits == needTypedArrayFrom {
			// The typed-array classes: a numbery key that names one (the
			// global object's "Uint"+8+"Array") leaves goja's from, which
			// throws for a primitive source: a clear error, never a value.
			continue
		}
		names = append(names, n)
	}
	for _, l := range lazyNames {
		names = append(names, l.name, l.holder)
	}
	names = append(names, iteratorHelpers...)
	names = append(names, consoleMethods[:]...)
	names = append(names, dynamicNames...)
	names = append(names, bundle.FieldFacts, bundle.FieldInput, bundle.FieldHost, bundle.FieldLib, bundle.FieldDone, FactsSymbol, "input", "output", "require")
	if len(names) < 60 {
		t.Fatalf("only %d names", len(names))
	}
	for _, n := range names {
		if hasNumberText(n) {
			t.Errorf("%q contains a digit, NaN, Infinity or undefined: a numbery key could name it", n)
		}
	}
	if !hasNumberText("x1") || !hasNumberText("NaNx") || !hasNumberText("-Infinity") || hasNumberText("repeat") {
		t.Error("hasNumberText is wrong")
	}
}

// TestLoopGuardsOfAProgram: a program's loop guards are the names it
// spells, none when it spells none (also when the polyfills it reaches
// name some), and every one (nil) when it may reach anything.
func TestLoopGuardsOfAProgram(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // nil: every one
	}{
		{`(async function (rt) { console.log(structuredClone({ a: 1 })); })`, []string{}},
		{`(async function (rt) { console.log([1, 2].map((x) => x).join("-")); })`, []string{"join", "map"}},
		{`(async function (rt) { console.log([1, 2]["rev" + "erse"]()); })`, nil},
		// Syntax that iterates in Go: spread, rest, yield* (parity.SpreadGuardName).
		{`(async function (rt) { const a = [1]; console.log(Math.max(...a)); })`, []string{"..."}},
		{`(async function (rt) { const [x, ...r] = [1, 2]; console.log(r); })`, []string{"..."}},
		{`(async function (rt) { function* g() { yield* [1]; } console.log(g().next()); })`, []string{"..."}},
		{`(async function (rt) { const [x, y] = [1, 2]; console.log(x, y); })`, []string{}},
		{`(async function (rt) { const x = 1; console.log({ ...{ x } }); })`, []string{"..."}}, // an object's spread too: the walk does not tell them apart
	} {
		prg, err := Compile(c.src)
		if err != nil {
			t.Fatal(err)
		}
		got := loopGuardsOf(prg)
		if (got == nil) != (c.want == nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: loop guards %q (nil %v); want %q (nil %v)", c.src, got, got == nil, c.want, c.want == nil)
		}
	}
}
