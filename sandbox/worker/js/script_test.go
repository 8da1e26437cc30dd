package js_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// startedMode returns the mode the started event announced.
func startedMode(rec *recorder) string {
	for _, e := range rec.Events() {
		if e.Kind == EventStarted {
			return e.Mode
		}
	}
	return ""
}

func jsonEqual(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("output = %s; want %s", gb, wb)
	}
}

// The documented examples of @memberjunction/code-execution, unchanged,
// with their inputData as input; expected outputs are Node 20's for the
// same code and packages (sandbox/libs/node_modules).
func TestScriptModeDocumentedExamples(t *testing.T) {
	h := newHarness(t, Config{})
	tests := []struct {
		name, code, input, want string
	}{
		{"sum and average", `
const values = input.values;
const sum = values.reduce((a, b) => a + b, 0);
const average = sum / values.length;
output = { sum, average };
`, `{"values":[10,20,30,40,50]}`, `{"sum":150,"average":30}`},
		{"lodash chain", `
const _ = require('lodash');
const result = _.chain(input.users)
    .groupBy('department')
    .map((users, dept) => ({ department: dept, count: users.length, avgAge: _.meanBy(users, 'age') }))
    .sortBy('count')
    .reverse()
    .take(2)
    .value();
output = result;
`, `{"users":[{"name":"A","department":"eng","age":30},{"name":"B","department":"eng","age":40},{"name":"C","department":"ops","age":50},{"name":"D","department":"hr","age":20},{"name":"E","department":"eng","age":20}]}`,
			`[{"department":"eng","count":3,"avgAge":30},{"department":"hr","count":1,"avgAge":20}]`},
		{"date-fns", `
const { format, addDays, differenceInDays } = require('date-fns');
const start = new Date(input.startDate);
const end = addDays(start, 30);
output = {
    start: format(start, 'yyyy-MM-dd'),
    end: format(end, 'yyyy-MM-dd'),
    days: differenceInDays(end, start)
};
`, `{"startDate":"2024-01-15T12:00:00"}`, `{"start":"2024-01-15","end":"2024-02-14","days":30}`},
		{"papaparse", `
const Papa = require('papaparse');
const parsed = Papa.parse(input.csvData, { header: true, dynamicTyping: true });
const total = parsed.data.reduce((s, row) => s + row.price * row.qty, 0);
output = { rows: parsed.data.length, total, first: parsed.data[0] };
`, `{"csvData":"item,price,qty\nwidget,2.5,4\ngadget,10,1"}`, `{"rows":2,"total":20,"first":{"item":"widget","price":2.5,"qty":4}}`},
		{"mathjs statistics", `
const math = require('mathjs');
const values = input.values;
output = {
    mean: math.mean(values),
    median: math.median(values),
    stdDev: math.std(values),
    variance: math.variance(values),
    min: math.min(values),
    max: math.max(values)
};
`, `{"values":[12,7,3,18,25,9]}`, `{"mean":12.333333333333334,"median":10.5,"stdDev":7.991662321861871,"variance":63.866666666666674,"min":3,"max":25}`},
		{"top-level return", `
if (!input.values.length) return { empty: true };
return { max: Math.max(...input.values) };
`, `{"values":[3,9,4]}`, `{"max":9}`},
		{"return wins over output", `output = 1; return 2;`, ``, `2`},
		{"input is a mutable copy", `input.values.push(4); input.extra = true; output = input;`, `{"values":[1]}`, `{"values":[1,4],"extra":true}`},
		{"top-level await", `const v = await new Promise(r => setTimeout(() => r(7), 1)); output = v * 6;`, ``, `42`},
		{"dynamic require", `const name = 'lodash'; const _ = require(name); return _.sum([1, 2]);`, ``, `3`},
		{"output set later", `setTimeout(() => { output = 'late'; }, 5);`, ``, `"late"`},
		{"top-level await and return", `const v = await new Promise(r => setTimeout(() => r(input.n), 1)); return v * 2;`, `{"n":21}`, `42`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files("script.js", tt.code), Input: json.RawMessage(tt.input),
				Timeout: time.Minute}) // the first mathjs run bundles its chunk: slow under -race
			if res.Outcome != OutcomeOK {
				t.Fatalf("outcome %s, errors %+v, logs %q", res.Outcome, rec.Errors(), rec.Logs())
			}
			if m := startedMode(rec); m != "script" {
				t.Errorf("started.mode = %q; want script (detected)", m)
			}
			jsonEqual(t, res.Output, tt.want)
		})
	}
}

