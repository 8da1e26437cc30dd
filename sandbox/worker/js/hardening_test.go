package js_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// Hostile one-liners against the runtime's own code (previews, console,
// crypto) and goja's built-ins: each must end as output, a catchable error
// at the user's line, or a documented limit — never INTERNAL, never a lost
// worker (which in the harness is a panic that fails the test binary).

// hostileCase is a snippet and the console lines it must print.
type hostileCase struct {
	name, src string
	want      []string
	outcome   string // "" means ok
}

func runHostile(t *testing.T, cases []hostileCase) {
	t.Helper()
	cs := make([]jstest.Case, len(cases))
	for i, c := range cases {
		cs[i] = jstest.Case{Name: c.name, Src: c.src, Want: c.want, Outcome: c.outcome}
	}
	jstest.RunCases(t, cs)
}

func TestPreviewCycles(t *testing.T) {
	runHostile(t, []hostileCase{
		{"map key and value", `const m = new Map(); m.set(m, m); console.log(m)`,
			[]string{"<ref *1> Map(1) { [Circular *1] => [Circular *1] }"}, ""},
		{"set", `const s = new Set(); s.add(s); console.log(s)`, []string{"<ref *1> Set(1) { [Circular *1] }"}, ""},
		{"array", `const a = [1]; a.push(a); console.log(a)`, []string{"<ref *1> [ 1, [Circular *1] ]"}, ""},
		{"object", `const o = {name:'root', child:{list:[1]}}; o.child.parent = o; console.log(o)`,
			[]string{"<ref *1> { name: 'root', child: { list: [ 1 ], parent: [Circular *1] } }"}, ""},
		{"through a map key", `const o = {}; const m = new Map([[o, 1]]); o.m = m; console.log(m)`,
			[]string{"<ref *1> Map(1) { { m: [Circular *1] } => 1 }"}, ""},
		{"as a fact", `import { facts } from "playground"; const m = new Map(); m.set(m, [m]); facts.m = m; console.log("set")`,
			[]string{"set"}, ""},
	})
}

