package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func workloadsT(t testing.TB) []workload {
	t.Helper()
	ws, err := loadWorkloads()
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Every workload file is in the manifest once, and the manifest names
// each of the eleven workloads.
func TestManifest(t *testing.T) {
	ws := workloadsT(t)
	listed := map[string]bool{}
	for _, w := range ws {
		if listed[w.File] {
			t.Errorf("%s listed twice", w.File)
		}
		listed[w.File] = true
		if w.Mode != "script" {
			t.Errorf("%s: mode %q", w.Name, w.Mode)
		}
	}
	js, _ := fs.Glob(files, "workloads/*.js")
	for _, f := range js {
		if !listed[strings.TrimPrefix(f, "workloads/")] {
			t.Errorf("%s is not in manifest.json", f)
		}
	}
	if len(ws) != 11 {
		t.Errorf("%d workloads, want the issue's 11", len(ws))
	}
}

// Rows as input are about 40 bytes of JSON each, as the issue sizes them.
func TestInputRowSize(t *testing.T) {
	w := workload{Input: "rows"}
	for _, n := range []int{1000, 10000, 100000} {
		b := inputJSON(w, n)
		if per := float64(len(b)) / float64(n); per < 30 || per > 42 {
			t.Errorf("n=%d: %.1f bytes per row", n, per)
		}
		var v struct{ Rows []map[string]any }
		if err := json.Unmarshal(b, &v); err != nil || len(v.Rows) != n {
			t.Fatalf("n=%d: %d rows, %v", n, len(v.Rows), err)
		}
	}
}

func TestRepeatAndP50(t *testing.T) {
	i := 0
	r := repeat(3, func() result {
		i++
		return result{Outcome: "ok", Ms: []float64{float64(i)}, RunMs: []float64{float64(10 * i)}}
	})
	if i != 4 || !r.ok() || len(r.Ms) != 3 || p50(r.Ms) != 3 || p50(r.RunMs) != 30 {
		t.Errorf("repeat ran %d times: %+v (p50 %v)", i, r, p50(r.Ms))
	}
	i = 0
	r = repeat(3, func() result {
		i++
		if i == 2 {
			return result{Outcome: "timeout"}
		}
		return result{Outcome: "ok", Ms: []float64{1}}
	})
	if i != 2 || r.ok() || r.Outcome != "timeout" || len(r.Ms) != 0 {
		t.Errorf("a timeout mid-series: ran %d, %+v", i, r)
	}
	if p50([]float64{4, 1, 3, 2}) != 2.5 {
		t.Error("p50 of an even count")
	}
}

func TestVerdict(t *testing.T) {
	ok := func(v float64) result { return result{Outcome: "ok", Ms: []float64{v}} }
	for _, c := range []struct {
		kind string
		n    int
		rs   map[string]result
		want string
	}{
		{"data", 10000, map[string]result{"jitless": ok(10), "http": ok(32), "ws": ok(30)}, "pass"},
		{"data", 10000, map[string]result{"jitless": ok(10), "http": ok(32.5), "ws": ok(30)}, "FAIL"},
		{"data", 100000, map[string]result{"jitless": ok(10), "http": ok(1), "ws": {Outcome: "413"}}, "FAIL"},
		{"data", 1000, map[string]result{"jitless": ok(10), "http": ok(1), "ws": ok(1)}, "(pass)"},
		{"interpretation", 10000, map[string]result{"jitless": ok(1), "bare": ok(100), "http": ok(112), "ws": ok(100)}, "pass"},
		{"interpretation", 10000, map[string]result{"jitless": ok(1), "bare": ok(100), "http": ok(113), "ws": ok(100)}, "FAIL"},
		{"interpretation", 10000, map[string]result{"http": ok(1)}, "?"},
	} {
		if got := verdict(row{Kind: c.kind, N: c.n, Results: c.rs}); got != c.want {
			t.Errorf("%s n=%d %v: %s, want %s", c.kind, c.n, c.rs, got, c.want)
		}
	}
}

// Every workload runs in the bare goja runtime at n=1e3.
func TestBare(t *testing.T) {
	for _, w := range workloadsT(t) {
		r := runBare(w, inputJSON(w, 1000), 30*time.Second)
		if !r.ok() || len(r.Output) == 0 || string(r.Output) == "null" {
			t.Errorf("%s: %+v", w.Name, r)
		}
	}
	r := runBare(workload{code: "while (true) {}"}, []byte(`{}`), 50*time.Millisecond)
	if r.Outcome != "timeout" {
		t.Errorf("a loop: %+v", r)
	}
}

func nodeOptions(t *testing.T) options {
	t.Helper()
	// Skipped in a fresh clone (go test ./... needs no npm); under
	// scripts/test.sh, which installs the packages and sets
	// PLAYGROUND_REQUIRE_NPM, a missing package or node fails instead.
	skip := t.Skip
	if os.Getenv("PLAYGROUND_REQUIRE_NPM") != "" {
		skip = t.Fatal
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("no node on $PATH")
	}
	libs, _ := filepath.Abs("../../sandbox/libs")
	if _, err := os.Stat(filepath.Join(libs, "node_modules", "lodash")); err != nil {
		skip("no sandbox/libs/node_modules (npm ci there, or run scripts/test.sh)")
	}
	return options{node: node, libs: libs, reps: 1, timeout: 30 * time.Second}
}

// The harnesses agree: each workload gives the same output (and facts)
// under node, node --jitless and bare goja at n=1e3.
func TestHarnessesAgree(t *testing.T) {
	o := nodeOptions(t)
	for _, w := range workloadsT(t) {
		in := inputJSON(w, 1000)
		rs := map[string]result{
			"node":    runNode(t.Context(), o, nil, w, in),
			"jitless": runNode(t.Context(), o, []string{"--jitless"}, w, in),
			"bare":    runBare(w, in, o.timeout),
		}
		for way, r := range rs {
			if !r.ok() {
				t.Fatalf("%s under %s: %+v", w.Name, way, r)
			}
		}
		if a := agree(rs); a != "yes" {
			t.Errorf("%s: %s; node %s, bare %s", w.Name, a, rs["node"].Output, rs["bare"].Output)
		}
	}
}

// The server agrees with node: each workload, at n=1e3, over the HTTP API
// and over the socket, gives node's output and facts. It builds and starts
// the server (skipped with -short).
func TestServerAgreesWithNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a server")
	}
	o := nodeOptions(t)
	bin := filepath.Join(t.TempDir(), "playground")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/playground-dev/playground/cmd/playground").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	addr, stop, err := startServer(ctx, bin, 0, "-max-facts-bytes", "4194304")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	srv := &server{addr: addr, timeout: o.timeout}
	defer srv.close()
	for _, w := range workloadsT(t) {
		in := inputJSON(w, 1000)
		rs := map[string]result{
			"node": runNode(ctx, o, nil, w, in),
			"http": srv.http(ctx, w, in),
			"ws":   srv.ws(ctx, w, in),
		}
		for way, r := range rs {
			if !r.ok() {
				t.Fatalf("%s over %s: %+v", w.Name, way, r)
			}
		}
		if a := agree(rs); a != "yes" {
			t.Errorf("%s: %s; node %s %s, http %s %s", w.Name, a, rs["node"].Output, rs["node"].Facts, rs["http"].Output, rs["http"].Facts)
		}
	}
}

