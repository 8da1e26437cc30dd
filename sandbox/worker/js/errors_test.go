package js_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestUnhandledRejection(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "Promise.reject(new Error('nobody caught me'));\nsetTimeout(() => console.log('still running'), 10);")})
	errs := rec.Errors()
	if len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.Contains(errs[0].Message, "Uncaught (in promise) Error: nobody caught me") || errs[0].Line != 1 || errs[0].File != "main.ts" {
		t.Errorf("errors = %+v; want one RUNTIME_ERROR at main.ts:1", errs)
	}
	if res.Outcome != OutcomeError || len(rec.Logs()) != 0 {
		t.Errorf("outcome = %s, logs %q; want error and the pending timer dropped (the run ends, as Node's process does)", res.Outcome, rec.Logs())
	}
	// A handled rejection is not reported.
	res, rec = run(t, p, Request{Files: files("main.ts", "const p = Promise.reject(new Error('x'));\nawait null;\np.catch(() => console.log('handled'));")})
	if res.Outcome != OutcomeOK || len(rec.Errors()) != 0 || strings.Join(rec.Logs(), "|") != "handled" {
		t.Errorf("handled rejection: outcome %s, errors %+v, logs %q", res.Outcome, rec.Errors(), rec.Logs())
	}
}

func TestThrowInTimerCallback(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "setTimeout(() => {\n  throw new RangeError('in timer');\n}, 1);")})
	errs := rec.Errors()
	if res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "RangeError: in timer" || errs[0].Line != 2 {
		t.Errorf("outcome %s, errors %+v; want RangeError at main.ts:2", res.Outcome, errs)
	}
}

func TestThrownNonErrors(t *testing.T) {
	p := newHarness(t, Config{})
	for src, want := range map[string]string{
		"throw 42;":                  "42",
		"throw 'text';":              "text",
		"throw { code: 1 };":         "{ code: 1 }",
		"throw null;":                "null",
		"throw Object.create(null);": "{}",
		// Node's first line of a subclass's error (improveStack).
		"class E extends Error {}\nthrow new E('sub');":                           "E [Error]: sub",
		"class ValidationError extends Error {}\nthrow new ValidationError('v');": "ValidationError: v",
		"class Named extends Error { name = 'Named' }\nthrow new Named('n');":     "Named: n",
	} {
		_, rec := run(t, p, Request{Files: files("main.ts", src)})
		if errs := rec.Errors(); len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.Contains(errs[0].Message, want) {
			t.Errorf("%s: errors = %+v; want a RUNTIME_ERROR containing %q", src, errs, want)
		}
	}
}

// TestUncaughtEndsTheRun: an uncaught exception in a timer ends the run at
// once, as it ends Node's process: pending timers do not keep it
// alive until its deadline (9,990 here, under the 10,000 timer cap), and only
// the first error is reported.
func TestUncaughtEndsTheRun(t *testing.T) {
	p := newHarness(t, Config{})
	// Deterministic: the virtual clock does not move while the 9,990
	// timers are set (under the race detector that takes over a second of
	// wall time, which would make the late timers due first).
	res, rec := run(t, p, Request{Timeout: 30 * time.Second, Deterministic: true, Files: files("main.ts", `
for (let i = 0; i < 9990; i++) setTimeout(() => console.log("late", i), 1000 + i);
setTimeout(() => { throw new Error("first"); }, 1);
setTimeout(() => { throw new Error("second"); }, 2);
`)})
	errs := rec.Errors()
	if res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "Error: first" || len(rec.Logs()) != 0 {
		t.Errorf("outcome %s, errors %+v, logs %d; want error with only the first exception and no timer after it", res.Outcome, errs, len(rec.Logs()))
	}
	if res.End > time.Second {
		t.Errorf("the run's clock ended at %v; want it ended right after the throw", res.End)
	}
}

