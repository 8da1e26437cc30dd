package js_test

import (
	"strings"
	"testing"
)

// TestDeepRecursion: runaway recursion ends as a RangeError runtime error
// pointing at the recursing line, not as a crash; the output before it is
// kept and the worker serves the next run. (goja makes its stack overflow
// uncatchable by try/catch; see SetMaxCallStackSize.)
func TestDeepRecursion(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `console.log("before");
function f(n: number): number {
  return f(n + 1) + 1;
}
f(0);
`)})
	if res.Outcome != OutcomeError {
		t.Fatalf("outcome = %s; want error", res.Outcome)
	}
	if logs := rec.Logs(); len(logs) != 1 || logs[0] != "before" {
		t.Errorf("logs = %q; want [before]", logs)
	}
	errs := rec.Errors()
	if len(errs) != 1 || errs[0].Kind != KindRuntime || errs[0].Message != "RangeError: Maximum call stack size exceeded" || errs[0].File != "main.ts" || errs[0].Line != 3 {
		t.Fatalf("errors = %+v; want one RUNTIME_ERROR RangeError at main.ts:3", errs)
	}
	if !strings.Contains(errs[0].Stack, "more frames") {
		t.Errorf("stack = %q; want it capped", errs[0].Stack)
	}
	next, rec := run(t, p, Request{Files: files("main.ts", "console.log('next')")})
	if next.Outcome != OutcomeOK {
		t.Errorf("next run: %s %+v", next.Outcome, rec.Errors())
	}
}

// TestBundleTargetRunsInGoja pins Target: code using the newest syntax of
// that ECMAScript level passes through esbuild untouched and runs in goja.
func TestBundleTargetRunsInGoja(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `
class A { #p = 1; static s = 2; static { A.s = 3; } get p() { return this.#p; } has(o: object) { return #p in o; } }
const o: { a?: { b?: number } } = {};
const big = 2n ** 64n;
const g = /(?<year>\d{4})/.exec("in 2024")?.groups?.year;
const at = [1, 2, 3].at(-1);
const own = Object.hasOwn({ x: 1 }, "x");
let n = null; n ??= 5;
const e = new Error("outer", { cause: "inner" });
async function* gen() { yield 1; yield 2; }
let sum = 0; for await (const v of gen()) sum += v;
console.log(new A().p, A.s, new A().has(new A()), o.a?.b ?? "none", String(big), g, at, own, n, e.cause, sum, 2 ** 10, [[1, [2]]].flat(2).length, "a-b".replaceAll("-", "+"));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s; errors %+v", res.Outcome, rec.Errors())
	}
	if got, want := rec.Logs(), "1 3 true none 18446744073709551616 2024 3 true 5 inner 3 1024 2 a+b"; len(got) != 1 || got[0] != want {
		t.Errorf("logs = %q; want %q", got, want)
	}
}

// TestRecursionAsDeepAsNode: plain recursion goes as deep as Node 20's
// default stack allows for a small function (≈10,800 frames), so an
// algorithm written for Node (a recursive walk of a 10,000-node list)
// runs.
func TestRecursionAsDeepAsNode(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `type Node = { next: Node | null };
let list: Node | null = null;
for (let i = 0; i < 10000; i++) list = { next: list };
function length(n: Node | null): number { return n === null ? 0 : 1 + length(n.next); }
console.log(length(list));`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "|") != "10000" {
		t.Errorf("outcome %s, logs %q, errors %+v; want 10000", res.Outcome, rec.Logs(), rec.Errors())
	}
}
