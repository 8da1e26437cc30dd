package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

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
	needNode(t, pkg)
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

// needNode skips t unless node and package pkg of sandbox/libs/node_modules
// are there: a fresh clone's go test ./... needs no npm. scripts/test.sh
// installs the packages and sets PLAYGROUND_REQUIRE_NPM, and then a
// missing package or node fails instead.
func needNode(t *testing.T, pkg string) {
	t.Helper()
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
}
