package js_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStringifyAsNode runs JSON.stringify's differential corpus
// (testdata/stringify/cases.js: replacers, space, toJSON, boxed values,
// BigInt, proxies, getters, holes, cycles and their V8 messages, depth,
// lone surrogates…) and compares every line with Node 20's (cases.golden,
// recorded by `node cases.js > cases.golden`; TestCorpusGoldenIsFresh),
// in module and in script mode; corpusDeviations lists the lines that
// stay goja's, each with why.
func TestStringifyAsNode(t *testing.T) { runCorpus(t, "stringify", 140) }

// TestFlatAsNode runs Array.prototype.flat and flatMap's differential
// corpus (testdata/flat/cases.js: depths, holes, array-likes, proxies and
// their traps' order, species, cycles, depth, the mapper's arguments) as
// TestStringifyAsNode does.
func TestFlatAsNode(t *testing.T) { runCorpus(t, "flat", 60) }

// runCorpus runs testdata/dir/cases.js and compares its lines with
// cases.golden's, of which there must be at least least.
func runCorpus(t *testing.T, dir string, least int) {
	src, err := os.ReadFile("testdata/" + dir + "/cases.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/" + dir + "/cases.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n")
	if len(want) < least {
		t.Fatalf("%d cases; want at least %d", len(want), least)
	}
	h := newHarness(t, Config{})
	for _, mode := range []string{"module", "script"} {
		res, rec := run(t, h, Request{Files: files("main.js", string(src)), Mode: mode, Timeout: 20 * time.Second})
		if res.Outcome != OutcomeOK {
			t.Fatalf("%s: outcome %s, errors %+v", mode, res.Outcome, rec.Errors())
		}
		got := rec.Logs()
		if len(got) != len(want) {
			t.Errorf("%s: %d lines; want %d", mode, len(got), len(want))
		}
		for i := range min(len(got), len(want)) {
			w := want[i]
			name, _, _ := strings.Cut(w, " | ")
			if d, ok := corpusDeviations[dir+"/"+name]; ok {
				w = name + " | " + d.want
			}
			if got[i] != w {
				t.Errorf("%s:\n node:       %s\n playground: %s", mode, w, got[i])
			}
		}
	}
}

// corpusDeviations are the corpora's cases (dir/name) whose line is not
// Node's, with the playground's and why.
var corpusDeviations = map[string]struct{ reason, want string }{
	"stringify/stringifyNotConstructor": {"a caught error's message is goja's: V8's wording of a call (v8message.go) is given to uncaught errors only, where the call's source is read", `! TypeError: "Value is not a constructor"`},
}

// TestCorpusGoldenIsFresh re-records each corpus's cases.golden under
// Node and compares. Without node it skips, except where
// PLAYGROUND_REQUIRE_NPM is set (scripts/test.sh, CI), which installs it.
func TestCorpusGoldenIsFresh(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("PLAYGROUND_REQUIRE_NPM") != "" {
			t.Fatalf("PLAYGROUND_REQUIRE_NPM is set but %v", err)
		}
		t.Skip("node is not on PATH")
	}
	for _, dir := range []string{"stringify", "flat"} {
		cmd := exec.Command("node", "cases.js")
		cmd.Dir = "testdata/" + dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node testdata/%s/cases.js: %v", dir, err)
		}
		golden, err := os.ReadFile("testdata/" + dir + "/cases.golden")
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(golden) {
			t.Errorf("testdata/%s/cases.golden is stale: run `node cases.js > cases.golden` in sandbox/worker/js/testdata/%s", dir, dir)
		}
	}
}

