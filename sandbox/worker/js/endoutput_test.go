package js_test

import (
	"strings"
	"testing"
	"time"
)

// TestOutputGetters: the output is read after the program ends, and what a
// getter there does is the run's: a plain object's accessor is read as
// JSON.stringify reads it, one that throws ends the run with its error, one
// that never returns ends it at its deadline — never the worker.
func TestOutputGetters(t *testing.T) {
	h := newHarness(t, Config{})
	for _, c := range []struct {
		name, code, mode, outcome, output string
	}{
		{"getter read", `export default { get a() { return 1; }, b: 2 };`, "module", "ok", `{"a":1,"b":2}`},
		{"getter throws", `export default { get a() { throw new RangeError("no"); } };`, "module", "ok", `{"a":{"$t":"getter"}}`},
		{"script output getter throws", `Object.defineProperty(globalThis, "output", { get() { throw new TypeError("nope"); } });`, "script", "error", ``},
		{"script output getter loops", `Object.defineProperty(globalThis, "output", { get() { for (;;); } });`, "script", "timeout", ``},
		{"plain getter loops", `output = { get a() { for (;;); } };`, "script", "timeout", ``},
		{"fact getter loops", `const { facts } = require("playground"); facts.x = { get a() { for (;;); } }; for (;;);`, "script", "timeout", ``},
		{"fact getter loops at the end", `const { facts } = require("playground"); let n = 0; facts.x = { get a() { if (n++ > 0) for (;;); return 1; } };`, "script", "timeout", ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			timeout := 5 * time.Second // ample for an ok or error run on a busy machine
			if c.outcome == "timeout" {
				timeout = 300 * time.Millisecond
			}
			res, rec := run(t, h, Request{Files: files("main.js", c.code), Mode: c.mode, Timeout: timeout})
			if string(res.Outcome) != c.outcome || string(res.Output) != c.output {
				t.Errorf("outcome %s, output %s, errors %+v; want %s, %s", res.Outcome, res.Output, rec.Errors(), c.outcome, c.output)
			}
		})
	}
}

// TestTooDeepSaysSo: a fact or an output nested deeper than facts and
// output hold ends the run with an error naming the nesting, not the
// facts' byte limit (a 10 KB value 5,000 deep was reported as over the
// 256 KiB facts limit).
func TestTooDeepSaysSo(t *testing.T) {
	h := newHarness(t, Config{})
	for _, c := range []struct{ name, code, what string }{
		{"fact", `const { facts } = require("playground"); facts.deep = JSON.parse("[".repeat(5000) + "]".repeat(5000));`, "a fact nests"},
		{"output", `output = JSON.parse("[".repeat(5000) + "]".repeat(5000));`, "the output nests"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files("main.js", c.code), Mode: "script"})
			errs := rec.Errors()
			if res.Outcome != OutcomeOutputLimit || len(errs) != 1 || errs[0].Kind != KindOutputLimit ||
				!strings.Contains(errs[0].Message, c.what+" arrays and objects deeper than 1000 levels") {
				t.Errorf("outcome %s, errors %+v; want output_limit naming the nesting", res.Outcome, errs)
			}
		})
	}
}
