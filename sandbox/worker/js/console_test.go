package js_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// consoleSnippet exercises every console method, the format specifiers and
// the previews; hostile values (throwing getters, proxies, toString and
// toJSON overrides) must never run while formatting.
const consoleSnippet = `
class Point { x = 1; y = 2; }
class Secret { toString() { throw new Error("toString ran"); } toJSON() { throw new Error("toJSON ran"); } }
const hostile = { get boom() { throw new Error("getter ran"); }, ok: 1 };
const proxy = new Proxy({ a: 1 }, { get() { throw new Error("trap ran"); }, ownKeys() { throw new Error("trap ran"); } });
const circ: any = { name: "root", child: { list: [1] } };
circ.child.parent = circ;
const sparse = [1, , , 4];
sparse[10] = 11;
console.log("plain", 1, -0, NaN, Infinity, 12n, true, null, undefined, Symbol("s"));
console.info("%s is %d years and %i days, %f%%, %o %O %c!", "Ann", 42.9, 7.8, 1.5, [1], { a: { b: 2 } }, "color: red");
class Stack extends Array<number> {}
class Registry extends Map<string, unknown> {}
class Tags extends Set<string> {}
console.log("subclasses past the depth", [[[new Registry([["a", 1]]), new Tags(["x"]), Stack.of(1)]]], new (class extends Map<number, number> {})([[1, 2]]));
console.log("subclasses", Stack.from([1, 2]), new Registry([["a", { n: [1] }]]), new Registry(), new Tags(["x"]), [[new Registry([["deep", 1]])]], [[[Stack.of(1)]]]);
console.log("web", new URL("https://a.b/c?d=1#e"), new URLSearchParams("x=1&y=2"), new URLSearchParams("long=" + "v".repeat(80) + "&b=2"), new AbortController());
console.table(new Map<string, unknown>([["k1", { v: 1 }], ["k2", 2]]));
console.table(new Set(["a", "😀"]));
console.log("wide", ["😀", "a", "漢字", "b", "c", "d", "e", "ffffffffff", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"]);
console.log("boxed", Object(Symbol("s")), [Object(Symbol.iterator)], Object(1n), new String("ab"));
console.log("arguments", (function (..._: unknown[]) { return arguments; })(1, "a"), [[[(function () { return arguments; })()]]]);
console.log("%s and %s, %s %s %s", { a: { b: 1 }, s: "x" }, [1, [2, [3]]], new Map([[1, { m: 1 }]]), -0, 12n);
console.warn("objects", { a: 1, "b-c": [1, 2, { d: "x" }] }, new Point(), Object.create(null));
console.error("collections", new Map<any, any>([["k", 1], [{ o: 1 }, [2]]]), new Set([1, "two"]), sparse);
console.debug("special", new Date(0), /a+b/gi, new TypeError("bad"), function named() {}, () => 1, class K {});
console.log("hostile", hostile, proxy, new Secret(), circ);
const selfMap = new Map<any, any>(); selfMap.set(selfMap, [selfMap]);
const revocable = Proxy.revocable({}, {}); revocable.revoke();
console.log("cycles", selfMap, revocable.proxy, { get g() { return 1; }, set s(v: any) {}, get gs() { return 1; }, set gs(v: any) {} });
console.log("%d|%i|%f|%d|%i|%f|%d", 1.5, -0.5, "42.9abc", "x", 5n, true, { valueOf() { return 1; } });
console.log("extras", "abc".match(/b/), Object.assign([1, 2, 3, 4, 5, 6, 7], { tag: "t" }), Object.assign([], { k: 1 }));
class ValidationError extends Error {}
class Sub extends TypeError {}
console.log("subclasses", new ValidationError("v"), new Sub("s"), new DOMException("gone", "NotFoundError"));
console.log("long", "x".repeat(20), [..."abcdefghij"].map((c, i) => ({ [c]: i })).length);
console.assert(1 === 1, "not printed");
console.assert(false, "assertion %s", "message");
console.count(); console.count(); console.count("label"); console.countReset(); console.count();
console.group("group");
console.log("inside");
console.groupCollapsed();
console.log("deeper\nsecond line");
console.groupEnd();
console.groupEnd();
console.log("outside");
console.table([{ a: 1, b: "x" }, { a: 2, c: true }]);
console.table({ r1: { v: 1 }, r2: 5 });
console.table([[1, 2], [3, 4]], ["0"]);
console.table(42);
console.dir({ deep: { deeper: { deepest: { bottom: { floor: { more: 1 } } } } } });
console.time("t"); console.timeEnd("t"); console.timeLog("missing");
console.trace("where");
`

