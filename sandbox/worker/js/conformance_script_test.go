package js_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scriptDeviations are the script-mode conformance snippets whose output is
// not Node's on purpose; want is the playground's exact output.
var scriptDeviations = map[string]struct{ reason, want string }{
	"top_level_arguments": {
		reason: "a script is the body of a function, as in the code-execution services script mode stands in for (top-level return): arguments is that function's, empty",
		want:   "object\n",
	},
}

// TestConformanceScript runs every snippet of testdata/conformance/script
// in script mode and compares its console output with Node 20's for the
// same code run as a classic script by vm.runInNewContext
// (<name>.golden, recorded by testdata/conformance/script/record.mjs):
// sloppy mode (implicit globals, this, with, legacy octal, Annex B
// function declarations in blocks), strict where the code says so.
func TestConformanceScript(t *testing.T) {
	h := newHarness(t, Config{})
	snippets, err := filepath.Glob("testdata/conformance/script/*.js")
	if err != nil || len(snippets) < 10 {
		t.Fatalf("%d script conformance snippets (%v); want at least 10", len(snippets), err)
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
				t.Fatalf("%v (record it: cd testdata/conformance/script && node record.mjs)", err)
			}
			want := string(golden)
			if d, ok := scriptDeviations[name]; ok {
				want = d.want
			}
			_, rec := run(t, h, Request{Files: files(name+".js", string(src)), Mode: "script", Timeout: 10 * time.Second})
			var b strings.Builder
			for _, l := range rec.Logs() {
				b.WriteString(l + "\n")
			}
			for _, e := range rec.Errors() {
				b.WriteString("UNCAUGHT: " + e.Message + "\n")
			}
			if got := b.String(); got != want {
				t.Errorf("script mode differs from Node 20's vm.runInNewContext\n--- node\n%s--- playground\n%s", want, got)
			}
		})
	}
}