func TestPreviewRunsNoSnippetCode(t *testing.T) {
	runHostile(t, []hostileCase{
		{"getter in a map key", `const k = {get x(){ console.log('GETTER'); return 1 }}; console.log(new Map([[k, 1]]))`,
			[]string{"Map(1) { { x: [Getter] } => 1 }"}, ""},
		{"accessor kinds", `console.log({get x(){return 1}, set x(v){}, get y(){return 1}, set z(v){}})`,
			[]string{"{ x: [Getter/Setter], y: [Getter], z: [Setter] }"}, ""},
		{"numeric specifiers call no valueOf", `console.log('%d|%i|%f', {valueOf(){console.log('VALUEOF');return 1}}, {toString(){console.log('TOSTRING');return '1'}}, {[Symbol.toPrimitive](){console.log('PRIM');return 1}})`,
			[]string{"NaN|NaN|NaN"}, ""},
		// %s calls an object's own toString, as Node's util.format does
		// (console_format_s); %o and %O call nothing.
		{"%o and %O call nothing", `const o = {toString(){console.log('TOSTRING')}, toJSON(){console.log('TOJSON')}, inspect(){console.log('INSPECT')}}; console.log('%s %o %O', o, o, o)`,
			[]string{"TOSTRING", "undefined {\n  toString: [Function: toString],\n  toJSON: [Function: toJSON],\n  inspect: [Function: inspect]\n} {\n  toString: [Function: toString],\n  toJSON: [Function: toJSON],\n  inspect: [Function: inspect]\n}"}, ""},
		{"proxy traps", `const p = new Proxy({a:1,b:2}, {get(){console.log('GET')}, ownKeys(){console.log('KEYS'); return []}, getOwnPropertyDescriptor(){console.log('DESC')}, getPrototypeOf(){console.log('PROTO'); return null}}); console.log(p); console.table([p]); console.dir(p)`,
			[]string{"{ a: 1, b: 2 }", "┌─────────┬───┬───┐\n│ (index) │ a │ b │\n├─────────┼───┼───┤\n│ 0       │ 1 │ 2 │\n└─────────┴───┴───┘", "{ a: 1, b: 2 }"}, ""},
		{"getter tag is not called", `class T { get [Symbol.toStringTag]() { console.log('TAG'); return 'x' } }; console.log(new T(), Object.defineProperty([1], 'g', { get() { console.log('GETTER') }, enumerable: true }))`,
			[]string{"T {} [ 1, g: [Getter] ]"}, ""},
		{"replaced DOMException name getter", `const d = new DOMException('m', 'AbortError'); Object.defineProperty(DOMException.prototype, 'name', { get() { console.log('GETTER'); return 'X' } }); console.log(String(d.message), [d].length); console.log(d)`,
			[]string{"m 1", "[DOMException [Error]: m]"}, ""}, // goja would format the stack through the getter
		{"replaced URL and event getters", `const u = new URL('http://a/'); Object.defineProperty(u, 'href', { get() { console.log('GETTER'); return 'x' } }); Object.defineProperty(Event.prototype, 'type', { get() { console.log('GETTER'); return 't' } }); console.log(u, new Event('e'), Object.create(URL.prototype))`,
			[]string{"URL {} Event {} URL {}"}, ""},
		{"options.depth getter", `console.dir({ a: { b: { c: {} } } }, { get depth() { console.log('GETTER'); return 0 } })`,
			[]string{"{ a: { b: { c: {} } } }"}, ""},
		{"function props cycle", `function f() {}; f.self = f; f.o = { f }; console.log(f)`,
			[]string{"<ref *1> [Function: f] { self: [Circular *1], o: { f: [Circular *1] } }"}, ""},
		{"a prototype chain 200,000 deep", `let o = {}; for (let i = 0; i < 200000; i++) o = Object.create(o); const e = Object.create(o); for (let i = 0; i < 20; i++) console.log(Array(50).fill(e).length, [e, e]); console.log('done')`,
			append(slices.Repeat([]string{"50 [ {}, {} ]"}, 20), "done"), ""},
		// Only the message getter runs (as Node's inspect reads err.message):
		// once, before the line's previews; the name getter and toString never.
		{"error name and message getters", `class E extends Error { get message() { console.log('MESSAGE'); return 'm' } get name() { console.log('NAME'); while (true) {} } }; const e = new E(); console.log(e, [e].length); const o = new Error('x'); o.name = { toString() { console.log('TOSTRING'); return 'N' } }; console.log(o)`,
			[]string{"MESSAGE", "[E [Error]: m] 1", "[Error: x] { name: { toString: [Function: toString] } }"}, ""},
		{"thrown error with a looping name getter", `class E extends Error { get name() { while (true) {} } }; throw new E('boom')`,
			nil, "error"},
		{"DataView look-alikes and a replaced getter", `class DataView2 {}; Object.defineProperty(DataView2, 'name', { value: 'DataView' }); console.log(new DataView2()); Object.defineProperty(DataView.prototype, 'buffer', { get() { console.log('GETTER'); return 1 } }); console.log(new DataView(new ArrayBuffer(1)))`,
			// The intrinsic getters were found at the first preview, before the replacement: no snippet code runs.
			[]string{"DataView {}", "DataView {\n  byteLength: 1,\n  byteOffset: 0,\n  buffer: ArrayBuffer { [Uint8Contents]: <00>, byteLength: 1 }\n}"}, ""},
		{"DataView getter replaced before any preview", `Object.defineProperty(DataView.prototype, 'byteLength', { get() { console.log('GETTER'); return 1 } }); console.log(new DataView(new ArrayBuffer(1)))`,
			[]string{"DataView {}"}, ""},
		{"JSON.parse converts its argument once", `let n = 0; try { JSON.parse({ toString() { n++; return "{bad" } }) } catch (e) { console.log(n, e.name, e.message) }`,
			[]string{"1 SyntaxError Expected property name or '}' in JSON at position 1"}, ""},
		{"JSON.parse: reviver, a reviver's throw, a number past float64", `console.log(JSON.parse('{"a":[1,2]}', (k, v) => typeof v === "number" ? v * 10 : v).a); try { JSON.parse("[1]", () => { throw new RangeError("from reviver") }) } catch (e) { console.log(e.name, e.message) } try { JSON.parse("[1e400]") } catch (e) { console.log(e.name, e.message) } try { JSON.parse("[2]", () => { throw new SyntaxError("mine") }) } catch (e) { console.log(e.name, e.message) }`,
			[]string{"[ 10, 20 ]", "RangeError from reviver", "SyntaxError JSON.parse: a number in this JSON is beyond ±1.8e308, which this runtime cannot read (Node reads it as ±Infinity)", "SyntaxError mine"}, ""},
		{"a descriptor's get inherited from Object.prototype", `class Tagged { get [Symbol.toStringTag]() { return "T" } }; const vals = [new Error("x"), new DOMException("m", "AbortError"), new Tagged(), Math]; Object.defineProperty(Object.prototype, "get", { get() { console.log("RAN") }, configurable: true }); console.log(vals.length, vals)`,
			// goja builds descriptors by assignment: with Object.prototype.get an
			// accessor, the DOMException's name getter cannot be told apart, and
			// the preview says less rather than run the snippet's getter.
			[]string{"4 [\n  Error: x\n      at main.js:1:75,\n  [DOMException [Error]: m],\n  Tagged {},\n  Object [Math] {}\n]"}, ""},
		{"getter through table", `console.table([{get a(){console.log('GETTER'); return 1}, b: 2}])`,
			[]string{"┌─────────┬──────────┬───┐\n│ (index) │ a        │ b │\n├─────────┼──────────┼───┤\n│ 0       │ [Getter] │ 2 │\n└─────────┴──────────┴───┘"}, ""},
	})
}