func TestConsoleGolden(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Deterministic: true, Files: files("src/main.ts", consoleSnippet)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	var b strings.Builder
	for _, ev := range rec.Events() {
		if ev.Kind != EventLog {
			continue
		}
		args, _ := json.Marshal(ev.Args)
		b.WriteString("== " + ev.Level + "\n" + ev.Text + "\n-- args " + string(args) + "\n")
	}
	got := b.String()
	for _, bad := range []string{"getter ran", "trap ran", "toString ran", "toJSON ran"} {
		if strings.Contains(got, bad) {
			t.Errorf("formatting ran snippet code: %q in the output", bad)
		}
	}
	golden := filepath.Join("testdata", "console.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./sandbox/worker/js -run TestConsoleGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("console output differs from %s (-want +got; -update to accept):\n%s", golden, diff)
	}
}

// TestDirDepthBounded: console.dir with depth null lays out at most
// maxDirDepth (100) levels; deeper nesting shows as cut there.
func TestDirDepthBounded(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "let o: any = {}; const root = o;\nfor (let i = 0; i < 500; i++) { o.a = { b: i }; o = o.a; }\nconsole.dir(root, { depth: null });")})
	logs := rec.Logs()
	if res.Outcome != OutcomeOK || len(logs) != 1 {
		t.Fatalf("outcome %s, %d logs; want one line", res.Outcome, len(logs))
	}
	if n := strings.Count(logs[0], "b: "); n != 100 || !strings.Contains(logs[0], "[Object]") {
		t.Errorf("%d levels shown (cut: %v); want 100 and [Object] past them", n, strings.Contains(logs[0], "[Object]"))
	}
}

// TestURLSearchParamsPreviewCapped: a URLSearchParams previews at most
// hello.limits' key count (100) of its entries and says how many more.
func TestURLSearchParamsPreviewCapped(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "console.log(new URLSearchParams(Array.from({ length: 102 }, (_, i) => ['k' + i, 'v'])));")})
	logs := rec.Logs()
	if res.Outcome != OutcomeOK || len(logs) != 1 || strings.Count(logs[0], " => ") != 100 || !strings.HasSuffix(logs[0], "'k99' => 'v',\n  ... 2 more items }") {
		t.Errorf("outcome %s, logs %q; want 100 entries and ... 2 more items", res.Outcome, logs)
	}
}

// TestConsoleStackInV8Layout checks that console.log(err.stack) prints as
// in Node: V8's frame lines at the user's positions, built-in frames left
// out, a TypeError from the snippet's own call in V8's words, at most ten
// frames; a string that only resembles a stack prints as it is.
func TestConsoleStackInV8Layout(t *testing.T) {
	p := newHarness(t, Config{})
	logs := runOK(t, p, Request{Files: files("main.ts", `function make() { return new Error("two\nlines"); }
console.log(make().stack);
const cfg: any = {};
const deep = (n: number): Error => (n ? deep(n - 1) : new Error("deep"));
try { cfg.load(); } catch (e) { console.error("%s", e.stack); }
console.log([1].map(() => new Error("in map").stack)[0]);
console.log(make().stack.split("\n").slice(0, 2).join("\n") + "\n\tat nothing:1:2(3)", "\n\tat main.ts:1:1");
`)})
	want := []string{
		"Error: two\nlines\n    at make (main.ts:1:26)\n    at main.ts:2:13", // Node 20's columns
		"TypeError: cfg.load is not a function\n    at main.ts:5:11",
		"Error: in map\n    at main.ts:6:27\n    at map (<anonymous>)\n    at main.ts:6:17",
		"Error: two\nlines\n\tat nothing:1:2(3) \n\tat main.ts:1:1",
	}
	if diff := cmp.Diff(want, logs); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	// 3,000 frames (a stack of ≈110 KiB in goja's layout) read and print as
	// V8's ten (Node 20: deep(3000).stack.length is 271); a string past
	// maxStackString is not looked at, and prints as it is.
	res, rec := run(t, p, Request{Files: files("main.ts", `function deep(n: number): Error { return n ? deep(n - 1) : new Error("deep"); }
const s = deep(3000).stack!;
console.log(s.length > 100_000, s);
const fake = "Error: x\n\tat file-mem:main.ts:1:1(0)\n" + "\tat file-mem:main.ts:1:1(0)\n".repeat(40_000);
console.log(fake.length > 1 << 20, fake === fake.trim() + "\n", fake.split("\n")[1]);
console.log(fake);`)})
	got := rec.Logs()
	if res.Outcome != OutcomeOK || len(got) != 3 || !strings.HasPrefix(got[0], "false Error: deep\n    at deep (main.ts:1:") || strings.Count(got[0], "\n    at ") != 10 {
		t.Errorf("outcome %s, first log %.200q; want ten frames, V8's default stackTraceLimit", res.Outcome, got)
	}
	if len(got) == 3 && (got[1] != "true true \tat file-mem:main.ts:1:1(0)" || !strings.HasPrefix(got[2], "Error: x\n\tat file-mem:main.ts:1:1(0)\n")) {
		t.Errorf("a string past maxStackString: %.100q, %.100q", got[1], got[2])
	}
}

