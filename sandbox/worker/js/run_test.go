package js_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRunSyntaxErrorPointsAtFile(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files(
		"src/main.ts", "import { x } from './b';\nconsole.log(x);\n",
		"src/b.ts", "export const x = 1;\nexport const y = (;\n")})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome = %s; want error", res.Outcome)
	}
	errs := rec.Errors()
	if len(errs) != 1 {
		t.Fatalf("errors = %+v; want one", errs)
	}
	if e := errs[0]; e.Kind != KindSyntax || e.File != "src/b.ts" || e.Line != 2 || e.Column != 19 {
		t.Errorf("error = %+v; want SYNTAX_ERROR at src/b.ts:2:19", e)
	}
}

func TestRunRuntimeErrorMapped(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files(
		"src/main.ts", "import { f } from './a';\nf();\n",
		"src/a.ts", "import { g } from './b';\nexport function f() {\n  g();\n}\n",
		"src/b.ts", "export function g(): void {\n  const o: any = null;\n  throw new TypeError('boom ' + typeof o);\n}\n")})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome = %s; want error", res.Outcome)
	}
	errs := rec.Errors()
	if len(errs) != 1 {
		t.Fatalf("errors = %+v; want one", errs)
	}
	e := errs[0]
	if e.Kind != KindRuntime || e.Message != "TypeError: boom object" || e.File != "src/b.ts" || e.Line != 3 {
		t.Errorf("error = %+v; want RUNTIME_ERROR TypeError at src/b.ts:3", e)
	}
	if !strings.Contains(e.Stack, "src/a.ts:3:") || strings.Contains(e.Stack, "bundle") {
		t.Errorf("stack = %q; want user frames only, through src/a.ts:3", e.Stack)
	}
}

func TestFactsNestedAndDeleted(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import { facts } from "playground";
facts.todos = [];
facts.tmp = 1;
delete facts.tmp;
await null;
facts.todos.push("a");
await new Promise((r) => setTimeout(r, 1));
facts.todos.push("b");
facts.user = { name: "x" };
facts.user.name = "y";
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	var got []string
	for _, e := range rec.Events() {
		if e.Kind == EventFact {
			s := e.Key + "=" + string(e.Value)
			if e.Deleted {
				s += " (deleted)"
			}
			got = append(got, s)
		}
	}
	// Top-level sets are sent at once; nested mutations when the task ends.
	want := []string{`todos=[]`, `tmp=1`, `tmp=null (deleted)`, `todos=["a"]`, `user={"name":"x"}`, `todos=["a","b"]`, `user={"name":"y"}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("fact events = %q; want %q", got, want)
	}
	if string(res.Facts["todos"]) != `["a","b"]` || string(res.Facts["user"]) != `{"name":"y"}` || len(res.Facts) != 2 {
		t.Errorf("final facts = %v", res.Facts)
	}
}

func TestInputIsFrozen(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Input: json.RawMessage(`{"start":5,"list":[1]}`), Files: files("main.ts", `
import { input } from "playground";
"use strict";
let threw = false;
try { (input as any).list.push(2); } catch { threw = true; }
console.log(input.start, threw, Object.isFrozen(input.list));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	if got := rec.Logs(); len(got) != 1 || got[0] != "5 true true" {
		t.Errorf("logs = %q; want [5 true true]", got)
	}
}

func TestUnsettledTopLevelAwait(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `await new Promise(() => {});`)})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome %s; want error", res.Outcome)
	}
	if errs := rec.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Message, "never settled") {
		t.Errorf("errors = %+v", errs)
	}
}

