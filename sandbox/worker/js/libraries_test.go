package js_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLibraries runs snippets that import every small library by name,
// twice: from chunks of the names they import, and from the whole
// libraries a worker precompiles (Libraries.Precompile), which must give
// the same answers.
func TestLibraries(t *testing.T) {
	for _, precompile := range []bool{false, true} {
		t.Run(map[bool]string{false: "chunks", true: "precompiled"}[precompile], func(t *testing.T) {
			testLibraries(t, newHarness(t, Config{Precompile: precompile}))
		})
	}
}

func testLibraries(t *testing.T, p *harness) {
	// A minute: the harness evaluates the libraries inside the run, where a
	// first import bundles its chunk (slow under -race); a worker does that
	// while bundling (Libraries.Warm).
	res, rec := run(t, p, Request{Timeout: time.Minute, Files: files("main.ts", `
import _ from "lodash";
import { chunk } from "lodash";
import { format, addDays } from "date-fns";
import { v4 as uuid, validate } from "uuid";
import Papa from "papaparse";
import { z } from "zod";
import { isEmail } from "validator";
import { jStat } from "jstat";
console.log(JSON.stringify(_.chunk([1, 2, 3], 2)), JSON.stringify(chunk([1, 2, 3], 2)), _.VERSION);
console.log(format(addDays(new Date(2024, 0, 30), 3), "yyyy-MM-dd"));
console.log(validate(uuid()));
console.log(JSON.stringify(Papa.parse("a,b\n1,2", { header: true }).data));
const User = z.object({ name: z.string(), age: z.number().int() });
console.log(User.safeParse({ name: "x", age: 1.5 }).success, User.parse({ name: "y", age: 2 }).name);
console.log(isEmail("a@b.co"), isEmail("a@b"), jStat.mean([1, 2, 3]));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	want := "[[1,2],[3]]|[[1,2],[3]]|4.18.1\n2024-02-02\ntrue\n[{\"a\":\"1\",\"b\":\"2\"}]\nfalse y\ntrue false 2"
	got := strings.ReplaceAll(strings.Join(rec.Logs(), "\n"), " ", "|")
	want = strings.ReplaceAll(want, " ", "|")
	if got != want {
		t.Errorf("logs:\n%s\nwant:\n%s", got, want)
	}
}

func TestOperatorLibraries(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("greeter.js", "export const greet = (n) => `hi ${n}`;\nexport default { version: 3 };\n")
	write("@acme/tools.mjs", "export function twice(x) { return x * 2; }\n")
	for _, precompile := range []bool{false, true} { // operator libraries are small: a worker precompiles them
		p := newHarness(t, Config{LibraryDir: dir, Precompile: precompile})
		res, rec := run(t, p, Request{Files: files("main.ts", `
import cfg, { greet } from "greeter";
import { twice } from "@acme/tools";
console.log(greet("op"), cfg.version, twice(21));
`)})
		if res.Outcome != OutcomeOK {
			t.Fatalf("precompile %v: outcome %s: %+v", precompile, res.Outcome, rec.Errors())
		}
		if got := rec.Logs(); len(got) != 1 || got[0] != "hi op 3 42" {
			t.Errorf("precompile %v: logs = %q", precompile, got)
		}
	}

}

// nodeCalls is run in script mode here and by Node 20 against the same
// packages; nodeOutput is what Node printed, recorded with
//
//	cd sandbox/libs && node -e "const input = {values: [10, 20, 30, 40, 50]}; let output;
//	  (function () { <nodeCalls> })(); console.log(JSON.stringify(output))"
const nodeCalls = `
const math = require('mathjs');
const { jStat } = require('jstat');
const validator = require('validator');
const v = input.values;
output = {
  mean: math.mean(v), median: math.median(v), std: math.std(v), variance: math.variance(v), min: math.min(v), max: math.max(v),
  nested: [math.mean([[1, 2], [3, 4]]), math.std([[1, 2], [3, 4]]), math.max([[1, 9], [3, 4]])],
  variadic: [math.mean(1, 2, 3, 4), math.median(3, 1, 4, 2), math.min(3, 1, 2), math.max(1, 5, 3)],
  normalized: [math.std(v, 'uncorrected'), math.variance(v, 'biased'), math.std(v, 'unbiased')],
  strings: math.mean(['1', '2', '4']),
  sum: math.sum(v), round: math.round(math.std([1.5, 2.25, 3.125]), 6),
  jstat: [jStat.mean(v), jStat.median(v), jStat.stdev(v), jStat.stdev(v, true), jStat.variance(v), jStat.normal.cdf(1.96, 0, 1), jStat.sum(v)],
  validator: [validator.isEmail('foo@bar.com'), validator.isEmail('nope@'), validator.isURL('https://example.org/a?b=c'), validator.isIP('127.0.0.1'), validator.isUUID('9b2d3f4c-8c1e-4f63-9a6e-2f1c7d3b5a10'), validator.isInt('42'), validator.normalizeEmail('Foo.Bar@GMAIL.com'), validator.escape('<a href="x">')],
};
`

const nodeOutput = `{"mean":30,"median":30,"std":15.811388300841896,"variance":250,"min":10,"max":50,"nested":[2.5,1.2909944487358056,9],"variadic":[2.5,2.5,1,5],"normalized":[14.142135623730951,166.66666666666666,15.811388300841896],"strings":2.3333333333333335,"sum":150,"round":0.813301,"jstat":[30,30,14.142135623730951,15.811388300841896,200,0.9750021048517796,150],"validator":[true,false,true,true,true,true,"foobar@gmail.com","&lt;a href=&quot;x&quot;&gt;"]}`

// TestNewLibrariesMatchNode: mathjs (tree-shaken: its number functions),
// jstat and validator give Node's results for the same calls.
func TestNewLibrariesMatchNode(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("agent.js", nodeCalls), Input: json.RawMessage(`{"values":[10,20,30,40,50]}`), Timeout: time.Minute})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	jsonEqual(t, res.Output, nodeOutput)
}

// TestLibraryImportForms: the ways a module imports a library all work,
// tree-shaken or whole: named imports (mathjs, validator, date-fns), a
// namespace used by member (date-fns), a namespace passed around (whole
// date-fns), a name outside mathjs/number (bignumber: the full ES modules),
// and the default export (validator's object, jstat's CommonJS exports,
// lodash's _ read by member: a chunk of lodash-es).
func TestLibraryImportForms(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Timeout: time.Minute, Files: files("main.ts", `
import { mean, median, std } from "mathjs";
import { bignumber, add } from "mathjs";
import { isEmail } from "validator";
import validator from "validator";
import * as df from "date-fns";
import * as all from "date-fns";
import jstatDefault, { jStat } from "jstat";
import _ from "lodash";
import { z } from "zod";
console.log(mean([1, 2, 3, 4]), median([5, 1, 3]), std([2, 4, 4, 4, 5, 5, 7, 9]));
console.log(add(bignumber("0.1"), bignumber("0.2")).toString());
console.log(isEmail("a@b.co"), validator.isEmail("x"), typeof validator.isURL);
console.log(df.format(df.addDays(new Date(2024, 0, 31), 1), "yyyy-MM-dd"), Object.keys(all).length > 200);
console.log(jStat.sum([1, 2]), jstatDefault.jStat === jStat);
console.log(JSON.stringify(_.groupBy([1.3, 2.1, 2.4], Math.floor)), _.sortBy([3, 1, 2]).join(), _.sum([1, 2]));
const User = z.object({ name: z.string(), age: z.number().int() });
console.log(User.safeParse({ name: "x", age: 1.5 }).success, User.parse({ name: "y", age: 2 }).name, Object.isExtensible(z));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	want := `2.5 3 2.138089935299395|0.3|true false function|2024-02-01 true|3 true|{"1":[1.3],"2":[2.1,2.4]} 1,2,3 3|false y false`
	if got := strings.Join(rec.Logs(), "|"); got != want {
		t.Errorf("logs %q; want %q", got, want)
	}
}

// TestImportMetaAndComputedImport: import.meta is the file's own object,
// and a dynamic import of a computed name rejects with a TypeError the
// snippet catches, naming the limitation; a literal one still loads.
func TestImportMetaAndComputedImport(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("src/main.ts", `
import { where } from "./lib/util.ts";
console.log(import.meta.url, import.meta.dirname, import.meta === import.meta, where());
const name = ["lo", "dash"].join("");
try {
  await import(name);
} catch (e) {
  console.log(e instanceof TypeError, e.message.includes("string literal"));
}
const _ = await import("lodash");
console.log(_.default.sum([1, 2]));
`, "src/lib/util.ts", "export const where = () => import.meta.filename;\n")})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	want := "file:///src/main.ts /src true /src/lib/util.ts|true true|3"
	if got := strings.Join(rec.Logs(), "|"); got != want {
		t.Errorf("logs %q; want %q", got, want)
	}
}

// TestMissingLibraryExport: importing a name a library does not export is
// a bundle-time error naming it, tree-shaken or not.
func TestMissingLibraryExport(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Files: files("main.ts", "import { notAThing } from 'mathjs';\nconsole.log(notAThing);\n")})
	errs := rec.Errors()
	if res.Outcome != OutcomeError || len(errs) == 0 || !strings.Contains(errs[0].Message, "notAThing") {
		t.Errorf("outcome %s, errors %+v; want an error naming notAThing", res.Outcome, errs)
	}
}