func TestPreviewTypedArraysAndWrappers(t *testing.T) {
	runHostile(t, []hostileCase{
		{"typed arrays", `console.log(new Uint8Array(3), new Float64Array([1.5, NaN]), new BigInt64Array([1n, -2n]), [new Int16Array([-1])], new Uint8Array(0))`,
			[]string{"Uint8Array(3) [ 0, 0, 0 ] Float64Array(2) [ 1.5, NaN ] BigInt64Array(2) [ 1n, -2n ] [ Int16Array(1) [ -1 ] ] Uint8Array(0) []"}, ""},
		{"a 50-million-element typed array", `const big = new Uint8Array(5e7); console.log({ big })`,
			[]string{"{\n  big: Uint8Array(50000000) [\n" + strings.Repeat("    "+strings.TrimSuffix(strings.Repeat("0, ", 12), " ")+"\n", 8) + "    0, 0, 0, 0,\n    ... 49999900 more items\n  ]\n}"}, ""},
		{"wrappers", `console.log(new String('abc'), new Number(-0), new Boolean(false), Object(12n)); const s = new String('x'.repeat(5e7)); console.log([s].length)`,
			[]string{"[String: 'abc'] [Number: -0] [Boolean: false] [BigInt: 12n]", "1"}, ""},
	})
}

func TestPreviewProxies(t *testing.T) {
	runHostile(t, []hostileCase{
		{"target's properties", `console.log(new Proxy({a:1,b:2}, {get(){return 5}, ownKeys(){return []}}))`, []string{"{ a: 1, b: 2 }"}, ""},
		{"nested", `console.log(new Proxy(new Proxy({x:1},{}),{}))`, []string{"{ x: 1 }"}, ""},
		{"revoked", `const r = Proxy.revocable({}, {}); r.revoke(); console.log(r.proxy, [r.proxy])`, []string{"<Revoked Proxy> [ <Revoked Proxy> ]"}, ""},
		{"function and array", `console.log(new Proxy(function foo(){}, {}), new Proxy([1,2],{}))`, []string{"[Function: foo] [ 1, 2 ]"}, ""},
		{"class instance", `class Store { constructor(){ this.n = 1 } }; console.log(new Proxy(new Store(), {get(){ throw new Error('trap') }}))`, []string{"Store { n: 1 }"}, ""},
		{"proxy holding itself", `const t = {}; const p = new Proxy(t, {}); t.self = p; console.log(p)`, []string{"<ref *1> { self: [Circular *1] }"}, ""},
	})
}

func TestConsoleNumericSpecifiers(t *testing.T) {
	// Node 20: %d is Number(v) (1.5 stays 1.5), %i parseInt, %f parseFloat.
	runHostile(t, []hostileCase{{"node", `
console.log('%d|%i|%f', 1.5, 1.5, 1.5);
console.log('%d|%i|%f', '42.9abc', '42.9abc', '42.9abc');
console.log('%d|%i|%f', true, true, true);
console.log('%d|%i|%f', null, null, null);
console.log('%d|%i|%f', -0.5, -0.5, -0.5);
console.log('%d|%i|%f', 1e21, 1e21, 1e21);
console.log('%d|%i|%f', 5n, 5n, 5n);
console.log('%d|%i|%f', undefined, '', ' ');`, []string{"1.5|1|1.5", "NaN|42|42.9", "1|NaN|NaN", "0|NaN|NaN", "-0.5|-0|-0.5", "1e+21|1|1e+21", "5n|5n|5", "NaN|NaN|NaN"}, ""}})
}

