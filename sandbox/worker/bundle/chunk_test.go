package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestLodashWrapperMatchesWholeLodash: a lodash chain (_.chain(…) or
// _(…)) is evaluated from a chunk that builds _ with just the methods the
// code names (libs.ESMSource.WrapperSource), and gives the whole
// package's results, callbacks called the same times in the same order
// (lazy sequences included). Each snippet is scanned as a run's file
// would be, its chunk bundled, and both run under Node
// (testdata/wrapper.mjs, against sandbox/libs/node_modules/lodash).
func TestLodashWrapperMatchesWholeLodash(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	users := `[{"name":"A","department":"eng","age":30,"active":true},{"name":"B","department":"eng","age":40},{"name":"C","department":"ops","age":50,"active":true},{"name":"D","department":"hr","age":20},{"name":"E","department":"eng","age":20}]`
	tests := []struct{ name, code string }{
		{"documented agent example", `const input = {users: ` + users + `};
const result = _.chain(input.users)
    .groupBy('department')
    .map((users, dept) => ({ department: dept, count: users.length, avgAge: _.meanBy(users, 'age') }))
    .sortBy('count')
    .reverse()
    .take(2)
    .value();
return result;`},
		{"benchmark chain", "return _.chain([1, 2, 3]).map((x) => x * 2).sum().value();"},
		{"implicit chain, unwrapped result", "return _([1, 2, 3]).map((x) => x * 2).sum();"},
		{"lazy sequence", "return _(_.range(20)).map((x) => { log.push(x); return x * x; }).filter((x) => x % 2).take(3).value();"},
		{"lazy sequence, explicit", "return _.chain(_.range(10)).filter((x) => { log.push(x); return x > 4; }).map((x) => x * 10).takeRight(2).value();"},
		{"non-lazy iteratee", "return _([1, 2, 3]).map((x, i) => x * i).value();"},
		{"head, first, last", "return [_.chain([5, 6]).head().value(), _([7, 8]).first(), _([3, 1, 2]).last(), _.chain([1]).first().value()];"},
		{"array methods", "const w = _([3, 1, 2]); return [_.chain([1, 2]).push(3).reverse().value(), w.sort().value(), _([1, 2, 3]).pop(), _.chain([1, 2]).shift().value()];"},
		{"tap and thru", "return _.chain([1, 2, 3]).tap((a) => log.push(a.length)).thru((a) => a.concat(4)).value();"},
		{"iteration", "return [..._([1, 2, 3]).map((x) => x + 1)];"},
		{"at and sortBy", "return _.chain([4, 1, 3]).sortBy().at([0, 2]).value();"},
		{"string", "return [_('  a ').trim(), _.chain('x-y').split('-').join('+').value()];"},
		{"iteratee shorthands", "const users = " + users + "; return _.chain(users).filter('active').map('name').value();"},
		{"commit and plant", "const w = _.chain([1, 2]).map((x) => { log.push(x); return x + 1; }); const c = w.commit(); return [c.value(), w.plant([5]).value()];"},
		{"objects", "return [_({ a: 1, b: 2 }).keys().value(), _({ a: 1 }).mapValues((v) => v + 1).value(), _.chain({ a: 1, b: 2 }).toPairs().map(([k, v]) => k + v).join('-').value()];"},
		{"group, count, order", "const users = " + users + "; return _.chain(users).groupBy('department').mapValues('length').toPairs().orderBy([1, 0], ['desc', 'asc']).fromPairs().value();"},
		{"find", "return [_([1, 2, 3, 4]).find((x) => { log.push(x); return x > 2; }), _.chain([1, 2, 3]).findLast((x) => x < 3).value()];"},
		{"JSON and valueOf", "const w = _.chain([1, 2]).map((x) => x * 3); return [JSON.stringify(w), w.valueOf(), String(_.chain([1]).value())];"},
		{"flatten and uniq", "return _.chain([[1, [2]], [3, 1]]).flattenDeep().uniq().value();"},
		{"reverse then drop", "return _(_.range(6)).reverse().drop(2).map((x) => { log.push(x); return -x; }).value();"},
		{"method missing in both", "return typeof _.chain([1]).notAMethod;"},
	}
	var cases []chunkCase
	for _, tc := range tests {
		cases = append(cases, chunkCase{name: tc.name, code: tc.code, src: "const _ = require('lodash');\n" + tc.code})
	}
	for _, c := range runChunks(t, set, "lodash", "_", cases) {
		if !slices.Contains(c.names, "chain") {
			t.Errorf("%s: usage %v; want the wrapper (chain) and its methods", c.name, c.names)
		}
		for _, unused := range []string{"function debounce(", "function template(", "function cloneDeep("} {
			if strings.Contains(c.chunk, unused) {
				t.Errorf("%s: the chunk has %s…, which the snippet does not use", c.name, unused)
			}
		}
	}
}

// TestJstatSectionsMatchWholeJstat: jstat (a CommonJS script) evaluates
// only the sections whose names a run uses (libs.ESMSource.Wrapper, cut
// by gen.go), with the whole script's results under Node
// (testdata/wrapper.mjs, against sandbox/libs/node_modules/jstat).
func TestJstatSectionsMatchWholeJstat(t *testing.T) {
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, code string
		without    []string // sections the chunk must not hold, by a name they define
	}{
		{"statistics", "return [jStat.mean([1, 2, 3]), jStat.median([3, 1, 2]), jStat.stdev([1, 2, 3, 4], true), jStat.variance([1, 2, 3]), jStat.sum([1, 2]), jStat.min([4, 2]), jStat.quantiles([1, 2, 3, 4, 5], [0.25, 0.75]), jStat.corrcoeff([1, 2, 3], [2, 4, 7])];", []string{"studentt", "gauss_elimination", "anovaftest", "xtranspxinv"}},
		{"wrapper methods", "const j = jStat([[1, 2], [3, 4]]); return [j.mean(), j.sum(), jStat([1, 2, 3]).cumsum(), jStat([1, 2, 3]).map((x) => x * 2).toArray(), j.rows(), j.transpose().toArray()];", []string{"studentt", "anovaftest"}},
		{"special functions", "return [jStat.gammaln(5), jStat.erf(0.5), jStat.factorial(5), jStat.combination(5, 2), jStat.betafn(2, 3)];", []string{"studentt", "gauss_elimination"}},
		{"distributions", "return [jStat.normal.cdf(1.96, 0, 1), jStat.normal(0, 1).mean(), jStat.studentt.inv(0.975, 10), jStat.beta.pdf(0.5, 2, 3), jStat.poisson.pdf(2, 3)];", []string{"anovaftest", "xtranspxinv"}},
		{"linear algebra", "return [jStat.add([[1, 2]], 1), jStat.inv([[1, 2], [3, 4]]), jStat.det([[1, 2], [3, 4]]), jStat.dot([1, 2], [3, 4])];", []string{"studentt", "anovaftest"}},
		{"tests", "return [jStat.ttest(0, [1, 2, 3, 4], 2), jStat.zscore(1, [1, 2, 3]), jStat.normalci(10, 0.05, 2, 30), jStat.anovafscore([1, 2, 3], [3, 4, 5])];", []string{"gauss_elimination"}},
		{"models", "const m = jStat.models.ols([1, 2, 3, 5], [[1, 1], [1, 2], [1, 3], [1, 4]]); return [m.coef, m.R2, m.t.p];", nil},
		{"console.log reads log", "return typeof jStat.log;", nil},
		{"the export itself", "return [jStat.jStat.mean([1, 3]), typeof jStat.fn, typeof jStat.notAThing];", nil},
	}
	var cases []chunkCase
	for _, tc := range tests {
		cases = append(cases, chunkCase{name: tc.name, code: tc.code, src: "import { jStat } from 'jstat';\n" + tc.code})
	}
	for i, c := range runChunks(t, set, "jstat", "jStat", cases) {
		for _, s := range tests[i].without {
			if strings.Contains(c.chunk, s) {
				t.Errorf("%s: the chunk holds the section that defines %s", c.name, s)
			}
		}
	}
}