func TestHostGlobalsAreAbsent(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `
console.log([typeof process, typeof require, typeof module, typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof Buffer, typeof setImmediate, typeof window].join(","));
console.log(typeof performance.now(), typeof setTimeout, typeof queueMicrotask);
process.exit(1);
`)})
	// Module mode (a file that calls require is detected as a script, see script_test.go).
	res2, rec2 := run(t, p, Request{Files: files("main.js", "const fs = require('fs');"), Mode: "module"})
	if errs := rec2.Errors(); res2.Outcome != OutcomeError || len(errs) != 1 || errs[0].Kind != KindSecurity || !strings.HasPrefix(errs[0].Message, "require is not available") {
		t.Errorf("require('fs'): %s %+v; want SECURITY_ERROR naming require", res2.Outcome, errs)
	}
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome %s; want error", res.Outcome)
	}
	logs := rec.Logs()
	// fetch is defined (issue 26): the server performs it under its policy,
	// and without one it rejects (webapi/fetch_test.go).
	if len(logs) != 2 || logs[0] != "undefined,undefined,undefined,function,undefined,undefined,undefined,undefined,undefined" || logs[1] != "number function function" {
		t.Errorf("logs = %q", logs)
	}
	errs := rec.Errors()
	if len(errs) != 1 || errs[0].Kind != KindSecurity || !strings.HasPrefix(errs[0].Message, "process is not available in the playground") || errs[0].Line != 4 {
		t.Errorf("errors = %+v; want SECURITY_ERROR naming process at line 4", errs)
	}
}

func TestDeterministicRunsAreIdentical(t *testing.T) {
	p := newHarness(t, Config{})
	src := `import { facts } from "playground";
facts.r = [Math.random(), Math.random()];
facts.start = Date.now();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, 5000));
const iv = setInterval(() => { facts.ticks = (facts.ticks ?? 0) + 1; if (facts.ticks === 3) clearInterval(iv); }, 1000);
await new Promise((r) => setTimeout(r, 3500));
console.log("elapsed", performance.now() - t0, new Date().toISOString(), Math.random());
export default { end: Date.now() };
`
	var streams []string
	for range 3 {
		var b strings.Builder
		start := time.Now()
		res, rec := run(t, p, Request{Deterministic: true, Timeout: 2 * time.Second, Files: files("main.ts", src)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
		}
		if time.Since(start) > 1500*time.Millisecond {
			t.Errorf("took %v; timers must advance virtual time instantly", time.Since(start))
		}
		for _, ev := range rec.Events() {
			j, _ := json.Marshal(ev)
			b.Write(j)
			b.WriteByte('\n')
		}
		out, _ := json.Marshal(res.Output)
		facts, _ := json.Marshal(res.Facts)
		b.Write(out)
		b.Write(facts)
		streams = append(streams, b.String())
	}
	if streams[0] != streams[1] || streams[1] != streams[2] {
		t.Errorf("deterministic runs differ:\n%s\n---\n%s", streams[0], streams[1])
	}
	if !strings.Contains(streams[0], `"text":"elapsed 8500 2024-01-01T00:00:08.500Z`) || !strings.Contains(streams[0], `"ticks":3`) {
		t.Errorf("stream = %s; want virtual time 8.5s and 3 interval ticks", streams[0])
	}
}

func TestFactsCoalesceRapidSets(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import { facts } from "playground";
for (let i = 0; i < 100000; i++) facts.n = i;
facts.other = "x";
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	var n []string
	for _, e := range rec.Events() {
		if e.Kind == EventFact && e.Key == "n" {
			n = append(n, string(e.Value))
		}
	}
	if len(n) == 0 || len(n) > 50 || n[0] != "0" || n[len(n)-1] != "99999" {
		t.Errorf("fact events for n: %d, first %v, last %v; want a few, from 0 to the final 99999", len(n), n[:min(1, len(n))], n[max(0, len(n)-1):])
	}
	if string(res.Facts["n"]) != "99999" {
		t.Errorf("final facts.n = %s", res.Facts["n"])
	}
}

func TestTimerCapAndFactsAfterTimeout(t *testing.T) {
	p := newHarness(t, Config{Limits: Limits{MaxTimers: 100}})
	_, rec := run(t, p, Request{Timeout: 100 * time.Millisecond, Files: files("main.ts", `
try { for (let i = 0; i < 1000; i++) setTimeout(() => {}, 1e6); } catch (e) { console.log(String(e)); }
`)})
	if logs := rec.Logs(); len(logs) != 1 || logs[0] != "RangeError: too many pending timers (limit 100)" {
		t.Errorf("logs = %q", logs)
	}
	res, _ := run(t, p, Request{Timeout: 300 * time.Millisecond, Files: files("main.ts", `
import { facts } from "playground";
facts.list = [];
setInterval(() => { facts.list.push(facts.list.length); }, 20);
`)})
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("outcome %s; want timeout", res.Outcome)
	}
	var list []int
	if err := json.Unmarshal(res.Facts["list"], &list); err != nil || len(list) < 3 {
		t.Errorf("facts after timeout = %s; want the list as it grew", res.Facts["list"])
	}
}