func TestScriptModeExplicitAndDetection(t *testing.T) {
	h := newHarness(t, Config{})
	// Explicit script mode for code that detection would not flag.
	res, rec := run(t, h, Request{Files: files("a.js", "console.log(typeof input, typeof output, typeof require); 1;"), Mode: "script", Input: json.RawMessage(`{}`)})
	if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "|") != "object undefined function" || startedMode(rec) != "script" {
		t.Errorf("explicit script: %s %q mode %q %+v", res.Outcome, rec.Logs(), startedMode(rec), rec.Errors())
	}
	// Detection leaves modules and plain snippets alone.
	for _, src := range []string{
		`console.log("hello")`,
		`export default 1; const x = { output: 1 };`,
		`import _ from "lodash"; export default _.sum([1]);`,
		`function f() { return 1 } console.log(f())`,
		`let output = 3; console.log(output)`,
		`console.log(typeof module, typeof exports)`,
	} {
		_, rec := run(t, h, Request{Files: files("main.js", src)})
		if m := startedMode(rec); m != "module" {
			t.Errorf("%q ran as %q; want module", src, m)
		}
	}
	// Explicit module mode keeps require a host global.
	res, rec = run(t, h, Request{Files: files("main.js", "const fs = require('fs');"), Mode: "module"})
	if errs := rec.Errors(); res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Kind != KindSecurity || !strings.HasPrefix(errs[0].Message, "require is not available") {
		t.Errorf("module require: %s %+v", res.Outcome, errs)
	}
	// Two files are never detected as a script.
	_, rec = run(t, h, Request{Files: files("main.js", "output = 1", "b.js", ""), Entry: "main.js"})
	if m := startedMode(rec); m != "module" {
		t.Errorf("two files ran as %q", m)
	}
}

func TestScriptModeRequireErrors(t *testing.T) {
	h := newHarness(t, Config{})
	tests := []struct {
		name, code string
		kind       string
		contains   []string
		line, col  int
	}{
		{"node built-in", "const fs = require('fs');", "SECURITY_ERROR", []string{"Module 'fs' is not allowed", "lodash"}, 1, 20},
		{"node: prefix", "\nconst cp = require('node:child_process');", "SECURITY_ERROR", []string{"node:child_process"}, 2, 20},
		{"unknown", "const x = require('left-pad');", "SECURITY_ERROR", []string{"Module 'left-pad' is not allowed", "lodash", "date-fns"}, 1, 19},
		{"unknown subpath", "const x = require('lodash/fp');", "SECURITY_ERROR", []string{"Module 'lodash/fp' is not allowed", "lodash/<name>"}, 1, 19},
		{"dynamic built-in", "const m = 'os'; require(m);", "SECURITY_ERROR", []string{"Module 'os' is not allowed", "built-in", "lodash"}, 1, 0},
		{"dynamic unknown", "const m = 'nope'; require(m);", "SECURITY_ERROR", []string{"Module 'nope' is not allowed", "lodash"}, 1, 0},
		{"runtime error on line 1", "output = input.missing.deep;", "RUNTIME_ERROR", []string{"TypeError"}, 1, 0},
		{"syntax error on line 1", "output = ;", "SYNTAX_ERROR", nil, 1, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files("s.js", tt.code), Mode: "script", Input: json.RawMessage(`{}`)})
			errs := rec.Errors()
			if res.Outcome != OutcomeError || len(errs) != 1 {
				t.Fatalf("%s %+v", res.Outcome, errs)
			}
			e := errs[0]
			if string(e.Kind) != tt.kind || e.File != "s.js" || e.Line != tt.line {
				t.Errorf("error %+v; want %s at s.js:%d", e, tt.kind, tt.line)
			}
			if tt.col != 0 && e.Column != tt.col {
				t.Errorf("column %d; want %d (%+v)", e.Column, tt.col, e)
			}
			if e.Column > 20+len(tt.code) {
				t.Errorf("column %d is past the line: the script prefix leaked", e.Column)
			}
			for _, c := range tt.contains {
				if !strings.Contains(e.Message, c) {
					t.Errorf("message %q lacks %q", e.Message, c)
				}
			}
		})
	}
}