// chunkCase is a snippet for runChunks: src is scanned as a run's file,
// code run under Node with the package's export as a parameter.
type chunkCase struct {
	name, code, src string
	names           []string // set by runChunks: the usage found
	chunk           string   // set by runChunks: the chunk's script
}

// runChunks bundles the chunk of pkg each case's src uses and runs code
// under Node against the chunk and the whole package, failing t where
// they differ or where the whole package throws.
func runChunks(t *testing.T, set *libs.Set, pkg, param string, cases []chunkCase) []chunkCase {
	t.Helper()
	// Skipped in a fresh clone (go test ./... needs no npm); scripts/test.sh
	// installs the packages and sets PLAYGROUND_REQUIRE_NPM, and then a
	// missing package or node fails instead.
	_, err := os.Stat("../../libs/node_modules/" + pkg)
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		if os.Getenv("PLAYGROUND_REQUIRE_NPM") != "" {
			t.Fatalf("PLAYGROUND_REQUIRE_NPM is set but %v (npm ci in sandbox/libs; scripts/test.sh does it)", err)
		}
		t.Skipf("needs the npm packages of sandbox/libs and node (%v): npm ci there, or run scripts/test.sh, which does", err)
	}
	src, ok := set.ESM(pkg)
	if !ok || src.Wrapper == nil {
		t.Fatalf("%s has no wrapper module", pkg)
	}
	dir := t.TempDir()
	type nodeCase struct {
		Name  string `json:"name"`
		Code  string `json:"code"`
		Chunk string `json:"chunk"`
	}
	var run []nodeCase
	for i := range cases {
		c := &cases[i]
		c.names = libraryUsage([]pipe.File{{Path: "main.js", Source: c.src}}, set)[pkg]
		if c.names == nil {
			t.Fatalf("%s: usage of %s is the whole package; want a chunk", c.name, pkg)
		}
		code, err := LibraryChunk(src, c.names)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		c.chunk = code
		path := filepath.Join(dir, fmt.Sprintf("chunk%d.js", i))
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		run = append(run, nodeCase{c.name, c.code, path})
	}
	b, _ := json.Marshal(run)
	in := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "testdata/wrapper.mjs", pkg, param, in).Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	n := 0
	for line := range strings.Lines(string(out)) {
		var r struct{ Name, Whole, Chunk string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		n++
		if r.Whole != r.Chunk {
			t.Errorf("%s:\nwhole %s %s\nchunk %s", r.Name, pkg, r.Whole, r.Chunk)
		}
		if strings.HasPrefix(r.Whole, "throws") {
			t.Errorf("%s: whole %s %s (a case must run)", r.Name, pkg, r.Whole)
		}
	}
	if n != len(run) {
		t.Errorf("node reported %d cases; want %d", n, len(run))
	}
	return cases
}
