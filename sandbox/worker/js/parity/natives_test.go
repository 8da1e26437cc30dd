package parity_test

import (
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// TestBuiltinsLookNative: no Go symbol shows in a built-in's name, its
// toString() or a stack through it.
func TestBuiltinsLookNative(t *testing.T) {
	p := jstest.New(t, jstest.Config{Host: map[string]jstest.HostFunc{"echo": nil, "kv.get": nil}})
	res, rec := p.Run(t, jstest.Request{Files: jstest.Files("main.ts", `
import { host } from "playground";
const fns: any[] = [console.log, console.table, console.group, console.groupCollapsed, setTimeout, clearInterval, performance.now, crypto.randomUUID, crypto.getRandomValues, host.echo, (host as any).kv.get];
console.log(fns.map((f) => f.name).join(","));
console.log(String(console.log), String(host.echo));
try { crypto.getRandomValues(1 as any) } catch (e: any) { console.log(e.stack) }
`)})
	out := strings.Join(rec.Logs(), "\n")
	if res.Outcome != "ok" || strings.Contains(out, "github.com") {
		t.Fatalf("outcome %s; output shows Go symbols:\n%s", res.Outcome, out)
	}
	want := []string{
		"log,table,group,groupCollapsed,setTimeout,clearInterval,now,randomUUID,getRandomValues,echo,get",
		"function log() { [native code] } function echo() { [native code] }",
	}
	for i, w := range want {
		if got := rec.Logs()[i]; got != w {
			t.Errorf("line %d = %q; want %q", i, got, w)
		}
	}
	if !strings.Contains(rec.Logs()[2], "\n    at getRandomValues (<anonymous>)\n") {
		t.Errorf("stack = %q; want a native frame named getRandomValues, as V8 prints one", rec.Logs()[2])
	}
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
function top(f) { try { f() } catch (e) { const l = e.stack.split('\n').slice(1).filter(x => !/\((native|<anonymous>)\)/.test(x)); console.log(e.name, l.some(x => /polyfill\.js/.test(x)), /main\.js/.test(l[0])) } }
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

func TestNativeNamesAsNode(t *testing.T) {
	// Node 20: a built-in's name is not writable, not enumerable,
	// configurable; Object.keys of a built-in function is empty.
	jstest.CheckLogs(t, `
const fns = [console.log, console.table, console.groupCollapsed, crypto.randomUUID, crypto.getRandomValues, setTimeout, clearInterval, performance.now];
console.log(fns.map((f) => f.name).join());
console.log(fns.every((f) => { const d = Object.getOwnPropertyDescriptor(f, "name"); return !d.writable && !d.enumerable && d.configurable; }));
console.log(fns.every((f) => Object.keys(f).length === 0), String(console.log), ["log", "table", "groupEnd"].every((k) => Object.keys(console).includes(k)));
`, "log,table,groupCollapsed,randomUUID,getRandomValues,setTimeout,clearInterval,now", "true", "true function log() { [native code] } true")
}

// TestBuiltinsOnHostileReceivers: built-ins that goja implements by
// dereferencing what it assumes the receiver is (issue 22, found by
// js.FuzzBuiltins): a Go panic there ended the run with an uncatchable
// error; each is now the TypeError (or the value) Node gives.
func TestBuiltinsOnHostileReceivers(t *testing.T) {
	runHostile(t, []hostileCase{
		{"toString of a revoked callable Proxy", `const r = Proxy.revocable(function () {}, {}); r.revoke();
console.log(Function.prototype.toString.call(r.proxy));
try { Function.prototype.toString.call(new Proxy({}, {})) } catch (e) { console.log(e.name) }`,
			[]string{"function () { [native code] }", "TypeError"}, ""},
		{"RegExp symbol methods on a plain object", `for (const m of [Symbol.replace, Symbol.match, Symbol.matchAll, Symbol.search, Symbol.split]) {
  try { RegExp.prototype[m].call({ exec: undefined }, "abc"); console.log("no error") } catch (e) { console.log(e.name) }
}
console.log("abcb".replace(/b/g, "x"), "a,b".split(/,/).length, [..."abab".matchAll(/a/g)].length, "abc".search(/c/), String(/x/[Symbol.split]))`,
			[]string{"TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "axcx 2 2 2 function [Symbol.split]() { [native code] }"}, ""},
		{"a typed array element defined without a value", `const a = new Uint8Array([7, 8]);
console.log(Reflect.defineProperty(a, 0, {}), Reflect.defineProperty(a, 5, {}), Reflect.defineProperty(a, 0, { get() {} }), Reflect.defineProperty(a, 1, { value: 9 }));
console.log(Object.defineProperty(a, 0, function () {})[0], Object.defineProperties(a, { 1: {} })[1]);
try { Object.defineProperty(a, 0, { configurable: false }) } catch (e) { console.log(e.name) }`,
			[]string{"true false false true", "7 9", "TypeError"}, ""},
	})
}