// BenchmarkBare is the bare-goja floor of issue 21: each workload's code
// in goja.New() with nothing of ours (see runBare for what is timed), at
// n = 1e3, 1e4, 1e5. The interpretation workloads (lodash, sieve, mapset)
// are the floor of the goal; the others show what goja's own built-ins
// cost. go test -run '^$' -bench Bare -benchtime 3x ./cmd/realwork
func BenchmarkBare(b *testing.B) {
	for _, w := range workloadsT(b) {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/%s/n=%s", w.Kind[:4], w.Name, sci(n)), func(b *testing.B) {
				in := inputJSON(w, n)
				for b.Loop() {
					if r := runBare(w, in, 60*time.Second); !r.ok() {
						b.Skipf("%s: %s", r.Outcome, r.Detail)
					}
				}
			})
		}
	}
}

func TestAgree(t *testing.T) {
	ok := func(out, facts string) result {
		return result{Outcome: "ok", Ms: []float64{1}, Output: json.RawMessage(out), Facts: json.RawMessage(facts)}
	}
	rs := map[string]result{"node": ok(`{"a":1,"b":[1,2]}`, `{}`), "http": ok(`{"b":[1,2],"a":1.0}`, ``),
		"ws": ok(`{"a":1,"b":[2,1]}`, `{}`), "bare": ok(`{"a":1,"b":[1,2]}`, `{"x":1}`), "jitless": {Outcome: "timeout"}}
	if got := agree(rs); got != "differs: ws,bare" {
		t.Errorf("agree: %q", got)
	}
}
