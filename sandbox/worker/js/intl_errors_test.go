package js_test

import (
	"strings"
	"testing"
)

// An error an Intl constructor throws names no Go function (issue 22):
// its stack's built-in frame is the class's, as in Node ("at new
// DateTimeFormat (<anonymous>)"), in goja's layout and in V8's.
func TestIntlErrorsNameNoGoFunction(t *testing.T) {
	h := newHarness(t, Config{})
	_, rec := run(t, h, Request{Files: files("main.js", `
const cases = [
  () => new Intl.DateTimeFormat("en", { timeZone: "Mars/Base" }),
  () => new Intl.NumberFormat("en", { style: "bogus" }),
  () => new Intl.PluralRules("en", { type: "x" }),
  () => Intl.PluralRules(),
  () => new Intl.Collator("en", { usage: "x" }),
];
for (const f of cases) {
  try { f(); console.log("no error"); } catch (e) { console.log(String(e) + "\n" + e.stack); }
}
new Intl.ListFormat("en", { type: "bogus" });
export {};`)})
	logs := strings.Join(rec.Logs(), "\n")
	errs := rec.Errors()
	if len(rec.Logs()) != 5 || len(errs) != 1 {
		t.Fatalf("logs %q errors %+v", rec.Logs(), errs)
	}
	for _, text := range []string{logs, errs[0].Message, errs[0].Stack} {
		if strings.Contains(text, "github.com") || strings.Contains(text, "playground-dev") || strings.Contains(text, ".func") {
			t.Errorf("a Go symbol reached the snippet: %q", text)
		}
	}
	if !strings.Contains(logs, "    at DateTimeFormat (<anonymous>)\n    at main.js:3:") {
		t.Errorf("logs %q; want DateTimeFormat's built-in frame, then the snippet's", logs)
	}
}