func TestConsoleJSONSpecifier(t *testing.T) {
	// Node 20's util.format %j, except that toJSON is not called (it is
	// snippet code).
	runHostile(t, []hostileCase{{"node", `
console.log('%j', {a: 1, b: [1, 'x', null, undefined, () => 1], c: undefined, d: new Date(0), e: NaN, f: -0, g: new Map([[1, 2]]), h: /x/, s: Symbol('q')});
console.log('%j|%j|%j|%j', undefined, 'str', 5, () => 1);
const o = {x: 1}; o.self = o; console.log('%j', o);
class P { constructor() { this.p = 1 } }; console.log('%j', [new P(), [1, , 3]]);
try { console.log('%j', 1n) } catch (e) { console.log(e.name, e.message) }
console.log('a %j b', {toJSON() { console.log('TOJSON'); return 1 }, get g() { console.log('GETTER'); return 1 }, v: 1});`,
		[]string{`{"a":1,"b":[1,"x",null,null,null],"d":"1970-01-01T00:00:00.000Z","e":null,"f":0,"g":{},"h":{}}`,
			`undefined|"str"|5|undefined`, "[Circular]", `[{"p":1},[1,null,3]]`, "TypeError Do not know how to serialize a BigInt", `a {"v":1} b`}, ""}})
}

func TestCryptoGetRandomValuesHostile(t *testing.T) {
	runHostile(t, []hostileCase{{"node's errors", `
const m = new Map(); m.set(m, m);
for (const a of [m, new Float32Array(2), new Uint8Array(65537), {get length(){console.log('GETTER');return 1}}, new Proxy(new Uint8Array(2), {get(){console.log('TRAP')}})]) {
  try { crypto.getRandomValues(a); console.log('ok', a.length) } catch (e) { console.log(e.name, e.code, e.message, e instanceof DOMException) }
}
try { crypto.getRandomValues() } catch (e) { console.log(e.name, e.message) }
console.log(crypto.getRandomValues(new Uint8ClampedArray(3)).length, crypto.getRandomValues(new BigInt64Array(2)).length)`, []string{
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"QuotaExceededError 22 The requested length exceeds 65,536 bytes true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeError Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.",
		"3 2"}, ""}})
}

// TestPreviewBudgets: every console event has a byte budget checked while
// its previews are built, so no single value can make one large event or
// take long to preview.
func TestPreviewBudgets(t *testing.T) {
	h := newHarness(t, Config{})
	for _, c := range []struct{ name, src string }{
		{"%c argument", `console.log("%c", "x".repeat(30 << 20))`},
		{"symbol description", `console.log(Symbol("x".repeat(2 << 20)))`},
		{"bigint", `console.log(7n ** 2000000n)`},
		{"shared sub-structure", `const leaf = Array.from({length: 100}, (_, i) => ({i, s: "y".repeat(50)})); const mid = Array(100).fill(leaf); const top = Array(100).fill(mid); console.log(Array(100).fill(top))`},
		{"huge keys", `const o = {}; for (let i = 0; i < 50; i++) o["k".repeat(100000) + i] = i; console.log(o)`},
		{"many keys", `const o = {}; for (let i = 0; i < 100000; i++) o["k" + i] = i; console.log(o, o, o)`},
		{"deep nesting", `let o = {}; for (let i = 0; i < 100000; i++) o = {o}; console.log(o)`},
		{"huge array", `console.log(new Array(2 ** 32 - 1), Array.from({length: 1e5}, (_, i) => i))`},
		{"many arguments", `console.log(...Array(10000).fill("z".repeat(10000)))`},
		{"error message", `console.log(new Error("m".repeat(10 << 20)))`},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The deadline is generous (race detector, a loaded machine):
			// before the budgets, these runs took minutes or never ended.
			res, rec := run(t, h, Request{Files: files("main.js", c.src+`;console.log("after")`), Timeout: 60 * time.Second})
			if res.Outcome != OutcomeOK && res.Outcome != OutcomeOutputLimit {
				t.Fatalf("outcome %s (errors %+v); want ok or output_limit", res.Outcome, rec.Errors())
			}
			sent := 0
			for _, ev := range rec.Events() {
				b, _ := json.Marshal(ev)
				if len(b) > 1<<20+64<<10 {
					t.Errorf("one %s event of %d bytes; want at most about 1 MiB", ev.Kind, len(b))
				}
				if ev.Kind == EventLog {
					sent += len(ev.Text)
					for _, a := range ev.Args {
						sent += len(a)
					}
				}
			}
			if res.Stats.OutputBytes != sent {
				t.Errorf("outputBytes %d; the log events carried %d", res.Stats.OutputBytes, sent)
			}
			if sent > 1<<20 {
				t.Errorf("%d bytes of output; the cap is 1 MiB", sent)
			}
		})
	}
}

func TestHugeLogThenAfter(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `console.log('x'.repeat(100 * 2 ** 20)); console.log('after')`), Timeout: 60 * time.Second})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s %+v", res.Outcome, rec.Errors())
	}
	logs := rec.Logs()
	if len(logs) != 2 || logs[1] != "after" || !strings.HasSuffix(logs[0], "…") || len(logs[0]) > 20000 {
		t.Errorf("logs %d: want a truncated line and after", len(logs))
	}
}

