package js_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// goInternals is what must never reach a snippet (issue 22): a Go panic's
// text, a Go symbol or source position, our module path.
var goInternals = regexp.MustCompile(`github\.com/|\.go:\d|\bruntime\.[a-zA-Z]|goroutine \d|invalid memory address|nil pointer|index out of range|interface conversion|\bpanic\(|playground-dev`)

// builtinFuzz is the snippet FuzzBuiltins runs: it walks the global object
// of a fresh runtime (and every function's prototype, two levels deep),
// collects every function (values, getters, setters), and makes
// input.count calls chosen by input.seed, each with a hostile `this` and
// hostile arguments (objects without the fields a built-in expects,
// Proxies whose traps throw, revoked Proxies, getters that throw, huge and
// negative numbers, negative lengths, symbols, BigInts), as a call or a
// construct. Every error it catches, and every rejection, is checked for Go
// internals; it prints what it found. Skipped: the timers (a hostile
// callback would keep the run alive), and Intl and what formats through it
// (toLocale*String, localeCompare, Intl's errors are issue 23's, in
// progress elsewhere). Lengths stay ≤ 1e5 and numbers are either small or
// past every valid length (2**53, 1e308): a built-in that loops to a huge
// length cannot be interrupted in process (the worker's watchdog and
// deadline, tested in package sandbox, stop those).
const builtinFuzz = `import { input, host } from "playground";
// Reference what the runtime installs lazily, so the walk sees it.
const installed = [crypto, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, Event, EventTarget, structuredClone, performance, atob, btoa, console];
let s = input.seed >>> 0;
const rnd = (n) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % n; };
const skipNames = /^(setTimeout|setInterval|setImmediate|queueMicrotask|clearTimeout|clearInterval|Intl|toLocaleString|toLocaleDateString|toLocaleTimeString|toLocaleUpperCase|toLocaleLowerCase|localeCompare)$/;
const fns = [];
const seen = new Set();
function walk(o, path, depth) {
  if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o) || depth > 3) return;
  seen.add(o);
  for (const k of Reflect.ownKeys(o)) {
    if (typeof k === "string" && skipNames.test(k)) continue;
    const d = Reflect.getOwnPropertyDescriptor(o, k);
    const name = path + "." + String(k);
    for (const f of [d.value, d.get, d.set]) {
      if (typeof f === "function" && !seen.has(f)) {
        fns.push([name, f, o]);
        walk(f, name, depth + 1);
      }
    }
    if (d.value !== null && typeof d.value === "object") walk(d.value, name, depth + 1);
  }
}
walk(globalThis, "globalThis", 0);
const revocable = Proxy.revocable({}, {});
revocable.revoke();
const thrower = (what) => () => { throw new Error(what); };
const shapes = [
  () => undefined, () => null, () => ({}), () => [], () => -1, () => -0, () => 0, () => 1, () => 2 ** 53, () => -(2 ** 53), () => 1e308,
  () => Infinity, () => -Infinity, () => NaN, () => Symbol("hostile"), () => 10n, () => -(2n ** 70n), () => "", () => "x".repeat(1000), () => "SHA-256",
  () => ({ length: -1 }), () => ({ length: 100000 }), () => ({ length: "x" }),
  () => ({ get name() { throw new Error("getter"); }, get length() { throw new Error("getter"); }, get then() { throw new Error("getter"); } }),
  () => new Proxy({}, { get: thrower("trap"), has: thrower("trap"), ownKeys: thrower("trap"), getPrototypeOf: thrower("trap"), getOwnPropertyDescriptor: thrower("trap") }),
  () => new Proxy(function () {}, { apply: thrower("trap"), construct: thrower("trap"), get: thrower("trap") }),
  () => revocable.proxy, () => Object.create(null),
  () => ({ [Symbol.toPrimitive]: thrower("toPrimitive") }), () => ({ valueOf() { return {}; }, toString() { return {}; } }),
  () => ({ [Symbol.iterator]: thrower("iterator") }), () => { let n = 0; return { [Symbol.iterator]() { return { next: () => ({ done: n++ > 3, value: 1 }) }; }, length: 3 }; },
  () => function () {}, () => thrower("callback"), () => new Uint8Array(4), () => new Float64Array(2), () => new ArrayBuffer(8), () => new DataView(new ArrayBuffer(4)),
  () => ({ then: thrower("then") }), () => [1, [2, [3]]], () => new Date(NaN), () => /x/g, () => new Map([[1, 2]]), () => new Set([1]),
  () => ({ name: {} }), () => ({ name: Symbol("n") }), () => ({ name: "SHA-1", length: -5 }), () => new Error("e"), () => { const p = Promise.reject(new Error("r")); p.catch(() => {}); return p; },
];
const desc = (v) => { try { return typeof v === "symbol" ? "symbol" : typeof v === "bigint" ? v + "n" : typeof v === "string" ? JSON.stringify(v.slice(0, 20)) + "(" + v.length + ")" : (v === null || typeof v !== "object" && typeof v !== "function") ? String(v) : "[" + Object.keys(v).slice(0, 5).join(",") + "]" + (Array.isArray(v) ? "array" : typeof v); } catch (e) { return "(hostile)"; } };
const pick = () => { try { return shapes[rnd(shapes.length)](); } catch (e) { return undefined; } };
const leaks = [];
const check = (where, e) => {
  let text = "";
  try {
    text = (e !== null && (typeof e === "object" || typeof e === "function")) ? String(Reflect.get(e, "message")) + "\n" + String(Reflect.get(e, "stack")) : String(e);
  } catch (x) {
    text = "";
  }
  if (GO.test(text)) leaks.push(where + ": " + text.slice(0, 500));
};
const GO = new RegExp(input.pattern);
let calls = 0;
for (let i = 0; i < input.count && fns.length > 0; i++) {
  const [name, f, holder] = fns[rnd(fns.length)];
  const self = rnd(3) === 0 ? holder : pick();
  const args = [];
  for (let n = rnd(4); n > 0; n--) args.push(pick());
  const construct = rnd(4) === 0;
  const where = name + (construct ? " (new)" : "") + " #" + i;
  if (input.trace) host.trace(where + " this=" + desc(self) + " args=" + args.map(desc).join(", "));
  try {
    calls++;
    const r = construct ? Reflect.construct(f, args) : Reflect.apply(f, self, args);
    if (r instanceof Promise) r.then(undefined, (e) => check(where + " (rejection)", e));
  } catch (e) {
    check(where, e);
  }
}
console.log("CALLS " + calls + " OF " + fns.length);
console.log("LEAKS " + JSON.stringify(leaks));
`

