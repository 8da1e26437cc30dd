package js_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var conformanceOnly = flag.String("conformance", "", "run only the conformance snippets whose name contains this")

// deviations are the conformance snippets whose playground output is not
// Node 20's on purpose; want is the playground's exact output (a clear
// error naming what is missing, or a newer standard than Node 20 has).
var deviations = map[string]struct{ reason, want string }{}

// TestConformance runs every snippet of testdata/conformance in the
// in-process harness and compares its console output with Node 20's
// (<name>.golden, recorded by testdata/conformance/record.mjs).
func TestConformance(t *testing.T) {
	conformance(t, "testdata/conformance", "module", 60, deviations, "output differs from Node 20")
}

// conformance runs each <name>.js of dir in mode and compares its console
// lines and uncaught errors with <name>.golden (a hand-written golden says
// why on a first "# " line), or with the deviation's want; dir must hold
// at least min snippets.
func conformance(t *testing.T, dir, mode string, min int, devs map[string]struct{ reason, want string }, differs string) {
	h := newHarness(t, Config{})
	snippets, err := filepath.Glob(dir + "/*.js")
	if err != nil || len(snippets) < min {
		t.Fatalf("%d conformance snippets in %s (%v); want at least %d", len(snippets), dir, err, min)
	}
	for _, path := range snippets {
		name := strings.TrimSuffix(filepath.Base(path), ".js")
		if *conformanceOnly != "" && !strings.Contains(name, *conformanceOnly) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			golden, err := os.ReadFile(strings.TrimSuffix(path, ".js") + ".golden")
			if err != nil {
				t.Fatalf("%v (record it: cd %s && node record.mjs)", err, dir)
			}
			want := string(golden)
			if strings.HasPrefix(want, "# ") {
				_, want, _ = strings.Cut(want, "\n")
			}
			if d, ok := devs[name]; ok {
				want = d.want
			}
			_, rec := run(t, h, Request{Files: files(name+".js", string(src)), Mode: mode, Timeout: 10 * time.Second})
			var b strings.Builder
			for _, l := range rec.Logs() {
				b.WriteString(l + "\n")
			}
			for _, e := range rec.Errors() {
				b.WriteString("UNCAUGHT: " + e.Message + "\n")
			}
			if got := b.String(); got != want {
				t.Errorf("%s\n--- node\n%s--- playground\n%s", differs, want, got)
			}
		})
	}
}
