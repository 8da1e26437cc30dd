package js_test

import (
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/js/jstest"
)

// TestConsoleCutSaysSo reproduces issue 22: a long console.log line
// arrived cut at 10,001 characters with stats.truncated false and no
// mark of the cut. The text ends as Node ends a cut string, and the run's
// stats say it was truncated.
func TestConsoleCutSaysSo(t *testing.T) {
	h := jstest.New(t, jstest.Config{})
	res, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", `console.log("y".repeat(1e6)); console.log("a…"); console.log("after")`)})
	logs := rec.Logs()
	if res.Outcome != pipe.OutcomeOK || len(logs) != 3 {
		t.Fatalf("outcome %s, %d lines; want ok and 3", res.Outcome, len(logs))
	}
	if want := "... 990000 more characters"; !strings.HasSuffix(logs[0], want) || !strings.HasPrefix(logs[0], "yyyy") {
		t.Errorf("cut line ends %q; want it to end %q", logs[0][max(len(logs[0])-40, 0):], want)
	}
	if logs[1] != "a…" {
		t.Errorf("a string that ends in … printed %q; want it as is", logs[1])
	}
	if !res.Stats.Truncated {
		t.Error("stats.truncated false after a cut line")
	}
	res, _ = h.Run(t, jstest.Request{Files: jstest.Files("main.js", `console.log("short")`)})
	if res.Stats.Truncated {
		t.Error("stats.truncated true for a run that cut nothing")
	}
}

// TestSharedStructurePreviewIsBounded reproduces issue 22's "a preview of
// a shared structure": `a = Array(100).fill(a)` five times over one 10 KB
// string, then console.log — in an object, as an argument beside others,
// as console.dir at any depth — is cut within the line's budget: the run
// goes on (no output_limit for one line) and prints what follows.
func TestSharedStructurePreviewIsBounded(t *testing.T) {
	h := jstest.New(t, jstest.Config{})
	for _, call := range []string{"console.log(a)", "console.log({ a })", "console.log(a, a, { a })", "console.dir(a, { depth: Infinity })", "console.log('%o', a)"} {
		src := `let a = "x".repeat(10000); for (let i = 0; i < 5; i++) a = Array(100).fill(a);` + call + `; console.log("after");`
		res, rec := h.Run(t, jstest.Request{Files: jstest.Files("main.js", src)})
		logs := rec.Logs()
		if res.Outcome != pipe.OutcomeOK || len(logs) != 2 || logs[1] != "after" {
			t.Errorf("%s: outcome %s %+v, %d lines; want ok and \"after\"", call, res.Outcome, rec.Errors(), len(logs))
		}
		if res.Stats.OutputBytes > 1<<20 {
			t.Errorf("%s: %d bytes of output; want the line within its 1 MiB budget", call, res.Stats.OutputBytes)
		}
	}
}
