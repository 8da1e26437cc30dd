package bundle

import (
	"fmt"
	"github.com/dop251/goja"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestLibraryUsage: the names a run uses of a library with ES module
// sources, or the whole library (nil) when the scan cannot be sure.
func TestLibraryUsage(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	whole := "whole"
	tests := []struct {
		name, src, lib, want string
	}{
		{"named", "import { mean, std as s } from 'mathjs';\nmean([1]);", "mathjs", "mean,std"},
		{"type import erased", "import type { Matrix } from 'mathjs';\nimport { mean } from \"mathjs\";", "mathjs", "mean"},
		{"require members", "const math = require('mathjs');\nconsole.log('math:', math.mean(v), math?.median(v)); // math rocks", "mathjs", "mean,median"},
		{"require destructured", "const { mean, std: sd } = require('mathjs');", "mathjs", "mean,std"},
		{"require member", "const m = require('mathjs').max;", "mathjs", "max"},
		{"require member on the next line", "const m = require('mathjs')\n  .max\nm([1]);", "mathjs", "max"},
		{"require called", "const m = require('mathjs')();", "mathjs", whole},
		{"namespace members", "import * as df from 'date-fns';\ndf.format(df.addDays(d, 1), 'yyyy');", "date-fns", "addDays,format"},
		{"namespace passed around", "import * as math from 'mathjs';\nconsole.log(math);", "mathjs", whole},
		{"namespace spread", "import * as math from 'mathjs';\nconst m = {...math};", "mathjs", whole},
		{"computed member", "const math = require('mathjs');\nmath['mean']([1]);", "mathjs", whole},
		{"default import", "import math from 'mathjs';", "mathjs", whole},
		{"dynamic import", "const m = await import('mathjs');", "mathjs", whole},
		{"unknown name: none (esbuild reports the import)", "import { notAThing } from 'mathjs';", "mathjs", ""},
		{"in a string only", "console.log(\"import { mean } from 'mathjs'\");", "mathjs", "none"},
		{"in a comment only", "// require('mathjs')\nconsole.log(1);", "mathjs", "none"},
		{"regex with a quote", "const r = /'/g;\nconst math = require('mathjs');\nmath.mean([1]);", "mathjs", "mean"},
		{"lodash default by member", "import _ from 'lodash';\n_.groupBy(xs, 'k'); _.sum([1]);", "lodash", "groupBy,sum"},
		{"lodash require by member", "const _ = require('lodash');\n_.sortBy(xs);", "lodash", "sortBy"},
		{"lodash chain: the whole library", "const _ = require('lodash');\n_.chain(xs).groupBy('k').value(); a.sum; a.length; // .max", "lodash", whole},
		{"lodash called: the whole library", "const _ = require('lodash');\n_(xs).map(f);", "lodash", whole},
		{"lodash default called", "import _ from 'lodash';\nconst w = _ (xs);\nw.take(1);", "lodash", whole},
		{"lodash chain among named imports", "import { chain, sum } from 'lodash';\nchain(xs).map(f).value(); sum([1]);", "lodash", whole},
		{"lodash chain with mixin", "const _ = require('lodash');\n_.chain(xs).value(); _.mixin({});", "lodash", whole},
		{"lodash chain, another file unscannable", "const _ = require('lodash');\n_.chain(xs).value();", "lodash", whole},
		{"lodash passed", "const _ = require('lodash');\nf(_);", "lodash", whole},
		{"jstat named, by member and called", "import { jStat } from 'jstat';\nconsole.log(jStat.mean([1, 2]), jStat([1]).sum());", "jstat", "jStat,log,mean"},
		{"jstat distribution", "const { jStat } = require('jstat');\njStat.normal.cdf(1.96, 0, 1);", "jstat", "jStat,normal"},
		{"jstat default", "import jStat from 'jstat';\njStat.ttest(1, [1, 2]);", "jstat", "ttest"},
		{"jstat passed around", "import { jStat } from 'jstat';\nf(jStat);", "jstat", whole},
		{"validator called", "import validator from 'validator';\nvalidator('x');", "validator", whole},
		{"lodash member assigned", "import _ from 'lodash';\n_.iteratee = f;\n_.map(xs);", "lodash", whole},
		{"validator default by member", "import validator from 'validator';\nvalidator.isEmail(s);", "validator", "isEmail"},
		{"mathjs default", "import math from 'mathjs';\nmath.mean([1]);", "mathjs", whole},
		{"zod z by member", "import { lazy, z } from 'zod';\nconst U = z.object({ n: z.string() });\ntype T = z.infer<typeof U>;", "zod", "lazy,object,string,z"},
		{"zod z aliased", "import { z as zz } from 'zod';\nzz.number();", "zod", "number,z"},
		{"zod z required by destructuring", "const { z } = require('zod');\nz.string().parse('x');", "zod", "string,z"},
		{"zod z required by destructuring, renamed", "const { z: zz, lazy } = require('zod');\nzz.number();", "zod", "lazy,number,z"},
		{"zod z destructured and passed around", "const { z } = require('zod');\nf(z);", "zod", whole},
		{"zod z required by member", "const z = require('zod').z;\nz.string();", "zod", whole},
		{"zod z passed around", "import { z } from 'zod';\nconsole.log(Object.keys(z));", "zod", whole},
		{"regex after if (…) hiding a use", "const math = require('mathjs');\nif (ok) /'/.test(s) && show(math); // it's all of it\nmath.mean([1]);", "mathjs", whole},
		{"division after a keyword-named property", "const math = require('mathjs');\nconst half = gen.return / 2, m = math.mean([1]), q = a / 3;", "mathjs", "mean"},
		{"division after postfix ++", "const math = require('mathjs');\nconst r = n++ / 2, m = math.mean(v), q = a / 3;", "mathjs", "mean"},
		{"lodash subpaths", "import groupBy from 'lodash/groupBy';\nconst sortBy = require(\"lodash/sortBy.js\");", "lodash", "groupBy,sortBy"},
		{"lodash subpath and a member", "import map from 'lodash/map';\nimport _ from 'lodash';\n_.sum([1]);", "lodash", "map,sum"},
		{"date-fns subpath, named", "import { addDays } from 'date-fns/addDays';", "date-fns", "addDays"},
		{"validator lib subpath", "import isEmail from 'validator/lib/isEmail';", "validator", "isEmail"},
		{"zod/v4 is zod", "import { z } from 'zod/v4';\nz.string();", "zod", "string,z"},
		{"template expression", "const math = require('mathjs');\nconsole.log(`${math.mean([1])} and ${math}`);", "mathjs", whole},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := []pipe.File{{Path: "main.js", Source: tc.src}}
			if strings.Contains(tc.name, "unscannable") {
				files = append(files, pipe.File{Path: "b.js", Source: "const s = 'unterminated;"})
			}
			got, ok := libraryUsage(files, set)[tc.lib]
			s := "none"
			switch {
			case ok && got == nil:
				s = whole
			case ok:
				s = strings.Join(got, ",")
			}
			if s != tc.want {
				t.Errorf("usage of %s = %s; want %s", tc.lib, s, tc.want)
			}
		})
	}
	// A library without ES module sources (CommonJS papaparse) evaluates whole, always.
	if u := libraryUsage([]pipe.File{{Path: "main.js", Source: "import { parse } from 'papaparse';"}}, set); len(u) != 0 {
		t.Errorf("papaparse usage %v; want none recorded", u)
	}
}

