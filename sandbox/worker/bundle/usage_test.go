package bundle

import (
	"fmt"
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
		{"lodash chain", "const _ = require('lodash');\n_.chain(xs).groupBy('k').value();", "lodash", whole},
		{"lodash called", "const _ = require('lodash');\n_(xs).map(f);", "lodash", whole},
		{"lodash member assigned", "import _ from 'lodash';\n_.iteratee = f;\n_.map(xs);", "lodash", whole},
		{"validator default by member", "import validator from 'validator';\nvalidator.isEmail(s);", "validator", "isEmail"},
		{"mathjs default", "import math from 'mathjs';\nmath.mean([1]);", "mathjs", whole},
		{"zod z by member", "import { lazy, z } from 'zod';\nconst U = z.object({ n: z.string() });\ntype T = z.infer<typeof U>;", "zod", "lazy,object,string,z"},
		{"zod z aliased", "import { z as zz } from 'zod';\nzz.number();", "zod", "number,z"},
		{"zod z passed around", "import { z } from 'zod';\nconsole.log(Object.keys(z));", "zod", whole},
		{"template expression", "const math = require('mathjs');\nconsole.log(`${math.mean([1])} and ${math}`);", "mathjs", whole},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := libraryUsage([]pipe.File{{Path: "main.js", Source: tc.src}}, set)[tc.lib]
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
	if len(small) > len(full)/5 || !strings.Contains(small, "__library") {
		t.Errorf("chunk of mean, std: %d bytes; want a fifth of the whole %d at most", len(small), len(full))
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