// TestUUIDHexTable: uuid's byte-to-hex table, written out by the generate
// step instead of built by a loop (libs/gen.go hexTable), maps every byte:
// stringify(bytes) is the lowercase hex of each of the 256 values, in the
// module's chunk and in the whole package (require).
func TestUUIDHexTable(t *testing.T) {
	p := newHarness(t, Config{})
	const check = `
const want = [];
for (let b = 0; b < 256; b++) { // every byte value, where a UUID v4 leaves bytes free
  const bytes = Uint8Array.from({ length: 16 }, () => b);
  bytes[6] = 0x40 | (b & 0x0f);
  bytes[8] = 0x80 | (b & 0x3f);
  const hex = Array.from(bytes, (x) => x.toString(16).padStart(2, "0")).join("");
  want.push(hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20));
  if (stringify(bytes) !== want[want.length - 1]) throw new Error("byte " + b + ": " + stringify(bytes));
}
console.log(want.length, want[255]);
`
	for name, head := range map[string]string{
		"chunk": `import { stringify } from "uuid";`,
		"whole": `const { stringify } = require("uuid"); const _keep = require("uuid");`,
	} {
		res, rec := run(t, p, Request{Timeout: time.Minute, Files: files("main.js", head+check)})
		if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), "|") != "256 ffffffff-ffff-4fff-bfff-ffffffffffff" {
			t.Errorf("%s: %s %q %+v", name, res.Outcome, rec.Logs(), rec.Errors())
		}
	}
}

