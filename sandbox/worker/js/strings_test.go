package js_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestStringBuildingInARun: a script that builds a 1e5-line CSV with +=
// (quadratic in goja as written: over 30 s) finishes in a run's default
// time, with the same text, and its strings behave as strings
// everywhere a snippet can look (typeof, JSON, a fact, the output, a
// console line, an error's message).
func TestStringBuildingInARun(t *testing.T) {
	h := newHarness(t, Config{Limits: Limits{MaxOutputBytes: 8 << 20, MaxFactsBytes: 1 << 20}})
	code := `const { facts } = require("playground");
let csv = "id,name\n";
for (let i = 0; i < 1e5; i++) csv += i + ",Item " + i + "\n";
let md = "";
[1, 2, 3].forEach(r => { md += "| " + r + " |\n"; });
facts.md = md;
console.log(typeof csv, csv.length, md);
let e = "";
try { e += "x"; null.y; } catch (err) { e += err.message; }
output = { lines: csv.split("\n").length, last: csv.slice(-12), md, json: JSON.stringify({ md }), e };`
	res, rec := run(t, h, Request{Files: files("main.js", code), Mode: "script", Timeout: 20 * time.Second})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	var out struct {
		Lines    int
		Last, Md string
		JSON     string
		E        string
	}
	if err := json.Unmarshal(res.Output, &out); err != nil {
		t.Fatal(err)
	}
	md := "| 1 |\n| 2 |\n| 3 |\n"
	if out.Lines != 100002 || out.Last != ",Item 99999\n" || out.Md != md || out.JSON != `{"md":"| 1 |\n| 2 |\n| 3 |\n"}` {
		t.Errorf("output %+v", out)
	}
	if !strings.HasPrefix(out.E, "xCannot read properties of ") || !strings.HasSuffix(out.E, "(reading 'y')") {
		t.Errorf("caught message %q", out.E)
	}
	if got := string(res.Facts["md"]); got != `"| 1 |\n| 2 |\n| 3 |\n"` {
		t.Errorf("fact %s", got)
	}
	if logs := rec.Logs(); len(logs) != 1 || !strings.HasPrefix(logs[0], "string 1677788 | 1 |") {
		t.Errorf("logs %q", logs)
	}
}

// TestArrayLoopsInARun: for…of loops rewritten to indexed loops
// (rewrite.ArrayLoops) over the frozen input, an array built by the
// snippet, a string built by += inside the loop and a Map, in both modes,
// give what the loops as written give.
func TestArrayLoopsInARun(t *testing.T) {
	h := newHarness(t, Config{})
	code := `let csv = "";
const rows = input.rows;
for (const { id, v } of rows) csv += id + ":" + v + ";";
const seen = [];
outer: for (const x of Array.from({ length: 10 }, (_, i) => i)) {
  for (const y of [1, 2, 3, 4, 5]) { if (y > x) continue outer; seen.push(x * 10 + y); }
}
let m = 0;
for (const [k, n] of new Map([["a", 1], ["b", 2]])) m += n;
const fns = [];
for (let i of [0, 1, 2, 3, 4, 5]) fns.push(() => i);
`
	for _, mode := range []string{"script", "module"} {
		src := code + "output = { csv, seen: seen.length, m, fns: fns.map(f => f()).join() };"
		if mode == "module" {
			src = `import { input } from "playground";` + "\n" + code + "export default { csv, seen: seen.length, m, fns: fns.map(f => f()).join() };"
		}
		res, rec := run(t, h, Request{Files: files("main.js", src), Mode: mode,
			Input: json.RawMessage(`{"rows":[{"id":1,"v":"a"},{"id":2,"v":"b"},{"id":3,"v":"c"},{"id":4,"v":"d"},{"id":5,"v":"e"}]}`)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("%s: outcome %s: %+v", mode, res.Outcome, rec.Errors())
		}
		if got, want := string(res.Output), `{"csv":"1:a;2:b;3:c;4:d;5:e;","seen":35,"m":3,"fns":"0,1,2,3,4,5"}`; got != want {
			t.Errorf("%s: output %s, want %s", mode, got, want)
		}
	}
}