func TestRepeatedUnhandledRejectionsOneError(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `const s = "r".repeat(100000); for (let i = 0; i < 10000; i++) Promise.reject(new Error(s));`)})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome %s", res.Outcome)
	}
	errs := rec.Errors()
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Message, "Uncaught (in promise) Error: rrr") || len(errs[0].Message) > 20000 {
		t.Fatalf("%d errors; want one, capped", len(errs))
	}
}

func TestGuardedBuiltins(t *testing.T) {
	try := func(expr string) string {
		return `try { const r = (() => ` + expr + `)(); console.log("ok", typeof r === "string" ? r.length : typeof r === "bigint" ? String(r).slice(0, 20) : r) } catch (e) { console.log(e.name + ": " + e.message) }`
	}
	runHostile(t, []hostileCase{
		// Node 20 prints the same lines for all of these.
		{"sort comparator empties the array", `const a=[5,3,1,4,2]; a.sort((x,y)=>{a.length=0; return x-y}); console.log(a, a.length)`, []string{"[ 1, 2, 3, 4, 5 ] 5"}, ""},
		{"sort comparator shrinks the array", `const b=[5,3,1,4,2]; b.sort((x,y)=>{b.length=2; return x-y}); console.log(b, b.length)`, []string{"[ 1, 2, 3, 4, 5 ] 5"}, ""},
		{"sort comparator grows the array", `const b=[5,3,1]; b.sort((x,y)=>{b.push(9); return x-y}); console.log(b.slice(0, 3))`, []string{"[ 1, 3, 5 ]"}, ""},
		{"sort holes and undefined", `const c=[5,undefined,,3,1,,4,2]; c.sort(); console.log(c, c.length)`, []string{"[ 1, 2, 3, 4, 5, undefined, <2 empty items> ] 8"}, ""},
		{"sort default is by string", `console.log([5,3,1,4,2,10,1].sort())`, []string{"[\n  1, 1, 10, 2,\n  3, 4,  5\n]"}, ""},
		{"sort by UTF-16 code units", `console.log(['\uFF61','\uD83D\uDE00','b','a'].sort().map(s=>s.codePointAt(0)))`, []string{"[ 97, 98, 128512, 65377 ]"}, ""},
		{"sort stable", `console.log(Array.from({length: 30}, (_, i) => ({k: i % 3, i})).sort((a, b) => a.k - b.k).map(o => o.i).join())`,
			[]string{"0,3,6,9,12,15,18,21,24,27,1,4,7,10,13,16,19,22,25,28,2,5,8,11,14,17,20,23,26,29"}, ""},
		{"sort array-like", `const o={length: 4, 0: 'b', 2: 'a', 3: undefined}; console.log(Array.prototype.sort.call(o))`, []string{"{ '0': 'a', '1': 'b', '2': undefined, length: 4 }"}, ""},
		{"sort huge sparse array-like", `const o={length: 2**53-1, 5: 'b', 9: 'a'}; Array.prototype.sort.call(o); console.log(o[0], o[1], o[5], o[9])`, []string{"a b undefined undefined"}, ""},
		{"sort looks native", `console.log(Array.prototype.sort.length, Array.prototype.sort.name, String(Array.prototype.sort), Object.getOwnPropertyDescriptor(Array.prototype, 'sort').enumerable)`,
			[]string{"1 sort function sort() { [native code] } false"}, ""},
		{"sort bad comparator", try(`[1,2].sort(5)`), []string{"TypeError: The comparison function must be either a function or undefined"}, ""},
		{"sort comparator throws", try(`[3,2,1].sort(() => { throw new RangeError('cmp') })`), []string{"RangeError: cmp"}, ""},
		{"repeat 2**62", try(`'ab'.repeat(2**62)`), []string{"RangeError: Invalid string length"}, ""},
		{"repeat -1", try(`'ab'.repeat(-1)`), []string{"RangeError: Invalid count value: -1"}, ""},
		{"repeat Infinity", try(`'ab'.repeat(Infinity)`), []string{"RangeError: Invalid count value: Infinity"}, ""},
		{"repeat empty", try(`''.repeat(2**62)`), []string{"ok 0"}, ""},
		{"repeat ok", try(`'ab'.repeat(3)`), []string{"ok 6"}, ""},
		{"repeat lone surrogate", `console.log('\uD800'.repeat(2).length, '\uD800'.repeat(2).charCodeAt(1))`, []string{"2 55296"}, ""},
		{"padStart 2**62", try(`'ab'.padStart(2**62)`), []string{"RangeError: Invalid string length"}, ""},
		{"padEnd 2**40", try(`'ab'.padEnd(2**40, 'xy')`), []string{"RangeError: Invalid string length"}, ""},
		{"padStart empty filler", try(`'ab'.padStart(2**62, '')`), []string{"ok 2"}, ""},
		{"pad ok", `console.log('ab'.padStart(5, 1), 'ab'.padEnd(5), '|')`, []string{"111ab ab    |"}, ""},
		{"asUintN huge bits", try(`BigInt.asUintN(2 ** 53 - 1, 5n)`), []string{"ok 5"}, ""},
		{"asUintN huge bits negative", try(`BigInt.asUintN(2 ** 53 - 1, -5n)`), []string{"RangeError: Maximum BigInt size exceeded"}, ""},
		{"asIntN huge bits negative", try(`BigInt.asIntN(2 ** 53 - 1, -5n)`), []string{"ok -5"}, ""},
		{"asUintN 2**53", try(`BigInt.asUintN(2 ** 53, 5n)`), []string{"RangeError: Invalid value: not (convertible to) a safe integer"}, ""},
		{"asUintN 2**31 of -1", try(`BigInt.asUintN(2**31, -1n)`), []string{"RangeError: Maximum BigInt size exceeded"}, ""},
		{"asIntN wraps", try(`BigInt.asIntN(2**40, 2n**70n)`), []string{"ok 11805916207174113034"}, ""},
		{"asUintN -1", try(`BigInt.asUintN(-1, 1n)`), []string{"RangeError: Invalid value: not (convertible to) a safe integer"}, ""},
		{"asIntN of a number", try(`BigInt.asIntN(64, 1)`), []string{"TypeError: Cannot convert 1 to a BigInt"}, ""},
		{"asUintN 64", try(`BigInt.asUintN(64, -1n)`), []string{"ok 18446744073709551615"}, ""},
		{"apply 2**53-1", try(`Math.max.apply(null, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"apply 2**32", try(`Math.max.apply(null, {length: 2**32})`), []string{"RangeError: Invalid array length"}, ""},
		{"Reflect.apply", try(`Reflect.apply(Math.max, null, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"Reflect.construct", try(`Reflect.construct(Array, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"bound apply", try(`(function(){}).bind(null).apply(null, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"fromCharCode apply", try(`String.fromCharCode.apply(null, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"concat apply", try(`String.prototype.concat.apply('', {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"Array.of apply", try(`Array.of.apply(null, {length: 2**53-1})`), []string{"RangeError: Invalid array length"}, ""},
		{"apply non-object", try(`Math.max.apply(null, 5)`), []string{"TypeError: CreateListFromArrayLike called on non-object"}, ""},
		{"apply works", `console.log(Math.max.apply(null, [1, 5, 2]), Math.max.apply(null, {length: 2, 0: 3, 1: 4}), Reflect.apply(Math.min, null, [3, 1]), Reflect.construct(Date, [0]).getTime(), Math.max.apply(null), Math.max.apply.length, Reflect.construct.length)`,
			[]string{"5 4 1 0 -Infinity 2 2"}, ""},
		{"new.target through Reflect.construct", `class A { constructor() { this.t = new.target.name } } class B extends A {} console.log(Reflect.construct(A, [], B).t)`, []string{"B"}, ""},
	})
}

// TestPolyfillsLookNative: polyfilled globals and methods print as native
// code with Node's names and lengths, and errors they throw have the
// snippet's frame on top (no polyfill frame in e.stack).
func TestPolyfillsLookNative(t *testing.T) {
	runHostile(t, []hostileCase{
		{"toString and names", `
const pick = {structuredClone, atob, btoa, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, AbortSignal, EventTarget, Event, DOMException, WeakRef, FinalizationRegistry, queueMicrotask, setTimeout, setInterval, clearTimeout, 'AbortSignal.timeout': AbortSignal.timeout, 'AbortSignal.abort': AbortSignal.abort, 'EventTarget.prototype.addEventListener': EventTarget.prototype.addEventListener, 'Object.groupBy': Object.groupBy, 'Promise.withResolvers': Promise.withResolvers, 'Number.prototype.toLocaleString': Number.prototype.toLocaleString, 'String.prototype.localeCompare': String.prototype.localeCompare, 'Date.prototype.toLocaleDateString': Date.prototype.toLocaleDateString, 'URL.prototype.toString': URL.prototype.toString, 'URLSearchParams.prototype.get': URLSearchParams.prototype.get, 'AbortController.prototype.abort': AbortController.prototype.abort, 'crypto.getRandomValues': crypto.getRandomValues, 'Array.prototype.sort': Array.prototype.sort, 'Function.prototype.toString': Function.prototype.toString, 'Iterator.prototype.map': Iterator.prototype.map};
const bad = [];
for (const [k, f] of Object.entries(pick)) {
  const s = Function.prototype.toString.call(f);
  if (s !== 'function ' + f.name + '() { [native code] }' || String(f) !== s) bad.push(k + ': ' + s.slice(0, 40));
}
console.log(bad.length ? bad.join('\n') : 'all native');
console.log(Object.entries(pick).map(([k, f]) => f.name + '/' + f.length).join(' '));
console.log(Object.getOwnPropertyDescriptor(URL.prototype, 'href').get.name, (() => 1).toString(), (function named(a) { return a }).toString().includes('return a'));`,
			[]string{"all native",
				"structuredClone/0 atob/1 btoa/1 URL/1 URLSearchParams/0 TextEncoder/0 TextDecoder/0 AbortController/0 AbortSignal/0 EventTarget/0 Event/1 DOMException/0 WeakRef/1 FinalizationRegistry/1 queueMicrotask/1 setTimeout/5 setInterval/5 clearTimeout/1 timeout/1 abort/0 addEventListener/2 groupBy/2 withResolvers/0 toLocaleString/0 localeCompare/1 toLocaleDateString/0 toString/0 get/1 abort/0 getRandomValues/1 sort/1 toString/0 map/1",
				"get href () => 1 true"}, ""},
		{"stacks start at the snippet", `
function top(f) { try { f() } catch (e) { const l = e.stack.split('\n').slice(1).filter(x => !/\(native\)/.test(x)); console.log(e.name, l.some(x => /polyfill\.js/.test(x)), /main\.js/.test(l[0])) } }
top(() => structuredClone(() => 1));
top(() => atob('%'));
top(() => new TextDecoder('nope'));
top(() => new Event());
top(() => Object.groupBy(null, x => x));
top(() => AbortSignal.timeout(-1));
top(() => new AbortController().signal.throwIfAborted() ?? (() => { const c = new AbortController(); c.abort(); c.signal.throwIfAborted() })());`,
			[]string{"DataCloneError false true", "InvalidCharacterError false true", "RangeError false true", "TypeError false true", "TypeError false true", "RangeError false true", "AbortError false true"}, ""},
	})
}

// TestDeterministicLongIntervals: in deterministic mode the virtual clock
// jumps to each timer, so an hourly interval ticks at once with strictly
// increasing virtual times, the same in every run; delays past Node's
// TIMEOUT_MAX are 1 ms as in Node; a clock past 292 years saturates
// rather than wrapping back.
func TestDeterministicLongIntervals(t *testing.T) {
	h := newHarness(t, Config{})
	src := `
let n = 0; const times = [];
const id = setInterval(() => {
  times.push(Date.now(), performance.now());
  if (++n === 5) { clearInterval(id); console.log(times.join(' ')); console.log(Math.random()) }
}, 3600_000);
setTimeout(() => console.log('overflow delay is 1 ms'), 2 ** 31);
let last = -Infinity, back = 0, ticks = 0;
const far = setInterval(() => { const t = performance.now(); if (t < last) back++; last = t; if (++ticks === 10000) { clearInterval(far); console.log('ticks', ticks, 'backwards', back) } }, 2 ** 31 - 1);
`
	var first []string
	for i := range 2 {
		res, rec := run(t, h, Request{Files: files("main.js", src), Deterministic: true, Timeout: 10 * time.Second})
		if res.Outcome != OutcomeOK {
			t.Fatalf("run %d: outcome %s %+v", i, res.Outcome, rec.Errors())
		}
		logs := rec.Logs()
		want := "1704070800000 3600000 1704074400000 7200000 1704078000000 10800000 1704081600000 14400000 1704085200000 18000000"
		if len(logs) != 4 || logs[0] != "overflow delay is 1 ms" || logs[1] != want || logs[3] != "ticks 10000 backwards 0" {
			t.Fatalf("run %d: logs %q", i, logs)
		}
		if i == 0 {
			first = logs
		} else if strings.Join(first, "\n") != strings.Join(logs, "\n") {
			t.Errorf("two deterministic runs differ:\n%q\n%q", first, logs)
		}
	}
}

// TestEngineFaultInATimer: a Go panic out of a goja operator (a BigInt
// shift by 2^62, computed at run time) inside a timer ends the run with a
// RUNTIME_ERROR, not a lost worker; the output before it is kept.
func TestEngineFaultInATimer(t *testing.T) {
	h := newHarness(t, Config{})
	for _, src := range []string{
		`console.log("before"); setTimeout(() => { let n = 2n ** 62n; console.log(String(1n << n).length) }, 1); setTimeout(() => console.log("never"), 50)`,
		`console.log("before"); let n = 2n ** 62n; try { console.log(String(1n << n).length) } catch { console.log("never") }`, // in the entry module
	} {
		engineFault(t, h, src)
	}
}

func engineFault(t *testing.T, h *harness, src string) {
	t.Helper()
	res, rec := run(t, h, Request{Files: files("main.js", src)})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome %s %+v", res.Outcome, rec.Errors())
	}
	if logs := rec.Logs(); len(logs) != 1 || logs[0] != "before" {
		t.Errorf("logs %q; want [before]", logs)
	}
	errs := rec.Errors()
	if len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.HasPrefix(errs[0].Message, "RangeError: Maximum BigInt size exceeded") {
		t.Errorf("errors %+v; want one RUNTIME_ERROR RangeError", errs)
	}
}

// TestThrownValuesBounded: an uncaught throw of a huge non-Error value or
// of an Error whose stack a snippet replaced with 100 MB is one bounded
// error event.
func TestThrownValuesBounded(t *testing.T) {
	h := newHarness(t, Config{})
	for _, src := range []string{
		`const o = {}; for (let i = 0; i < 1000; i++) o["k" + i] = Array(100).fill("v".repeat(1000)); throw o;`,
		`const e = new Error("m"); e.stack = "at x (y:1:2)\n".repeat(8e6); throw e;`,
		`const e = new Error("m"); e.stack = "s".repeat(1e8); Promise.reject(e);`,
	} {
		res, rec := run(t, h, Request{Files: files("main.js", src), Timeout: 60 * time.Second})
		if res.Outcome != OutcomeError {
			t.Fatalf("%.40s: outcome %s", src, res.Outcome)
		}
		errs := rec.Errors()
		if len(errs) != 1 || len(errs[0].Message)+len(errs[0].Stack) > 64<<10 {
			t.Errorf("%.40s: %d errors, the first of %d bytes; want one, bounded", src, len(errs), len(errs[0].Message)+len(errs[0].Stack))
		}
	}
}

// TestErrorExtras: an error's own properties and cause print after its
// stack as Node prints them; a getter cause is not called, a cyclic cause
// is a reference, and a name the stack shows is not repeated.
func TestErrorExtras(t *testing.T) {
	runHostile(t, []hostileCase{
		{"cause and code", `const e = new Error("outer", { cause: new Error("inner") }); e.code = 42; console.log(e)`,
			[]string{"Error: outer\n    at main.js:1:11 {\n  code: 42,\n  [cause]: Error: inner\n      at main.js:1:39\n}"}, ""},
		{"subclass name", `class MyErr extends Error { constructor(m) { super(m); this.name = "MyErr"; } }; console.log([new MyErr("x")].length, Object.keys(new MyErr("y")))`,
			[]string{"1 [ 'name' ]"}, ""},
		{"getter cause is not called", `const e = new Error("g"); Object.defineProperty(e, "cause", { get() { console.log("CALLED"); return 1 } }); console.log(e)`,
			[]string{"Error: g\n    at main.js:1:11 {\n  [cause]: [Getter]\n}"}, ""},
		{"cyclic cause", `const e = new Error("c"); e.cause = e; console.log(e)`,
			[]string{"<ref *1> Error: c\n    at main.js:1:11 {\n  cause: [Circular *1]\n}"}, ""},
		{"primitive cause", `console.log(new Error("p", { cause: "why" }))`,
			[]string{"Error: p\n    at main.js:1:13 {\n  [cause]: 'why'\n}"}, ""},
	})
}

// TestArrayExtrasScan: an array's extra properties are listed up to
// arrayExtrasScan (1,000) elements; past it they are not looked for (the
// keys of a longer array cost a string per element).
func TestArrayExtrasScan(t *testing.T) {
	h := newHarness(t, Config{})
	for n, want := range map[int]bool{1000: true, 1001: false} {
		src := fmt.Sprintf("const a = new Array(%d).fill(0); a.extra = 'here'; console.log(a);", n)
		_, rec := run(t, h, Request{Files: files("main.js", src)})
		logs := strings.Join(rec.Logs(), "\n")
		if got := strings.Contains(logs, "extra: 'here'"); got != want || !strings.Contains(logs, "more items") {
			t.Errorf("%d elements: extra listed %v, want %v:\n%.300s", n, got, want, logs)
		}
	}
}