// TestInputAndHostFrozen: a module's input is frozen at every depth (a
// script gets a mutable copy instead), and host.kv is frozen like host.
func TestInputAndHostFrozen(t *testing.T) {
	p := newHarness(t, Config{Host: map[string]HostFunc{"kv.get": func([]json.RawMessage) (json.RawMessage, error) { return nil, nil }}})
	deep := strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000)
	res, rec := run(t, p, Request{Input: json.RawMessage(deep), Files: files("main.ts", `
import { input, host } from "playground";
"use strict";
let o: any = input, depth = 0;
while (typeof o.a === "object") { o = o.a; depth++; }
console.log(depth, Object.isFrozen(o), Object.isFrozen(host), Object.isFrozen((host as any).kv));
`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "|") != "2999 true true true" {
		t.Errorf("outcome %s logs %q errors %+v; want the deepest level and host.kv frozen", res.Outcome, rec.Logs(), rec.Errors())
	}
}

// TestCaptureStackTrace: an error class built with Error.captureStackTrace
// (Node's idiom) reports where it was thrown, in the user's file, without
// the constructor's frame, and its preview lists the user's frames.
func TestCaptureStackTrace(t *testing.T) {
	p := newHarness(t, Config{})
	src := `class AppError extends Error {
  constructor(msg: string) { super(msg); this.name = "AppError"; Error.captureStackTrace(this, AppError); }
}
function inner() {
  throw new AppError("not allowed");
}
try { inner(); } catch (e) { console.log(e); }
inner();`
	res, rec := run(t, p, Request{Files: files("src/main.ts", src)})
	errs := rec.Errors()
	if res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "AppError: not allowed" || errs[0].File != "src/main.ts" || errs[0].Line != 5 {
		t.Fatalf("outcome %s, errors %+v; want one AppError at src/main.ts:5", res.Outcome, errs)
	}
	logs := rec.Logs()
	if len(logs) != 1 || !strings.HasPrefix(logs[0], "AppError: not allowed\n    at inner (src/main.ts:5:") || strings.Contains(logs[0], ":2:") {
		t.Errorf("logs %q; want the stack from inner, without the constructor's line 2", logs)
	}
}

// TestUsingDisposes: `using` and `await using` (TypeScript 5.2, lowered by
// esbuild) dispose in reverse order with Node 20's Symbol.dispose and
// Symbol.asyncDispose, also when the block throws.
func TestUsingDisposes(t *testing.T) {
	p := newHarness(t, Config{})
	src := `class Res { constructor(public name: string) { console.log("open", name); } [Symbol.dispose]() { console.log("close", this.name); } }
class Conn { async [Symbol.asyncDispose]() { await null; console.log("async close"); } }
function work() { using a = new Res("a"); using b = new Res("b"); console.log("working"); return "done"; }
console.log(work());
try { using c = new Res("c"); throw new Error("fail inside"); } catch (e) { console.log("caught", (e as Error).message); }
{ await using d = new Conn(); console.log("using conn"); }
console.log(String(Symbol.dispose), String(Symbol.asyncDispose));`
	res, rec := run(t, p, Request{Files: files("main.ts", src)})
	want := "open a|open b|working|close b|close a|done|open c|close c|caught fail inside|using conn|async close|Symbol(nodejs.dispose) Symbol(nodejs.asyncDispose)"
	if got := strings.Join(rec.Logs(), "|"); res.Outcome != OutcomeOK || got != want {
		t.Errorf("outcome %s, logs %q; want %q (errors %+v)", res.Outcome, got, want, rec.Errors())
	}
}

// TestErrorClassReportsThrowSite: an error made by a class whose
// constructors call super(…) is reported where it was made, as Node
// reports it (V8 leaves the constructors out of the stack), also when the
// class is in another file and derives from another class; a class
// without its own constructor adds no frame to leave out.
func TestErrorClassReportsThrowSite(t *testing.T) {
	p := newHarness(t, Config{})
	errs := `export class Base extends Error {
  constructor(msg: string) { super(msg); this.name = new.target.name; }
}
export class HttpError extends Base {
  constructor(public status: number, msg: string) {
    super(msg);
  }
}
export class Plain extends Error {}
`
	for _, c := range []struct {
		main, file string
		line       int
		logs       string
	}{
		{"import { HttpError } from './errors';\nconsole.log('before');\nthrow new HttpError(404, 'Not Found');", "src/main.ts", 3, ""},
		{"import { HttpError } from './errors';\nfunction load() {\n  return new HttpError(500, 'boom');\n}\nconst e = load();\nconsole.log(e.stack.includes('errors'), e);\nthrow e;", "src/main.ts", 3, "at load (src/main.ts:3:"},
		{"import { Plain } from './errors';\n[1].forEach(() => {\n  throw new Plain('p');\n});", "src/main.ts", 3, ""},
		// A built-in error thrown while super's arguments are evaluated, or by
		// a built-in parent, keeps the constructor's frame (as V8's stack).
		{"class E extends Error {\n  constructor(o: any) {\n    super(o.message.toUpperCase());\n  }\n}\nnew E({});", "src/main.ts", 3, ""},
		{"class U extends URL {\n  constructor(s: string) {\n    super(s);\n  }\n}\nnew U('bad');", "src/main.ts", 3, ""},
	} {
		res, rec := run(t, p, Request{Files: files("src/main.ts", c.main, "src/errors.ts", errs)})
		got := rec.Errors()
		if res.Outcome != OutcomeError || len(got) != 1 || got[0].File != c.file || got[0].Line != c.line || strings.Contains(got[0].Stack, "errors.ts") {
			t.Errorf("%q: outcome %s, errors %+v; want one at %s:%d with no frame in errors.ts", c.main, res.Outcome, got, c.file, c.line)
		}
		if c.logs != "" {
			if logs := strings.Join(rec.Logs(), "|"); !strings.Contains(logs, c.logs) || strings.Contains(logs, "errors.ts") {
				t.Errorf("%q: logs %q; want the preview's stack from %q, without errors.ts", c.main, logs, c.logs)
			}
		}
	}
}

// TestUncaughtInV8Words: an uncaught TypeError from the snippet's own
// call or property read is worded as V8 words it (naming the callee as
// written), in its event and stack; one thrown inside a built-in keeps
// goja's words.
func TestUncaughtInV8Words(t *testing.T) {
	p := newHarness(t, Config{})
	for src, want := range map[string]string{
		"const g: any = undefined;\ng();":                                       "TypeError: g is not a function",
		"class S { run() { return (this as any).missing(); } }\nnew S().run();": "TypeError: this.missing is not a function",
		"const o: any = {};\no?.b();":                                           "TypeError: o?.b is not a function",
		"const o: any = { k: 1 };\no[\"k\"]();":                                 "TypeError: o.k is not a function",
		"const f = (): any => ({});\nf().x();":                                  "TypeError: f(...).x is not a function",
		"const x: any = 5;\nnew x();":                                           "TypeError: x is not a constructor",
		"const u: any = {};\nu.a.b;":                                            "TypeError: Cannot read properties of undefined (reading 'b')",
		"async function f() { const u: any = {}; return u.a.go(); }\nf();":      "Uncaught (in promise) TypeError: Cannot read properties of undefined or null (reading 'go')", // goja does not say which
		"[1].map(null as any);":                                                 "TypeError: Value is not an object: null",
		// The call that failed is the outer one of a chain.
		"const m: any = new Map();\nm.get('k')();":                        "TypeError: m.get(...) is not a function",
		"const f: any = () => undefined;\nf()();":                         "TypeError: f(...) is not a function",
		"function k(a: any) { return a; }\nconst o: any = {};\nk(o.a());": "TypeError: o.a is not a function",
		// Not a call's failure, or the snippet's own words: goja's kept.
		"console.log('a' in (undefined as any));":                                      "TypeError: Value is not an object: undefined",
		"throw new TypeError('Value is not an object: ' + 1);":                         "TypeError: Value is not an object: 1",
		"Promise.resolve().then(() => { throw new TypeError('Not a constructor'); });": "Uncaught (in promise) TypeError: Not a constructor",
	} {
		_, rec := run(t, p, Request{Files: files("main.ts", src)})
		errs := rec.Errors()
		if len(errs) != 1 || errs[0].Message != want || !strings.HasPrefix(errs[0].Stack, want+"\n") {
			t.Errorf("%q: errors %+v; want message %q", src, errs, want)
		}
	}
	// In script mode, on the entry's first line (behind the script's prefix).
	_, rec := run(t, p, Request{Mode: "script", Input: json.RawMessage(`{}`), Files: files("agent.js", "const z = input.missing(); output = z;")})
	if errs := rec.Errors(); len(errs) != 1 || errs[0].Message != "TypeError: input.missing is not a function" || errs[0].Line != 1 {
		t.Errorf("script: errors %+v; want input.missing is not a function at line 1", errs)
	}
}

// TestCaughtInV8Words checks the catch clauses' rewording at its edges: a
// binding named as the runtime's parameter, a nested function's local of
// that name, thrown non-errors and frozen errors, destructured bindings
// (left as goja's), and script mode's output.
func TestCaughtInV8Words(t *testing.T) {
	p := newHarness(t, Config{})
	logs := runOK(t, p, Request{Files: files("main.js", `
try { null.x } catch (__playground_runtime) { console.log("shadow", __playground_runtime.message) }
function f() { let __playground_runtime = 1; try { undefined.y } catch (e) { console.log("inner", e.message, __playground_runtime) } }
f();
try { throw "str" } catch (e) { console.log(e) }
try { throw Object.freeze(new TypeError("x")) } catch (e) { console.log(e.message) }
try { (void 0).z } catch ({ message }) { console.log(message) }
try { (void 0).w } catch { console.log("no binding") }
`)})
	want := []string{
		"shadow Cannot read properties of undefined (reading 'x')",
		"inner Cannot read properties of undefined (reading 'y') 1",
		"str",
		"x",
		"Cannot read property 'z' of undefined", // a destructured binding is not reworded
		"no binding",
	}
	if !slices.Equal(logs, want) {
		t.Errorf("logs:\n%q\nwant\n%q", logs, want)
	}
	res, _ := run(t, p, Request{Mode: "script", Input: json.RawMessage(`{}`), Files: files("agent.js", `
try { input.missing.deep } catch (e) { output = { error: e.message } }`)})
	if got, _ := json.Marshal(res.Output); res.Outcome != OutcomeOK || string(got) != `{"error":"Cannot read properties of undefined (reading 'deep')"}` {
		t.Errorf("script mode: outcome %s, output %s", res.Outcome, got)
	}
}

// TestUncaughtReportShowsCauseAndProps checks that the report of an
// uncaught error ends, as Node's does, with its own properties and its
// [cause] in braces after the stack, thrown or rejected.
func TestUncaughtReportShowsCauseAndProps(t *testing.T) {
	p := newHarness(t, Config{})
	for _, c := range []struct{ src, want string }{
		{`throw new Error("outer failure", { cause: new TypeError("bad input") });`,
			"Error: outer failure\n    at main.ts:1:7 {\n  [cause]: TypeError: bad input\n      at main.ts:1:43\n}"},
		{`const e: any = new Error("HTTP 500"); e.status = 500; e.body = { msg: "oops" };
Promise.reject(e);`,
			"Uncaught (in promise) Error: HTTP 500\n    at main.ts:1:16 {\n  status: 500,\n  body: { msg: 'oops' }\n}"},
		{`throw new RangeError("plain");`, "RangeError: plain\n    at main.ts:1:7"},
		{`const e: any = new Error("self"); e.self = e; throw e;`, "Error: self\n    at main.ts:1:16 {\n  self: [Circular *1]\n}"},
	} {
		_, rec := run(t, p, Request{Files: files("main.ts", c.src)})
		if errs := rec.Errors(); len(errs) != 1 || errs[0].Stack != c.want {
			t.Errorf("%s\nerrors %+v\nwant stack %q", c.src, errs, c.want)
		}
	}
}

// TestCaughtWordingsPastTheCache checks that caught errors are reworded
// past maxReworded distinct messages (the wordings kept per run), in a
// program that makes no TypeError of its own (the path that keeps them).
func TestCaughtWordingsPastTheCache(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.js", `
const o = {}; let good = 0, bad = "";
for (let i = 0; i < 1100; i++) {
  try { o.missing["p" + i]; } catch (e) {
    if (e.message === "Cannot read properties of undefined (reading 'p" + i + "')") good++; else bad = e.message;
  }
}
console.log(good, bad);`)})
	if got := rec.Logs(); res.Outcome != OutcomeOK || len(got) != 1 || got[0] != "1100 " {
		t.Errorf("outcome %s, logs %q; want all 1,100 reworded", res.Outcome, got)
	}
}
