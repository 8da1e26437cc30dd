package inspect_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

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
			// No getter runs, the message's neither (issue 22).
			[]string{"[E [Error]] 1", "[Error: x] { name: { toString: [Function: toString] } }"}, ""},
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

// TestPreviewBudgets: every console event has a byte budget checked while
// its previews are built, so no single value can make one large event or
// take long to preview.
func TestPreviewBudgets(t *testing.T) {
	t.Run("default limits", func(t *testing.T) { previewBudgets(t, pipe.Limits{}) })
	// The run's output cap below the event cap: the output cap binds.
	t.Run("1 MiB of output", func(t *testing.T) { previewBudgets(t, pipe.Limits{MaxOutputBytes: 1 << 20}) })
}

func previewBudgets(t *testing.T, lim pipe.Limits) {
	h := jstest.New(t, jstest.Config{Limits: lim})
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
			res, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", c.src+`;console.log("after")`), Timeout: 60 * time.Second})
			if res.Outcome != pipe.OutcomeOK && res.Outcome != pipe.OutcomeOutputLimit {
				t.Fatalf("outcome %s (errors %+v); want ok or output_limit", res.Outcome, rec.Errors())
			}
			sent := 0
			for _, ev := range rec.Events() {
				b, _ := json.Marshal(ev)
				if len(b) > 1<<20+64<<10 {
					t.Errorf("one %s event of %d bytes; want at most about 1 MiB", ev.Kind, len(b))
				}
				if ev.Kind == pipe.EventLog {
					sent += len(ev.Text)
					for _, a := range ev.Args {
						sent += len(a)
					}
				}
			}
			if res.Stats.OutputBytes != sent {
				t.Errorf("outputBytes %d; the log events carried %d", res.Stats.OutputBytes, sent)
			}
			if capped := lim.WithDefaults().MaxOutputBytes; sent > capped {
				t.Errorf("%d bytes of output; the cap is %d", sent, capped)
			}
		})
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
	h := jstest.New(t, jstest.Config{})
	for n, want := range map[int]bool{1000: true, 1001: false} {
		src := fmt.Sprintf("const a = new Array(%d).fill(0); a.extra = 'here'; console.log(a);", n)
		_, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", src)})
		logs := strings.Join(rec.Logs(), "\n")
		if got := strings.Contains(logs, "extra: 'here'"); got != want || !strings.Contains(logs, "more items") {
			t.Errorf("%d elements: extra listed %v, want %v:\n%.300s", n, got, want, logs)
		}
	}
}

func TestRunPreviews(t *testing.T) {
	p := jstest.New(t, jstest.Config{})
	_, rec := p.Run(t, jstest.Request{Files: jstest.Files("main.js", `
class Foo { constructor() { this.a = 1; } }
const o = { x: 1 }; o.self = o;
const g = { get boom() { throw new Error("getter ran"); } };
console.log(undefined, 12n, Symbol("s"), function f() {}, NaN, -0, new Date(0), /a/g, new Map([["k", 1]]), new Set([1]), [1, , 3], new Foo(), o, g);
`)})
	var args []json.RawMessage
	for _, e := range rec.Events() {
		if e.Kind == pipe.EventLog {
			args = e.Args
		}
	}
	got, _ := json.Marshal(args)
	want := `[{"$t":"undefined"},{"$t":"bigint","v":"12"},{"$t":"symbol","v":"Symbol(s)"},{"$t":"function","name":"f"},{"$t":"number","v":"NaN"},{"$t":"number","v":"-0"},{"$t":"date","v":"1970-01-01T00:00:00.000Z"},{"$t":"regexp","v":"/a/g"},{"$t":"map","entries":[["k",1]]},{"$t":"set","values":[1]},{"$t":"array","items":[1,{"$t":"empty","count":1},3]},{"$t":"object","class":"Foo","props":{"a":1}},{"$t":"object","class":"Object","props":{"x":1,"self":{"$t":"circular","path":"$","ref":1}},"ref":1},{"$t":"object","class":"Object","props":{"boom":{"$t":"getter"}}}]`
	if string(got) != want {
		t.Errorf("args =\n%s\nwant\n%s", got, want)
	}
}

func TestPreviewCaps(t *testing.T) {
	p := jstest.New(t, jstest.Config{Limits: pipe.Limits{PreviewLimits: pipe.PreviewLimits{Depth: 2, Keys: 3, String: 5}}})
	_, rec := p.Run(t, jstest.Request{Files: jstest.Files("main.ts", `
class VeryLongClassNameThatIsNotAString {}
console.log("abcdefgh", [1, 2, 3, 4, 5], { a: 1, b: 2, c: 3, d: 4 }, { x: { y: { z: 1 } } }, new Set([1, 2, 3, 4]));
console.log(new VeryLongClassNameThatIsNotAString(), function aVeryLongFunctionName() {}, new RangeError("a long message"));
`)})
	var logs []string
	for _, e := range rec.Events() {
		if e.Kind == pipe.EventLog {
			b, _ := json.Marshal(e.Args)
			logs = append(logs, string(b))
		}
	}
	if len(logs) != 2 {
		t.Fatalf("logs = %q", logs)
	}
	got := logs[0]
	// Names are not values: the string cap does not cut them; messages it does.
	if want := `[{"$t":"object","class":"VeryLongClassNameThatIsNotAString","props":{}},{"$t":"function","name":"aVeryLongFunctionName"},{"$t":"error","message":"a lon…","name":"RangeError","stack":"Range…"}]`; logs[1] != want {
		t.Errorf("names:\n%s\nwant\n%s", logs[1], want)
	}
	// Depth 2: the top object and x are shown, y (the third level) is cut.
	want := `["abcde…",{"$t":"array","items":[1,2,3,{"$t":"more","count":2}]},{"$t":"object","class":"Object","props":{"a":1,"b":2,"c":3,"…":{"$t":"more","count":1}}},{"$t":"object","class":"Object","props":{"x":{"$t":"object","class":"Object","props":{"y":{"$t":"object","class":"Object","props":{"…":{"$t":"more","count":1}}}}}}},{"$t":"set","values":[1,2,3,{"$t":"more","count":1}]}]`
	if got != want {
		t.Errorf("args =\n%s\nwant\n%s", got, want)
	}
}
