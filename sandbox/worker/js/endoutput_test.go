package js_test

import (
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
			res, rec := run(t, h, Request{Files: files("main.js", c.code), Mode: c.mode, Timeout: 300 * time.Millisecond})
			if string(res.Outcome) != c.outcome || string(res.Output) != c.output {
				t.Errorf("outcome %s, output %s, errors %+v; want %s, %s", res.Outcome, res.Output, rec.Errors(), c.outcome, c.output)
			}
		})
	}
}
