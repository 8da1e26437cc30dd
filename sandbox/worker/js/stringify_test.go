package js_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStringifyAsNode runs JSON.stringify's differential corpus
// (testdata/stringify/cases.js: replacers, space, toJSON, boxed values,
// BigInt, proxies, getters, holes, cycles and their V8 messages, depth,
// lone surrogates…) and compares every line with Node 20's
// (cases.golden, recorded by `node cases.js > cases.golden`; see
// TestStringifyGoldenIsFresh), in module and in script mode; stringifyDeviations lists the lines that
// stay goja's, each with why.
func TestStringifyAsNode(t *testing.T) {
	src, err := os.ReadFile("testdata/stringify/cases.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/stringify/cases.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n")
	if len(want) < 80 {
		t.Fatalf("%d cases; want at least 80", len(want))
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
			if d, ok := stringifyDeviations[name]; ok {
				w = name + " | " + d.want
			}
			if got[i] != w {
				t.Errorf("%s:\n node:       %s\n playground: %s", mode, w, got[i])
			}
		}
	}
}

// stringifyDeviations are the corpus's cases whose line is not Node's,
// with the playground's and why.
var stringifyDeviations = map[string]struct{ reason, want string }{
	"stringifyNotConstructor": {"a caught error's message is goja's: V8's wording of a call (v8message.go) is given to uncaught errors only, where the call's source is read", `! TypeError: "Value is not a constructor"`},
}

// TestStringifyGoldenIsFresh re-records testdata/stringify/cases.golden
// under Node when node is on PATH.
func TestStringifyGoldenIsFresh(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	cmd := exec.Command("node", "cases.js")
	cmd.Dir = "testdata/stringify"
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node cases.js: %v", err)
	}
	golden, err := os.ReadFile("testdata/stringify/cases.golden")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(golden) {
		t.Error("testdata/stringify/cases.golden is stale: run `node cases.js > cases.golden` in sandbox/worker/js/testdata/stringify")
	}
}