// TestStringifyFlatHostile calls JSON.stringify with each of
// FuzzBuiltins' hostile shapes (builtinFuzz) as its value, nested in an
// object and an array, as its replacer and as its space, and with each
// pair as value and replacer; and Array.prototype.flat and flatMap with
// each pair as receiver and argument (nested in an array too): whatever
// they return or throw, no Go internals (goInternals) reach the snippet,
// and every call returns (the run ends ok). FuzzBuiltins' program names
// neither flat nor flatMap, so its runs keep goja's.
func TestStringifyFlatHostile(t *testing.T) {
	start := strings.Index(builtinFuzz, "const revocable")
	end := strings.Index(builtinFuzz, "const desc")
	if start < 0 || end < start {
		t.Fatal("builtinFuzz has no shapes")
	}
	src := `import { input } from "playground";
` + builtinFuzz[start:end] + `
const GO = new RegExp(input.pattern);
const leaks = [];
let calls = 0;
const check = (where, e) => {
  let text = "";
  try { text = typeof e === "object" && e !== null ? String(e.message) + "\n" + String(e.stack) : String(e); } catch (x) {}
  if (GO.test(text)) leaks.push(where + ": " + text.slice(0, 300));
};
const make = (i) => { try { return shapes[i](); } catch (e) { return undefined; } };
const tryCall = (where, ...args) => {
  calls++;
  try {
    const r = JSON.stringify(...args);
    if (typeof r !== "string" && r !== undefined) leaks.push(where + ": returned " + typeof r);
  } catch (e) { check(where, e); }
};
const tryFlat = (where, name, self, ...args) => {
  calls++;
  try {
    const r = Array.prototype[name].apply(self, args);
    if (!Array.isArray(r) && (r === null || typeof r !== "object")) leaks.push(where + ": returned " + typeof r);
  } catch (e) { check(where, e); }
};
for (let i = 0; i < shapes.length; i++) {
  tryCall("value " + i, make(i));
  tryCall("nested " + i, { a: make(i), b: [make(i)] }, null, 2);
  tryCall("replacer " + i, { a: 1, b: [1, { c: 2 }] }, make(i));
  tryCall("space " + i, { a: [1] }, null, make(i));
  for (let j = 0; j < shapes.length; j++) {
    tryCall("pair " + i + " " + j, { x: make(i) }, make(j), make(j));
    tryFlat("flat " + i + " " + j, "flat", make(i), make(j));
    tryFlat("flat nested " + i + " " + j, "flat", [make(i), [make(j)]], make(j));
    tryFlat("flatMap " + i + " " + j, "flatMap", make(i), make(j), make(i));
    tryFlat("flatMap mapped " + i + " " + j, "flatMap", [make(i), make(j)], (x) => x);
  }
}
console.log("CALLS " + calls + " LEAKS " + JSON.stringify(leaks));
`
	in, _ := json.Marshal(map[string]any{"pattern": goInternals.String()})
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.js", src), Input: in, Timeout: 20 * time.Second})
	var text []string
	for _, ev := range rec.Events() {
		text = append(text, ev.Text, string(ev.Value))
		if ev.Error != nil {
			text = append(text, ev.Error.Message, ev.Error.Stack)
		}
	}
	if m := goInternals.FindString(strings.Join(text, "\n")); m != "" {
		t.Fatalf("Go internals (%q) reached the snippet", m)
	}
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s, errors %+v", res.Outcome, rec.Errors())
	}
	logs := strings.Join(rec.Logs(), "\n")
	if !strings.HasPrefix(logs, "CALLS ") || !strings.HasSuffix(logs, " LEAKS []") {
		t.Fatalf("logs %q; want CALLS n LEAKS []", logs)
	}
}

// TestStringifyHostObjects: the run's own objects serialize as plain
// data: facts (a goja DynamicObject), input, and a Number subclass's
// instance (a Number object to ECMA-262).
func TestStringifyHostObjects(t *testing.T) {
	h := newHarness(t, Config{})
	got := runOK(t, h, Request{Files: files("main.js", `import { facts, input } from "playground";
facts.todos = ["a", { done: false }];
facts.n = 1.5;
console.log(JSON.stringify(facts));
console.log(JSON.stringify(input, null, 1));
class N extends Number {}
console.log(JSON.stringify([new N(5)]));
`), Input: []byte(`{"q":[1,"x",null]}`)})
	want := []string{`{"todos":["a",{"done":false}],"n":1.5}`, "{\n \"q\": [\n  1,\n  \"x\",\n  null\n ]\n}", "[5]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("logs %q; want %q", got, want)
	}
}