// TestLibrarySubpaths: the subpath imports Node code writes (lodash's
// per-method modules, date-fns's per-function modules, validator's lib/,
// zod/v4) run as in Node, also required in script mode; a subpath the
// playground does not serve (date-fns/fp) is a BUNDLE_ERROR that says
// which it does. date-fns/locale is locales_test.go's.
func TestLibrarySubpaths(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", `import groupBy from "lodash/groupBy";
import sortBy from "lodash/sortBy.js";
import { addDays } from "date-fns/addDays";
import format from "date-fns/format";
import isEmail from "validator/lib/isEmail";
import { z } from "zod/v4";
console.log(groupBy([1.2, 1.5, 2.1], Math.floor), sortBy([3, 1, 2]));
console.log(format(addDays(new Date(0), 1), "yyyy-MM-dd"), isEmail("a@b.co"), z.string().parse("ok"));`)})
	want := "{ '1': [ 1.2, 1.5 ], '2': [ 2.1 ] } [ 1, 2, 3 ]|1970-01-02 true ok"
	if got := strings.Join(rec.Logs(), "|"); res.Outcome != OutcomeOK || got != want {
		t.Errorf("outcome %s, logs %q (errors %+v); want %q", res.Outcome, got, rec.Errors(), want)
	}
	res, _ = run(t, p, Request{Mode: "script", Files: files("agent.js", `const groupBy = require("lodash/groupBy");
const { addDays } = require("date-fns/addDays");
const isEmail = require("validator/lib/isEmail");
return [Object.keys(groupBy(input.values, (v) => v % 2)), addDays(0, 1).getTime(), isEmail("a@b.co"), isEmail.default === isEmail];`), Input: json.RawMessage(`{"values":[1,2,3]}`)})
	if string(res.Output) != `[["0","1"],86400000,true,true]` {
		t.Errorf("script output %s; want [[\"0\",\"1\"],86400000,true,true]", res.Output)
	}
	res, rec = run(t, p, Request{Files: files("main.ts", `import { format } from "date-fns/fp";
console.log(format);`)})
	if errs := rec.Errors(); res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Kind != KindBundle || !strings.Contains(errs[0].Message, "date-fns/<name>") {
		t.Errorf("date-fns/fp: outcome %s, errors %+v; want a BUNDLE_ERROR naming the subpaths served", res.Outcome, errs)
	}
}

// TestZodErrorPrints checks that console.log of a ZodError runs no code
// of its for the preview: zod computes its message in a getter, which a
// console line does not call (issue 22: building a preview never runs
// snippet code), so the error shows its accessor, where Node 20 prints
// the issues. Reading it is the snippet's: console.log(r.error.message).
func TestZodErrorPrints(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Timeout: time.Minute, Files: files("main.ts", `import { z } from "zod";
const r = z.object({ name: z.string() }).safeParse({ name: 1 });
console.log(r.error);
console.log(JSON.parse(r.error.message)[0].code);
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	if logs := rec.Logs(); len(logs) != 2 || !strings.HasPrefix(logs[0], "[ZodError]") || !strings.Contains(logs[0], "message: [Getter") || logs[1] != "invalid_type" {
		t.Errorf("logs %q; want the error with its accessor, then the message the snippet read", logs)
	}
}

