package js_test

import (
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

func TestHugeLogThenAfter(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `console.log('x'.repeat(100 * 2 ** 20)); console.log('after')`), Timeout: 60 * time.Second})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s %+v", res.Outcome, rec.Errors())
	}
	logs := rec.Logs()
	if len(logs) != 2 || logs[1] != "after" || !strings.HasSuffix(logs[0], "... 104847600 more characters") || len(logs[0]) > 20000 {
		t.Errorf("logs %d: want a line cut with Node's mark, and after", len(logs))
	}
	if !res.Stats.Truncated {
		t.Error("stats.truncated false after a cut line")
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