// TestLibraryChunk: a chunk exports exactly the names asked for, from the
// lighter entry when it has them all, and is much smaller than the whole.
func TestLibraryChunk(t *testing.T) {
	set, _ := libs.New("")
	src, ok := set.ESM("mathjs")
	if !ok {
		t.Fatal("no ES module source for mathjs")
	}
	small, err := LibraryChunk(src, []string{"mean", "std"})
	if err != nil {
		t.Fatal(err)
	}
	full, _ := set.Source("mathjs")
	if len(small) > len(full)/5 {
		t.Errorf("chunk of mean, std: %d bytes; want a fifth of the whole %d at most", len(small), len(full))
	}
	// It evaluates to a plain object of just those functions (libs.Script).
	vm := goja.New()
	v, err := vm.RunString(small)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := vm.RunString("(m) => Object.entries(Object.getOwnPropertyDescriptors(m)).map(([k, d]) => k + ':' + typeof d.value + (d.writable && d.enumerable ? '' : ' (not a data property)')).join(',')"); got != nil {
		f, _ := goja.AssertFunction(got)
		r, err := f(goja.Undefined(), v)
		if err != nil || r.String() != "mean:function,std:function" {
			t.Errorf("chunk of mean, std evaluates to an object of %v (%v); want mean:function,std:function", r, err)
		}
	}
	big, err := LibraryChunk(src, []string{"bignumber", "mean"}) // not in mathjs/number
	if err != nil {
		t.Fatal(err)
	}
	if len(big) <= len(small) {
		t.Errorf("chunk with bignumber (%d bytes) not larger than the number one (%d)", len(big), len(small))
	}
	if _, err := LibraryChunk(src, []string{"nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown name: %v; want an error naming it", err)
	}
	fmt.Fprintf(testWriter{t}, "mathjs chunks: mean,std %d bytes; bignumber,mean %d; whole %d", len(small), len(big), len(full))
}

