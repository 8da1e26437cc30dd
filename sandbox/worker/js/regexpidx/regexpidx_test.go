package regexpidx_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// The snippets run end to end in a real runtime (jstest): bundled, so a
// /…/d literal reaches the RegExp constructor as esbuild lowers it.
func TestMain(m *testing.M) { jstest.Main(m) }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMatchesNode runs testdata/cases.js and compares each line with what
// Node 20 printed (testdata/golden.txt).
func TestMatchesNode(t *testing.T) {
	want := strings.Split(strings.TrimSpace(read(t, "testdata/golden.txt")), "\n")
	if len(want) < 30 {
		t.Fatalf("%d golden lines; want at least 30", len(want))
	}
	got := jstest.New(t, jstest.Config{}).RunOK(t, jstest.Request{Files: jstest.Files("main.js", read(t, "testdata/cases.js"))})
	if len(got) != len(want) {
		t.Errorf("%d lines; want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("\n got %s\nwant %s", got[i], want[i])
		}
	}
}

// TestGoldenIsFresh re-records testdata/golden.txt under Node when node is
// on PATH.
func TestGoldenIsFresh(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	out, err := exec.Command("node", "testdata/cases.js").Output()
	if err != nil {
		t.Fatalf("node testdata/cases.js: %v", err)
	}
	if string(out) != read(t, "testdata/golden.txt") {
		t.Error("testdata/golden.txt is stale: run `node sandbox/worker/js/regexpidx/testdata/cases.js > sandbox/worker/js/regexpidx/testdata/golden.txt`")
	}
}

// TestDecoratedRegExpIsARegExp: the decorated object is still goja's
// RegExp to every check, with no enumerable own properties added.
func TestDecoratedRegExpIsARegExp(t *testing.T) {
	jstest.CheckLogs(t, `
const re = /(a)/dg;
console.log(re instanceof RegExp, Object.prototype.toString.call(re), re.source, re.global, re.lastIndex);
console.log(Object.keys(re).length, typeof re.exec, re.exec.name);
`, "true [object RegExp] (a) true 0", "0 function exec")
}