var traceBuiltins = flag.Bool("trace-builtins", false, "FuzzBuiltins: log each call before it is made")

// FuzzBuiltins calls every installed built-in with hostile arguments
// (builtinFuzz) and requires that no Go panic, Go symbol or module path
// reaches the snippet: not in an error it catches, a rejection, its
// output, nor the run's own errors and stacks (issue 22). The seed corpus
// runs with every go test; CI fuzzes a fixed count (scripts/test.sh).
func FuzzBuiltins(f *testing.F) {
	for _, seed := range []uint32{1, 2, 3, 22, 1 << 31, 0xdeadbeef} {
		f.Add(seed)
	}
	h := jstest.New(f, jstest.Config{Host: map[string]jstest.HostFunc{"trace": func(args []json.RawMessage) (json.RawMessage, error) {
		fmt.Fprintf(os.Stderr, "CALL %s\n", args[0]) // at once: the call that never returns is the last one
		return nil, nil
	}}})
	f.Fuzz(func(t *testing.T, seed uint32) {
		in, _ := json.Marshal(map[string]any{"seed": seed, "count": 400, "pattern": goInternals.String(), "trace": *traceBuiltins})
		res, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", builtinFuzz), Input: in, Timeout: 2 * time.Second})
		var text []string
		for _, ev := range rec.Events() {
			text = append(text, ev.Text, string(ev.Value))
			if ev.Error != nil {
				text = append(text, ev.Error.Message, ev.Error.Stack)
			}
		}
		all := strings.Join(text, "\n")
		if m := goInternals.FindString(all); m != "" {
			i := strings.Index(all, m)
			t.Fatalf("seed %d: Go internals (%q) reached the snippet: …%s…", seed, m, all[max(i-600, 0):min(i+300, len(all))])
		}
		if res.Outcome != pipe.OutcomeOK && res.Outcome != pipe.OutcomeTimeout {
			t.Fatalf("seed %d: outcome %s %+v", seed, res.Outcome, rec.Errors())
		}
		for _, l := range rec.Logs() {
			if rest, ok := strings.CutPrefix(l, "LEAKS "); ok && rest != "[]" {
				t.Fatalf("seed %d: %s", seed, rest)
			}
		}
		if res.Outcome == pipe.OutcomeOK && !strings.Contains(fmt.Sprint(rec.Logs()), "CALLS 400") {
			t.Fatalf("seed %d: the snippet did not make its calls: %q", seed, rec.Logs())
		}
	})
}