// TestLibraryChunkReservedWordNames: a namespace member may be named by a
// reserved word (zod's z.enum, z.null, z.void, z.instanceof, z.function);
// its chunk binds each under an alias (an import cannot bind "enum").
func TestLibraryChunkReservedWordNames(t *testing.T) {
	set, _ := libs.New("")
	src, ok := set.ESM("zod")
	if !ok {
		t.Fatal("no ES module source for zod")
	}
	names := []string{"enum", "function", "instanceof", "null", "object", "void", "z"}
	code, err := LibraryChunk(src, names)
	if err != nil {
		t.Fatal(err)
	}
	vm := goja.New()
	v, err := vm.RunString(code)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(vm.Set("m", v))
	got, err := vm.RunString(`Object.keys(m).sort().join() + " | " + Object.keys(m.z).sort().join() + " | " +
		m.z.enum(["a", "b"]).parse("a") + " " + m.z.null().parse(null) + " " + m.z.instanceof(Date).safeParse(1).success + " " + (m.z.enum === m.enum)`)
	must(err)
	want := "enum,function,instanceof,null,object,void,z | enum,function,instanceof,null,object,void | a null false true"
	if got.String() != want {
		t.Errorf("chunk evaluates to %q; want %q", got, want)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }

// TestRewriteModuleMeta: import.meta and computed dynamic imports become
// calls that goja parses, with every line and column kept; literals,
// comments and strings stay as written.
func TestRewriteModuleMeta(t *testing.T) {
	src := "const u = import.meta.url; // import.meta\nconst s = 'import(x)';\nawait import(name);\nawait import('./b.js');\nawait import(`lodash`);\nimport x from './y.js';\n"
	got := rewriteModuleMeta(src, "src/main.ts")
	want := "const u = __pg_meta().url; // import.meta\nconst s = 'import(x)';\nawait __pgi_(name);\nawait import('./b.js');\nawait import(`lodash`);\nimport x from './y.js';\n"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("rewritten:\n%s\nwant prefix:\n%s", got, want)
	}
	tail := got[len(want):]
	if !strings.Contains(tail, `url: "file:///src/main.ts"`) || !strings.Contains(tail, `dirname: "/src"`) || !strings.Contains(tail, "function __pgi_(") {
		t.Errorf("appended declarations:\n%s", tail)
	}
	if strings.Count(got[:len(want)], "\n") != strings.Count(src, "\n") {
		t.Error("lines moved")
	}
	if plain := "console.log(1);"; rewriteModuleMeta(plain, "a.js") != plain {
		t.Error("a file without import.meta changed")
	}
}