// TestUnusedLibraryImports checks that a library imported or required and
// never used does not fail the run (its chunk used to have no exports,
// which the chunk bundler refused).
func TestUnusedLibraryImports(t *testing.T) {
	p := newHarness(t, Config{})
	for _, src := range []string{
		"import _ from \"lodash\";\nconsole.log(\"ran\");",
		"import * as dates from \"date-fns\";\nimport Papa from \"papaparse\";\nconsole.log(\"ran\");",
		"const v = require(\"validator\");\nconsole.log(\"ran\");",
	} {
		res, rec := run(t, p, Request{Timeout: time.Minute, Files: files("main.js", src)})
		if res.Outcome != OutcomeOK || strings.Join(rec.Logs(), ",") != "ran" {
			t.Errorf("%q: outcome %s, logs %q, errors %+v", src, res.Outcome, rec.Logs(), rec.Errors())
		}
	}
}

// TestLodashTemplate checks that a lodash template may call any method of
// _ (its code is a string the usage walker cannot read), as in Node.
func TestLodashTemplate(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Timeout: time.Minute, Files: files("main.ts", `import _ from "lodash";
import { template } from "lodash";
console.log(_.template("<% _.forEach(xs, x => { %>[<%= x %>]<% }) %>")({ xs: [1, 2] }));
console.log(template("<%= _.upperFirst(a) %>")({ a: "hi" }));
`)})
	if got := strings.Join(rec.Logs(), "|"); res.Outcome != OutcomeOK || got != "[1][2]|Hi" {
		t.Errorf("outcome %s, logs %q, errors %+v", res.Outcome, got, rec.Errors())
	}
}

// TestMathjsFromInstance: mathjs names outside its number-only build
// (evaluate, simplify, det, …) are read from one lazily made instance
// (libs.ESMSource.FromInstance: only what they reach is made), with
// Node's results for the same calls, recorded with
//
//	cd sandbox/libs && node -e 'const math = require("mathjs"); let output;
//	  (function () { <the run's code less its first line> })(); console.log(JSON.stringify(output))'
//
// (TestChunkFromInstance: which runs read from it).
func TestMathjsFromInstance(t *testing.T) {
	h := newHarness(t, Config{})
	res, rec := run(t, h, Request{Timeout: time.Minute, Files: files("agent.js", `const math = require('mathjs');
output = [math.evaluate("sqrt(3^2 + 4^2)"), math.format(math.evaluate("2 inch to cm"), {precision: 6}), math.det([[1, 2], [3, 4]]), math.evaluate("[1, 2; 3, 4] * 2").toArray(), math.format(math.evaluate("bignumber(1) / 3")), math.simplify("2x + 3x").toString(), math.derivative("x^2", "x").toString(), math.evaluate("f(x) = x^2; f(4)").entries, math.mean([1, 2, 3]), math.isMatrix(math.matrix([1])), math.evaluate("a = 3; a * 2").entries];
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, rec.Errors())
	}
	jsonEqual(t, res.Output, `[5,"5.08 cm",-2,[[2,4],[6,8]],"0.3333333333333333333333333333333333333333333333333333333333333333","5 * x","2 * x",[16],2,true,[6]]`)
}
