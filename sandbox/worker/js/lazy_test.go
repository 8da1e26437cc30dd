package js

import (
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// The Node additions are installed lazily (polyfill.go): these pin what a
// snippet sees of that, before and after first use, against Node 20's
// answers (noted per line).

// logTexts runs code and returns its log lines; the run must end ok.
func logTexts(t *testing.T, code string) []string {
	t.Helper()
	evs, res := runSnippet(t, code)
	var texts []string
	for _, ev := range evs {
		switch ev.Kind {
		case pipe.EventLog:
			texts = append(texts, ev.Text)
		case pipe.EventError:
			t.Errorf("error event: %+v", ev.Error)
		}
	}
	if res.Outcome != pipe.OutcomeOK {
		t.Fatalf("outcome %s; logs %q", res.Outcome, texts)
	}
	return texts
}

func checkLogs(t *testing.T, code string, want ...string) {
	t.Helper()
	got := logTexts(t, code)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLazyHoldersKeepPrototypeChains(t *testing.T) {
	// Node: all true.
	checkLogs(t, `
const ctors = [Object, Map, Array, Promise, Symbol, String, RegExp, Function];
console.log(ctors.every((c) => c instanceof Function && c instanceof Object));
console.log(globalThis instanceof Object, Object.prototype.isPrototypeOf(globalThis), Function.prototype.isPrototypeOf(Map));
console.log((() => 1) instanceof Object, Object.prototype.isPrototypeOf(function () {}), Object.getPrototypeOf(Map) === Function.prototype);
console.log(Object.getPrototypeOf(Promise) === Function.prototype, Object.getPrototypeOf(Symbol) === Function.prototype);
`, "true", "true true true", "true true true", "true true")
}

func TestLazyStatics(t *testing.T) {
	checkLogs(t, `
console.log("withResolvers" in Promise, "groupBy" in Map, "groupBy" in Object, "fromAsync" in Array, "asyncIterator" in Symbol);
const d = (o, k) => { const x = Object.getOwnPropertyDescriptor(o, k); return x && [typeof x.value, x.writable, x.enumerable, x.configurable].join(); };
console.log(d(Map, "groupBy") === undefined || d(Map, "groupBy"));
const m = Map.groupBy([1, 2, 3, 4], (x) => (x % 2 ? "odd" : "even"));
console.log(m.get("odd"), m.get("even"), d(Map, "groupBy"));
console.log(JSON.stringify(Object.groupBy([1, 2, 3], (x) => (x > 1 ? "big" : "small"))), d(Object, "groupBy"));
const { promise, resolve } = Promise.withResolvers(); resolve(7);
console.log(await promise, d(Promise, "withResolvers"));
console.log(await Array.fromAsync([Promise.resolve(1), 2]), d(Array, "fromAsync"));
console.log(typeof Symbol.asyncIterator, d(Symbol, "asyncIterator"));
console.log(Map.groupBy.toString(), Array.fromAsync.name, Promise.withResolvers.length);
`,
		"true true true true true",
		"function,true,false,true", // an own data property before any use, as in Node 22
		"[ 1, 3 ] [ 2, 4 ] function,true,false,true",
		`{"small":[1],"big":[2,3]} function,true,false,true`,
		"7 function,true,false,true",
		"[ 1, 2 ] function,true,false,true",
		"symbol symbol,false,false,false",
		"function groupBy() { [native code] } fromAsync 0")
}

func TestLazyStaticsOnlyOnTheirConstructors(t *testing.T) {
	// A function that is not the holder never gets the holder's statics
	// (Node: undefined). The lookup through Function.prototype still finds
	// what Object.prototype has, with the function as receiver.
	checkLogs(t, `
function f() {}
class C extends Map {}
console.log(f.groupBy, (() => {}).fromAsync, f.withResolvers, C.groupBy === Map.groupBy);
Object.prototype.probe = function () { return this === f; };
console.log(f.probe(), typeof f.hasOwnProperty, f.nothing);
delete Object.prototype.probe;
`, "undefined undefined undefined true", "true function undefined")
}

func TestLazyStaticsReplacedBeforeUse(t *testing.T) {
	// Node 22 (which has these statics; Node 20 lacks Map.groupBy):
	// assignment keeps the own property's attributes (not enumerable),
	// defineProperty wins, delete removes it for good.
	checkLogs(t, `
Map.groupBy = 5;
console.log(Map.groupBy, Object.getOwnPropertyDescriptor(Map, "groupBy").enumerable);
Object.defineProperty(Promise, "withResolvers", { value: "mine", configurable: true });
console.log(Promise.withResolvers);
console.log(typeof Object.groupBy, delete Object.groupBy, typeof Object.groupBy);
`, "5 false", "mine", "function true undefined")
}

func TestLazyGlobals(t *testing.T) {
	checkLogs(t, `
console.log(typeof URL, "URL" in globalThis, Object.keys(globalThis).includes("URL"));
const d = Object.getOwnPropertyDescriptor(globalThis, "TextEncoder"); // not read yet
console.log(d === undefined || [d.writable, d.enumerable, d.configurable].join());
console.log(new TextEncoder().encode("hé").length);
const d2 = Object.getOwnPropertyDescriptor(globalThis, "TextEncoder");
console.log([typeof d2.value, d2.writable, d2.enumerable, d2.configurable].join());
globalThis.atob = (s) => "mine " + s;
console.log(atob("x"));
console.log(typeof structuredClone, delete globalThis.structuredClone, typeof structuredClone);
const seen = []; for (const k in globalThis) seen.push(k);
console.log(seen.filter((k) => ["URL", "Event", "WeakRef", "Iterator"].includes(k)).length);
console.log(String(URL), String(AbortController).includes("native code"));
`,
		"function true false",
		"true",
		"3",
		"function,true,false,true",
		"mine x",
		"function true undefined",
		"0",
		"function URL() { [native code] } true")
}

func TestLazyRegExpWrapper(t *testing.T) {
	// The wrapper keeps constructing, calling and subclassing RegExp.
	checkLogs(t, `
console.log(new RegExp("\\p{L}+", "u").exec("héllo 12")[0], RegExp("a", "g").flags, /x/ instanceof RegExp);
class R extends RegExp { hi() { return "hi " + this.source; } }
const r = new R("ab+", "i");
console.log(r.hi(), r instanceof R, r instanceof RegExp, r.test("ABB"));
console.log(new RegExp("a", "d").hasIndices, new R("(b)", "d").exec("ab").indices[1].join(), new R("b", "d").hi());
`, "héllo g true", "hi ab+ true true true", "true 1,2 hi b")
}

// TestReviewFindings: behaviours Node shows, each of which this runtime got
// wrong once: a \p{…} inside a class of a regex literal (the bundle keeps
// it a literal, with one backslash), %j leaving <, > and & as they are,
// and toLocaleUpperCase working after a snippet replaced toUpperCase.
func TestReviewFindings(t *testing.T) {
	checkLogs(t, `
console.log(/[\p{Script=Greek}x]/u.test("α"), /[\P{L}]/u.test("a"));
console.log("%j", { "a<": "<b>&" });
String.prototype.toUpperCase = 1;
console.log("a".toLocaleUpperCase(), "B".toLocaleLowerCase("en"));
`, "true false", `{"a<":"<b>&"}`, "A b")
}