// TestBlank: blank's lexer tells a regex literal from a division by the
// token before the slash (a / after ), ], }, a name, a number or a
// string divides, except after the ) of if/while/for/with (…), the } of a
// block and keywords like return or typeof), so comments, strings and
// regexes are blanked and nothing else is.
func TestBlank(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"division after a parenthesis", "const h = (a + b) / 2, q = '/';", "const h = (a + b) / 2, q = ' ';"},
		{"regex after if (…)", "if (ok) /'/.test(s);", "if (ok) / /.test(s);"},
		{"regex after if (call(…))", "if (f(a)) /'/.test(s);", "if (f(a)) / /.test(s);"},
		{"regex after while (…)", "while (i--) /\"/g.exec(s);", "while (i--) / /g.exec(s);"},
		{"regex after for (…)", "for (const x of xs) /'/.test(x);", "for (const x of xs) / /.test(x);"},
		{"regex after for await (…)", "for await (const c of s) /'/.test(c);", "for await (const c of s) / /.test(c);"},
		{"division after a call in if", "if (ok) x = f(a) / 2, s = '/';", "if (ok) x = f(a) / 2, s = ' ';"},
		{"division after postfix ++", "const r = n++ / 2, s = '/';", "const r = n++ / 2, s = ' ';"},
		{"division after postfix --", "const r = n-- / 2, s = '/';", "const r = n-- / 2, s = ' ';"},
		{"division after a keyword-named property", "const r = gen.return / 2, s = '/';", "const r = gen.return / 2, s = ' ';"},
		{"division after an optional keyword-named property", "const r = o?.typeof / 2, s = '/';", "const r = o?.typeof / 2, s = ' ';"},
		{"division after a bracket", "const r = a[0] / 2, s = '/';", "const r = a[0] / 2, s = ' ';"},
		{"division after a number", "const r = 1.5 / 2, s = '/';", "const r = 1.5 / 2, s = ' ';"},
		{"division after a string", "const r = '4' / 2, s = '/';", "const r = ' ' / 2, s = ' ';"},
		{"division after a template", "const r = `${a}` / 2, s = '/';", "const r = `${a}` / 2, s = ' ';"},
		{"division after an object in a template", "const r = `${ {a: 1}.a / 2 }`, s = '/';", "const r = `${ {a: 1}.a / 2 }`, s = ' ';"},
		{"regex after a block", "if (a) { f() }\n/'/.test(s);", "if (a) { f() }\n/ /.test(s);"},
		{"regex after an else block", "if (a) {} else { f() }\n/'/.test(s);", "if (a) {} else { f() }\n/ /.test(s);"},
		{"division after an object literal", "const n = ({ a: 1 }).a, r = { valueOf() { return 4 } } / 2, s = '/';", "const n = ({ a: 1 }).a, r = { valueOf() { return 4 } } / 2, s = ' ';"},
		{"division after a returned object", "return { a: 1 } / 2, s = '/';", "return { a: 1 } / 2, s = ' ';"},
		{"regex after a labelled block", "l: { f() }\n/'/.test(s);", "l: { f() }\n/ /.test(s);"},
		{"division after a ternary's object", "const r = (c ? {} : { a: 1 }) / 2, s = '/';", "const r = (c ? {} : { a: 1 }) / 2, s = ' ';"},
		{"regex after an arrow's block", "const f = () => {}\n/'/.test(s);", "const f = () => {}\n/ /.test(s);"},
		{"division after an arrow call", "const n = xs.map((x) => { return x }).length / 2, s = '/';", "const n = xs.map((x) => { return x }).length / 2, s = ' ';"},
		{"regex after return", "return /'/.test(s);", "return / /.test(s);"},
		{"regex after typeof", "typeof /'/;", "typeof / /;"},
		{"regex after else", "if (a) f(); else /'/.test(s);", "if (a) f(); else / /.test(s);"},
		{"regex after =>", "const t = (s) => /'/.test(s);", "const t = (s) => / /.test(s);"},
		{"regex after case", "switch (x) { case /'/.source: }", "switch (x) { case / /.source: }"},
		{"division after a regex", "const r = /a/.source.length / 2, s = '/';", "const r = / /.source.length / 2, s = ' ';"},
		{"regex with a slash in a class", "const r = /[/']/;", "const r = /    /;"},
		{"comments", "a = b // c '\n/* d ' */ e", "a = b       \n          e"},
		{"unterminated string", "const s = 'abc;", ""},
		{"unterminated regex", "const r = /abc;", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := blank(tc.src); got != tc.want {
				t.Errorf("blank(%q)\n = %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}