func TestEventLimit(t *testing.T) {
	p := newHarness(t, Config{Limits: Limits{MaxEvents: 50}})
	res, rec := run(t, p, Request{Files: files("main.ts", `
import { facts } from "playground";
for (let i = 0; i < 1000; i++) facts["k" + i] = i;
console.log("never");
`)})
	if res.Outcome != OutcomeOutputLimit {
		t.Fatalf("outcome %s; want output_limit past 50 events", res.Outcome)
	}
	n := 0
	for _, e := range rec.Events() {
		if e.Kind == EventFact {
			n++
		}
	}
	if n != 50 || len(rec.Logs()) != 0 {
		t.Errorf("%d fact events, logs %q; want exactly the first 50 facts", n, rec.Logs())
	}
	if errs := rec.Errors(); len(errs) != 1 || errs[0].Kind != KindOutputLimit {
		t.Errorf("errors = %+v; want one OUTPUT_LIMIT", errs)
	}
}

// TestUnrefTimers checks that a run ends when only unref'd timers are
// left, as a Node process exits, in real and virtual time, and that a
// top-level await on one is reported as never settled.
func TestUnrefTimers(t *testing.T) {
	p := newHarness(t, Config{})
	for _, deterministic := range []bool{false, true} {
		res, rec := run(t, p, Request{Deterministic: deterministic, Timeout: 2 * time.Second, Files: files("main.ts", `
setInterval(() => console.log("tick"), 100).unref();
const kept = setTimeout(() => console.log("kept"), 250);
kept.unref(); kept.ref();
setTimeout(() => console.log("never"), 60_000).unref();
`)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("deterministic %v: outcome %s: %+v", deterministic, res.Outcome, rec.Errors())
		}
		if got := strings.Join(rec.Logs(), ","); got != "tick,tick,kept" {
			t.Errorf("deterministic %v: logs %q; want two ticks, then the ref'd timer, then the end", deterministic, got)
		}
	}
	res, rec := run(t, p, Request{Files: files("main.ts", `await new Promise((r) => setTimeout(r, 10).unref());`)})
	if errs := rec.Errors(); res.Outcome != OutcomeError || len(errs) != 1 || !strings.Contains(errs[0].Message, "top-level await never settled") {
		t.Errorf("outcome %s, errors %+v; want the unsettled top-level await", res.Outcome, errs)
	}
}

// TestTimerHandlesRefuseForgeries checks that only a real handle reaches
// a timer: Timeout methods on other objects, the constructor and
// clearTimeout of look-alikes throw or do nothing, and refresh counts
// against the pending-timer cap.
func TestTimerHandlesRefuseForgeries(t *testing.T) {
	p := newHarness(t, Config{Limits: Limits{MaxTimers: 2}})
	logs := runOK(t, p, Request{Files: files("main.ts", `
const t = setTimeout(() => console.log("fired"), 5);
const proto = Object.getPrototypeOf(t);
for (const f of [() => proto.refresh.call({}), () => proto.unref.call(1), () => new t.constructor(), () => proto[Symbol.toPrimitive].call(Object.create(null))]) {
  try { f(); console.log("no throw"); } catch (e) { console.log(e.name + ": " + e.message); }
}
const [key] = Object.getOwnPropertySymbols(t);
clearTimeout({ [key]: {} }); clearTimeout({}); clearTimeout("x"); clearTimeout(null);
try { t[key] = null; } catch (e) { console.log(e.name); }
const done = setTimeout(() => {
  setTimeout(() => {}, 50); setTimeout(() => {}, 50);
  try { done.refresh(); console.log("re-armed past the cap"); } catch (e) { console.log(e.message); }
}, 10);
`)})
	want := []string{
		"TypeError: Timeout.prototype.refresh called on an object that is not a Timeout",
		"TypeError: Timeout.prototype.unref called on an object that is not a Timeout",
		"TypeError: Illegal constructor",
		"TypeError: Timeout.prototype.[Symbol.toPrimitive] called on an object that is not a Timeout",
		"TypeError",
		"fired",
		"too many pending timers (limit 2)",
	}
	if !slices.Equal(logs, want) {
		t.Errorf("logs:\n%q\nwant\n%q", logs, want)
	}
}

// TestTimerDelaysAsNode checks the delays Node reads as 1 ms: none, NaN,
// negative, under 1 and past 2^31-1, for setTimeout and setInterval alike;
// such an interval ticks every millisecond, not in a busy loop.
func TestTimerDelaysAsNode(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Deterministic: true, Files: files("main.ts", `
const order: string[] = [];
setTimeout(() => order.push("1ms"), 1);
for (const d of [undefined, NaN, -5, 0.5, "x", 2 ** 31]) setTimeout(() => order.push(String(d)), d as any);
let ticks = 0;
const t0 = performance.now();
const iv = setInterval(() => { if (++ticks === 5) { clearInterval(iv); order.push("5 ticks in " + (performance.now() - t0) + " ms"); } }, NaN);
setTimeout(() => console.log(order.join(",")), 20);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	if got := strings.Join(rec.Logs(), "|"); got != "1ms,undefined,NaN,-5,0.5,x,2147483648,5 ticks in 5 ms" {
		t.Errorf("logs %q", got)
	}
}

// TestZeroDelayPollingAdvancesVirtualTime checks that in a deterministic
// run a zero-delay timer moves the virtual clock its 1 ms, as Node's
// does: a loop polling with setTimeout(f, 0) reaches a later timer.
func TestZeroDelayPollingAdvancesVirtualTime(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Deterministic: true, Timeout: time.Second, Files: files("main.ts", `
let done = false;
setTimeout(() => (done = true), 5);
const t0 = Date.now();
(function spin() { if (!done) setTimeout(spin, 0); else console.log("ok after", Date.now() - t0, "ms"); })();
`)})
	if got := strings.Join(rec.Logs(), "|"); res.Outcome != OutcomeOK || got != "ok after 5 ms" {
		t.Errorf("outcome %s, logs %q; want the poll to see the 5 ms timer fire", res.Outcome, got)
	}
}

// A run stopped inside a task still ends with the nested changes that task
// made before the stop: the final flush scans again (a run that ends by
// itself was scanned by its last task end, and is not).
func TestFactsNestedBeforeTimeout(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Timeout: 200 * time.Millisecond, Files: files("main.ts", `
import { facts } from "playground";
facts.a = { n: 1 };
await new Promise((r) => setTimeout(r, 0)); // a task end scans the facts
facts.a.n = 2;
facts.a.m = [1];
for (;;) {}
`)})
	if res.Outcome != OutcomeTimeout {
		t.Fatalf("outcome %s %+v; want timeout", res.Outcome, rec.Errors())
	}
	if got := string(res.Facts["a"]); got != `{"n":2,"m":[1]}` {
		t.Errorf("final facts.a = %s; want the change made before the stop", got)
	}
}