// TestErrorMessageGetters checks that console.log reads the message getter
// of an error it prints, as Node's inspect does (zod's ZodError computes
// its message so): the line shows the message, not the accessor; a getter
// that throws makes console.log throw, as in Node; a getter's own
// console.log prints before the line; an error nested in another value shows the accessor.
func TestErrorMessageGetters(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `class Lazy extends Error {
  constructor(private issues: string[]) { super(); Object.defineProperty(this, "message", { get: () => this.issues.join("; "), enumerable: true, configurable: true }); this.name = "Lazy"; }
}
console.log(new Lazy(["a is required", "b too long"]));
class Proto extends Error { get message() { return "from the prototype"; } }
console.log("%s|", "x", new Proto());
class Throws extends Error { get message(): string { throw new RangeError("no message"); } }
try { console.log(new Throws()); console.log("not thrown"); } catch (e: any) { console.log("caught", e.message); }
class Chatty extends Error { get message() { console.log("inside the getter"); return "chatty"; } }
console.log(new Chatty());
console.log({ nested: new Lazy(["c"]) }.nested.message, [new Proto()].length);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	logs := rec.Logs()
	firstLines := make([]string, len(logs))
	for i, l := range logs {
		firstLines[i], _, _ = strings.Cut(l, "\n")
	}
	// A console line never runs a message getter (issue 22: building a
	// preview never runs snippet code): the error shows its accessor, and
	// what the getter would throw or print never happens.
	want := []string{
		"[Lazy] { issues: [ 'a is required', 'b too long' ], message: [Getter] }",
		"x| [Proto [Error]]",
		"[Throws [Error]]",
		"not thrown",
		"[Chatty [Error]]",
		"c 1",
	}
	if diff := cmp.Diff(want, firstLines); diff != "" {
		t.Errorf("first lines (-want +got):\n%s", diff)
	}
	res, rec = run(t, p, Request{Files: files("main.ts", `class Lazy extends Error { get message() { return "a is required"; } }
throw new Lazy();`)})
	if errs := rec.Errors(); res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "Lazy [Error]: a is required" || errs[0].Line != 2 || !strings.HasPrefix(errs[0].Stack, "Lazy [Error]: a is required\n    at main.ts:2:") {
		t.Errorf("uncaught: outcome %s, errors %+v; want the getter's message reported", res.Outcome, errs)
	}
	res, rec = run(t, p, Request{Timeout: 200 * time.Millisecond, Files: files("main.ts", `class Loops extends Error { get message(): string { for (;;) {} } }
setTimeout(() => { throw new Loops(); }, 0);`)})
	if res.Outcome != OutcomeTimeout {
		t.Errorf("an uncaught error whose message getter loops: outcome %s, errors %+v; want the run's timeout", res.Outcome, rec.Errors())
	}
	res, rec = run(t, p, Request{Timeout: 200 * time.Millisecond, Files: files("main.ts", `class Loops extends Error { get message(): string { for (;;) {} } }
console.log(new Proxy(new Loops(), {}));
console.log(new Loops());`)})
	if logs := rec.Logs(); res.Outcome != OutcomeOK || len(logs) != 2 || logs[0] != "[Loops [Error]]" || logs[1] != "[Loops [Error]]" {
		t.Errorf("outcome %s, logs %q; want both errors shown without running their looping getter", res.Outcome, logs)
	}
}
