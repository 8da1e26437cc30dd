package js_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Script mode is a classic script: sloppy unless the code says "use
// strict" (testdata/conformance/script has Node's recorded behaviour);
// TypeScript keeps working; module mode stays strict.
func TestScriptModeSloppy(t *testing.T) {
	h := newHarness(t, Config{})
	tests := []struct {
		name, file, code, want string
	}{
		{"issue example", "main.js", `total = 0; output = total;`, `0`},
		{"implicit global in a loop", "main.js", "for (i = 0; i < 3; i++) sum = (typeof sum === 'number' ? sum : 0) + i;\nreturn sum;", `3`},
		{"this is the global object", "main.js", `return this === globalThis && this.Math === Math;`, `true`},
		{"with and octal", "main.js", `with (Math) { output = max(010, 7); }`, `8`},
		{"use strict stays strict", "main.js", "'use strict';\ntry { leak = 1; return 'sloppy'; } catch (e) { return e.name; }", `"ReferenceError"`},
		{"typescript, sloppy", "main.ts", "interface P { x: number }\nconst p: P = { x: 2 };\ncount = p.x as number;\nwith (Math) { output = pow(count, 3); }", `8`},
		{"typescript, await and return", "main.ts", "const v: number = await Promise.resolve(21);\nreturn v * 2;", `42`},
		{"require still resolves", "main.js", "n = require('lodash').sum([1, 2]); return n;", `3`},
		{"implicit global seen by a callback", "main.js", "setTimeout(() => { later = 5; }, 1);\nawait new Promise((r) => setTimeout(r, 5));\nreturn later;", `5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files(tt.file, tt.code), Mode: "script", Input: json.RawMessage(`{}`)})
			if res.Outcome != OutcomeOK {
				t.Fatalf("outcome %s, errors %+v, logs %q", res.Outcome, rec.Errors(), rec.Logs())
			}
			jsonEqual(t, res.Output, tt.want)
		})
	}
	// Module mode is unchanged: an ES module is strict.
	for _, src := range []string{"total = 0; export default total;", "with (Math) {}", "export default 010;"} {
		res, rec := run(t, h, Request{Files: files("main.js", src), Mode: "module"})
		if errs := rec.Errors(); res.Outcome != OutcomeError || len(errs) != 1 {
			t.Errorf("module %q: %s %+v; want one error", src, res.Outcome, errs)
		} else if !strings.Contains(errs[0].Message, "total is not defined") && errs[0].Kind != KindSyntax {
			t.Errorf("module %q: %+v", src, errs[0])
		}
	}
}

// A script's stack has no frame of its wrapper (the call of the script's
// function is the bundler's), and its line-1 columns are the user's.
func TestScriptModeNoWrapperFrame(t *testing.T) {
	h := newHarness(t, Config{})
	_, rec := run(t, h, Request{Files: files("s.js", "function f() { throw new Error('x'); }\nf();"), Mode: "script"})
	errs := rec.Errors()
	if len(errs) != 1 {
		t.Fatalf("errors %+v", errs)
	}
	lines := strings.Split(errs[0].Stack, "\n")
	if len(lines) != 3 || lines[1] != "    at f (s.js:1:22)" || !strings.HasPrefix(lines[2], "    at s.js:2:") {
		t.Errorf("stack %q; want f's frame at s.js:1:22 and the call's on line 2, nothing else", errs[0].Stack)
	}
}
