package js_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/playground-dev/playground/sandbox/pipe"
)

func echoHost() map[string]HostFunc {
	echo := func(args []json.RawMessage) (json.RawMessage, error) { return json.Marshal(args) }
	return map[string]HostFunc{"log": echo, "echo": echo, "kv.get": func([]json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`"v"`), nil }}
}

func callEvents(rec *recorder) []Event {
	var out []Event
	for _, e := range rec.Events() {
		if e.Kind == EventCall {
			out = append(out, e)
		}
	}
	return out
}

// A host function the operator exposes as a global runs as written
// (`await log("hello")`), is the same function as under host, and every
// call sends a pending event with its id and arguments before the event
// that settles it.
func TestHostGlobalsAndCallEvents(t *testing.T) {
	h := newHarness(t, Config{Host: echoHost(), Globals: []string{"log", "kv"}})
	res, rec := run(t, h, Request{Files: files("main.js", `
import { host } from "playground";
const a = await log("hello");
const [b, c] = await Promise.all([log({ n: 1 }), kv.get("k")]);
console.log(JSON.stringify(a), JSON.stringify(b), c, host.log === log, host.kv === kv, typeof echo);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	if got := strings.Join(rec.Logs(), "\n"); got != `["hello"] [{"n":1}] v true true undefined` {
		t.Errorf("logs = %q", got)
	}
	calls := callEvents(rec)
	type ev struct {
		id      int64
		pending bool
		name    string
		args    string
	}
	var got []ev
	for _, c := range calls {
		a, _ := json.Marshal(c.Args)
		got = append(got, ev{c.CallID, c.Pending, c.Name, string(a)})
		if !c.Pending && !c.OK {
			t.Errorf("call %d failed: %s", c.CallID, c.CallError)
		}
	}
	// Calls 2 and 3 start together; each settles after it started.
	want := []ev{{1, true, "log", `["hello"]`}, {1, false, "log", `["hello"]`}, {2, true, "log", `[{"n":1}]`}, {3, true, "kv.get", `["k"]`}}
	if len(got) != 6 || !slices.Equal(got[:4], want) {
		t.Fatalf("call events = %+v; want %+v then two settled", got, want)
	}
	settled := map[int64]bool{got[4].id: !got[4].pending, got[5].id: !got[5].pending}
	if !settled[2] || !settled[3] {
		t.Errorf("calls 2 and 3 did not settle: %+v", got[4:])
	}
}

// Anything JSON cannot carry is refused at the call with a clear error
// naming the argument and where inside it, and no call is made.
func TestHostCallRefusesNonJSON(t *testing.T) {
	made := 0
	h := newHarness(t, Config{Host: map[string]HostFunc{"log": func([]json.RawMessage) (json.RawMessage, error) { made++; return nil, nil }}, Globals: []string{"log"}})
	for _, tc := range []struct{ arg, want string }{
		{`() => 1`, `TypeError: host.log: argument 1 is or holds a function; a function cannot cross to the host`},
		{`{ a: { cb() {} } }`, `TypeError: host.log: argument 1 is or holds a function (at .a.cb)`},
		{`Symbol("s")`, `TypeError: host.log: argument 1 is or holds a symbol;`},
		{`[1, 2n]`, `TypeError: host.log: argument 1 is or holds a BigInt (at [1]); pass String(n) or Number(n)`},
		{`(() => { const o = { a: {} }; o.a.back = o; return o; })()`, `TypeError: host.log: argument 1 is or holds a cycle (an object that contains itself) (at .a.back)`},
		{`new Map([[1, 2]])`, `TypeError: host.log: argument 1 is or holds a Map; pass Object.fromEntries(map)`},
		{`{ s: new Set() }`, `TypeError: host.log: argument 1 is or holds a Set (at .s); pass [...set]`},
		{`new Proxy({}, { ownKeys() { console.log("trap ran"); return []; } })`, `TypeError: host.log: argument 1 is or holds a Proxy; a host call runs no traps`},
		{`{ get g() { console.log("getter ran"); return 1; } }`, `TypeError: host.log: argument 1 is or holds a getter (at .g)`},
		{`/re/`, `TypeError: host.log: argument 1 is or holds a RegExp;`},
		{`"x".repeat(9 * 1024 * 1024)`, `RangeError: host.log: argument 1 makes the call's arguments larger than 8388608 bytes`},
	} {
		res, rec := run(t, h, Request{Files: files("main.js", "try { await log(1, "+tc.arg+"); } catch (e) { console.log(String(e)); }")})
		logs := rec.Logs()
		want := strings.Replace(tc.want, "argument 1", "argument 2", 1)
		if res.Outcome != OutcomeOK || len(logs) != 1 || !strings.HasPrefix(logs[0], want) {
			t.Errorf("log(1, %s): %s %q; want %q…", tc.arg, res.Outcome, logs, want)
		}
		if len(callEvents(rec)) != 0 {
			t.Errorf("log(1, %s): a refused call sent call events", tc.arg)
		}
	}
	if made != 0 {
		t.Errorf("%d refused calls reached the host", made)
	}
}

// What JSON.stringify writes exactly crosses as it would.
func TestHostCallArgumentsAsJSON(t *testing.T) {
	h := newHarness(t, Config{Host: echoHost()})
	res, rec := run(t, h, Request{Files: files("main.js", `
import { host } from "playground";
class P { constructor() { this.x = 1; } get y() { return 2; } }
const r = await host.echo(undefined, NaN, -Infinity, new Date(0), { u: undefined, n: null, d: [1, , undefined] }, new P(), "é\u{1F600}", 2 ** 53, true);
console.log(JSON.stringify(r));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	want := `[null,null,null,"1970-01-01T00:00:00.000Z",{"n":null,"d":[1,null,null]},{"x":1},"é😀",9007199254740992,true]`
	if got := strings.Join(rec.Logs(), ""); got != want {
		t.Errorf("echoed %s; want %s", got, want)
	}
}

// In deterministic mode a call's time is on the virtual clock: two runs
// whose host calls take different wall times send identical events.
func TestDeterministicHostCalls(t *testing.T) {
	slow := 0
	h := newHarness(t, Config{Host: map[string]HostFunc{"time": func([]json.RawMessage) (json.RawMessage, error) {
		slow++
		time.Sleep(time.Duration(slow) * 3 * time.Millisecond)
		return json.RawMessage(`"t"`), nil
	}}})
	src := `import { host } from "playground";
await new Promise((r) => setTimeout(r, 100));
const a = await host.time();
console.log(a, Date.now(), performance.now());`
	var runs [2][]Event
	for i := range runs {
		res, rec := run(t, h, Request{Deterministic: true, Files: files("main.js", src)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
		}
		runs[i] = rec.Events()
	}
	a, _ := json.Marshal(runs[0])
	b, _ := json.Marshal(runs[1])
	if string(a) != string(b) {
		t.Errorf("deterministic runs differ:\n%s\n%s", a, b)
	}
	for _, e := range runs[0] {
		if e.Kind == EventCall && !e.Pending && e.Duration != 0 {
			t.Errorf("call duration %v on the virtual clock; want 0", e.Duration)
		}
	}
}

// Every global of the runtime, in both modes, is reserved: the parent's
// check of host globals (pipe.ReservedGlobals) refuses each of them.
func TestReservedGlobalsCoverTheRuntime(t *testing.T) {
	h := newHarness(t, Config{})
	for _, mode := range []string{pipe.ModeModule, pipe.ModeScript} {
		src := "export default Object.getOwnPropertyNames(globalThis);"
		if mode == pipe.ModeScript {
			src = "return Object.getOwnPropertyNames(globalThis);"
		}
		res, rec := run(t, h, Request{Mode: mode, Files: files("main.js", src)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("%s: outcome %s: %+v", mode, res.Outcome, rec.Errors())
		}
		var names []string
		if err := json.Unmarshal(res.Output, &names); err != nil || len(names) < 40 {
			t.Fatalf("%s: globals %s (%v)", mode, res.Output, err)
		}
		for _, n := range names {
			if !slices.Contains(pipe.ReservedGlobals, n) {
				t.Errorf("%s: global %q is not in pipe.ReservedGlobals", mode, n)
			}
		}
	}
}

// The facts snapshot is capped in bytes: the change that crosses the cap
// is not sent, the run ends output_limit, and done.facts holds the facts as
// they were before it.
func TestFactsBytesCap(t *testing.T) {
	h := newHarness(t, Config{Limits: Limits{MaxFactsBytes: 100}})
	res, rec := run(t, h, Request{Files: files("main.js", `
import { facts } from "playground";
facts.a = "x".repeat(40);
facts.list = [];
facts.list.push("y".repeat(20));
const tick = () => new Promise((r) => setTimeout(r, 0));
await tick(); // the nested change is flushed when the task ends
facts.list.push("z".repeat(40));
await tick();
console.log("never");
`)})
	if res.Outcome != OutcomeOutputLimit {
		t.Fatalf("outcome %s; want output_limit", res.Outcome)
	}
	errs := rec.Errors()
	if len(errs) != 1 || errs[0].Kind != KindOutputLimit || !strings.Contains(errs[0].Message, "facts limit (100 bytes") {
		t.Errorf("errors = %+v; want one OUTPUT_LIMIT naming the facts limit", errs)
	}
	got, _ := json.Marshal(res.Facts)
	if want := `{"a":"` + strings.Repeat("x", 40) + `","list":["` + strings.Repeat("y", 20) + `"]}`; string(got) != want {
		t.Errorf("facts = %s; want %s", got, want)
	}
	if len(rec.Logs()) != 0 {
		t.Errorf("logs %q after the cap", rec.Logs())
	}
}

// A library adapter reaches the run's facts through the registered symbol.
func TestFactsSymbol(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `
const f = globalThis[Symbol.for("playground.facts")];
f.n = 1; f.gone = true; delete f.gone;
import { facts } from "playground";
console.log(f === facts, Object.getOwnPropertySymbols(globalThis).includes(Symbol.for("playground.facts")));
`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "") != "true true" {
		t.Fatalf("outcome %s logs %q %+v", res.Outcome, rec.Logs(), rec.Errors())
	}
	if got, _ := json.Marshal(res.Facts); string(got) != `{"n":1}` {
		t.Errorf("facts %s", got)
	}
}

// Large arguments are sent once, in the pending event; the settled event
// names their size instead, so a call does not pay for them twice.
func TestLargeArgumentsSentOnce(t *testing.T) {
	h := newHarness(t, Config{Host: map[string]HostFunc{"log": func(args []json.RawMessage) (json.RawMessage, error) {
		return json.Marshal(len(args[0]))
	}}})
	res, rec := run(t, h, Request{Files: files("main.js", `import { host } from "playground";
console.log(await host.log("x".repeat(600000)));`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "") != "600002" {
		t.Fatalf("outcome %s logs %q %+v", res.Outcome, rec.Logs(), rec.Errors())
	}
	calls := callEvents(rec)
	if len(calls) != 2 || len(calls[0].Args) != 1 || len(calls[0].Args[0]) != 600002 || string(calls[1].Args[0]) != `{"$t":"more","count":600002}` {
		t.Errorf("call events: %d; pending args %d bytes, settled args %.80s", len(calls), len(calls[0].Args[0]), calls[1].Args)
	}
}

// A run builds the host object and the host globals only when its program
// may reach them (pay-per-use set-up, usage.go): by a global's name, by
// the "playground" module's host, or by any route that does not spell the
// name. Each route finds the same functions.
func TestHostGlobalsReachedEveryWay(t *testing.T) {
	h := newHarness(t, Config{Host: echoHost(), Globals: []string{"log", "kv"}})
	for _, c := range []struct{ name, src, want string }{
		{"by name", `console.log(typeof log, typeof kv.get, JSON.stringify(await log(1)))`, "function function [1]"},
		{"through the module", `import { host } from "playground"; console.log(typeof host.log, JSON.stringify(await host.echo(2)))`, "function [2]"},
		{"computed", `const k = "gol".split("").reverse().join(""); console.log(typeof globalThis[k], JSON.stringify(await globalThis[k](3)))`, "function [3]"},
		{"listed", `console.log(Object.getOwnPropertyNames(globalThis).filter((k) => k === "kv").length)`, "1"},
		{"eval", `console.log(typeof (0, eval)("kv"))`, "object"},
		{"not named", `console.log("plain")`, "plain"},
	} {
		res, rec := run(t, h, Request{Files: files("main.js", c.src)})
		if res.Outcome != OutcomeOK {
			t.Errorf("%s: outcome %s: %+v", c.name, res.Outcome, rec.Errors())
			continue
		}
		if got := strings.Join(rec.Logs(), "\n"); got != c.want {
			t.Errorf("%s: logs %q, want %q", c.name, got, c.want)
		}
	}
}

// TestOutputCapCountsEveryEvent: facts and host calls count against
// maxOutputBytes as logs do (pipe.OutputBytes, the pool's count), so a run
// that crosses the cap with them ends output_limit itself; before, only
// console text counted here and the pool killed the worker.
func TestOutputCapCountsEveryEvent(t *testing.T) {
	h := newHarness(t, Config{Host: echoHost(), Limits: Limits{MaxOutputBytes: 4 << 10}})
	for _, tc := range []struct{ name, src string }{
		{"facts", `import { facts } from "playground"; for (let i = 0; i < 1000; i++) facts["k" + i] = "x".repeat(50);`},
		{"host calls", `import { host } from "playground"; for (let i = 0; i < 200; i++) await host.echo("y".repeat(100));`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files("main.ts", tc.src), Timeout: 10 * time.Second})
			if res.Outcome != OutcomeOutputLimit {
				t.Fatalf("outcome %s (errors %+v); want output_limit", res.Outcome, rec.Errors())
			}
			if res.Stats.OutputBytes > 4<<10 {
				t.Errorf("stats.outputBytes %d past the 4 KiB cap", res.Stats.OutputBytes)
			}
		})
	}
}

// Facts and output are data: they arrive whole (no preview caps of 100
// keys, depth 5 or 10,000 characters), and a value larger than its limit
// ends the run output_limit instead of arriving cut.
func TestFactsAndOutputWhole(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `
import { facts } from "playground";
facts.list = Array.from({ length: 200 }, (_, i) => i);
facts.wide = Object.fromEntries(Array.from({ length: 150 }, (_, i) => ["k" + i, i]));
facts.deep = { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } };
facts.text = "t".repeat(20000);
export default { list: Array.from({ length: 300 }, (_, i) => i), text: "o".repeat(30000) };
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s %+v; want ok", res.Outcome, rec.Errors())
	}
	var facts struct {
		List []int           `json:"list"`
		Wide map[string]int  `json:"wide"`
		Deep json.RawMessage `json:"deep"`
		Text string          `json:"text"`
	}
	got, _ := json.Marshal(res.Facts)
	if err := json.Unmarshal(got, &facts); err != nil {
		t.Fatal(err)
	}
	if len(facts.List) != 200 || facts.List[199] != 199 || len(facts.Wide) != 150 || string(facts.Deep) != `{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}` || len(facts.Text) != 20000 {
		t.Errorf("facts cut: %d list items, %d keys, deep %s, %d characters", len(facts.List), len(facts.Wide), facts.Deep, len(facts.Text))
	}
	var out struct {
		List []int  `json:"list"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(res.Output, &out); err != nil || len(out.List) != 300 || len(out.Text) != 30000 {
		t.Errorf("output cut: %d items, %d characters (%v)", len(out.List), len(out.Text), err)
	}

	for name, src := range map[string]string{
		"fact over the facts limit":  `import { facts } from "playground"; facts.big = Array.from({ length: 1e5 }, (_, i) => i); console.log("after");`,
		"fact nested too deep":       `import { facts } from "playground"; let o = {}; const root = o; for (let i = 0; i < 2000; i++) o = o.x = {}; facts.deep = root;`,
		"sparse fact":                `import { facts } from "playground"; const a = []; a.length = 4e9; facts.sparse = a;`,
		"output over the output cap": `export default "x".repeat(9 << 20);`, // past the 8 MiB default
	} {
		res, rec := run(t, h, Request{Files: files("main.js", src)})
		if errs := rec.Errors(); res.Outcome != OutcomeOutputLimit || len(errs) != 1 || errs[0].Kind != KindOutputLimit || res.Output != nil {
			t.Errorf("%s: outcome %s, errors %+v, output %.40s; want output_limit with one OUTPUT_LIMIT error and no output", name, res.Outcome, errs, res.Output)
		}
		if _, ok := res.Facts["big"]; ok {
			t.Errorf("%s: the fact over the limit was sent", name)
		}
		if slices.Contains(rec.Logs(), "after") {
			t.Errorf("%s: the run went on past the facts limit", name)
		}
	}
}

// A run that holds a large fact and yields thousands of times is not
// spent re-encoding it after every task (the scans keep to a share of the
// run's time), and its final value arrives whole.
func TestLargeFactManyTasks(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", `
import { facts } from "playground";
facts.items = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: "item" + i }));
for (let i = 0; i < 3000; i++) await new Promise((r) => setTimeout(r, 0));
facts.items.push({ id: 3000, name: "last" });
console.log("done");
`), Timeout: 10 * time.Second})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s %+v; want ok", res.Outcome, rec.Errors())
	}
	var items []struct{ ID int }
	if err := json.Unmarshal(res.Facts["items"], &items); err != nil || len(items) != 3001 || items[3000].ID != 3000 {
		t.Errorf("items: %d (%v); want all 3001, the last pushed at the end", len(items), err)
	}
}
