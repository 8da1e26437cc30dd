package bundle

import (
	"encoding/json"
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
	if _, err := os.Stat("../../libs/node_modules/lodash"); err != nil {
		t.Fatalf("the npm packages are not installed (npm ci in sandbox/libs; scripts/test.sh does it): %v", err)
	}
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	src, ok := set.ESM("lodash")
	if !ok || src.Wrapper == nil {
		t.Fatal("lodash has no wrapper module")
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
	dir := t.TempDir()
	type nodeCase struct {
		Name  string `json:"name"`
		Code  string `json:"code"`
		Chunk string `json:"chunk"`
	}
	var cases []nodeCase
	for i, tc := range tests {
		files := []pipe.File{{Path: "main.js", Source: "const _ = require('lodash');\n" + tc.code}}
		names := libraryUsage(files, set)["lodash"]
		if names == nil || !slices.Contains(names, "chain") {
			t.Errorf("%s: usage %v; want the wrapper (chain) and its methods", tc.name, names)
			continue
		}
		code, err := LibraryChunk(src, names)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, unused := range []string{"function debounce(", "function template(", "function cloneDeep("} {
			if strings.Contains(code, unused) {
				t.Errorf("%s: the chunk has %s…, which the snippet does not use", tc.name, unused)
			}
		}
		path := filepath.Join(dir, "chunk"+string(rune('a'+i))+".js")
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, nodeCase{tc.name, tc.code, path})
	}
	b, _ := json.Marshal(cases)
	in := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", "testdata/wrapper.mjs", in).Output()
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
			t.Errorf("%s:\nwhole lodash %s\nchunk        %s", r.Name, r.Whole, r.Chunk)
		}
		if strings.HasPrefix(r.Whole, "throws") {
			t.Errorf("%s: whole lodash %s (a case must run)", r.Name, r.Whole)
		}
	}
	if n != len(cases) {
		t.Errorf("node reported %d cases; want %d", n, len(cases))
	}
}
