package js_test

import (
	"strings"
	"testing"
)

func TestUnhandledRejection(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "Promise.reject(new Error('nobody caught me'));\nsetTimeout(() => console.log('still running'), 10);")})
	errs := rec.errors()
	if len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.Contains(errs[0].Message, "Uncaught (in promise) Error: nobody caught me") || errs[0].Line != 1 || errs[0].File != "main.ts" {
		t.Errorf("errors = %+v; want one RUNTIME_ERROR at main.ts:1", errs)
	}
	if res.Outcome != OutcomeError {
		t.Errorf("outcome = %s; want error", res.Outcome)
	}
	// A handled rejection is not reported.
	res, rec = run(t, p, Request{Files: files("main.ts", "const p = Promise.reject(new Error('x'));\nawait null;\np.catch(() => console.log('handled'));")})
	if res.Outcome != OutcomeOK || len(rec.errors()) != 0 || strings.Join(rec.logs(), "|") != "handled" {
		t.Errorf("handled rejection: outcome %s, errors %+v, logs %q", res.Outcome, rec.errors(), rec.logs())
	}
}

func TestThrowInTimerCallback(t *testing.T) {
	p := newHarness(t, Config{})
	res, rec := run(t, p, Request{Files: files("main.ts", "setTimeout(() => {\n  throw new RangeError('in timer');\n}, 1);")})
	errs := rec.errors()
	if res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Message != "RangeError: in timer" || errs[0].Line != 2 {
		t.Errorf("outcome %s, errors %+v; want RangeError at main.ts:2", res.Outcome, errs)
	}
}

func TestThrownNonErrors(t *testing.T) {
	p := newHarness(t, Config{})
	for src, want := range map[string]string{
		"throw 42;":                  "42",
		"throw 'text';":              "text",
		"throw { code: 1 };":         "{ code: 1 }",
		"throw null;":                "null",
		"throw Object.create(null);": "{}",
		"class E extends Error {}\nthrow new E('sub');": "Error: sub",
	} {
		_, rec := run(t, p, Request{Files: files("main.ts", src)})
		if errs := rec.errors(); len(errs) != 1 || errs[0].Kind != KindRuntime || !strings.Contains(errs[0].Message, want) {
			t.Errorf("%s: errors = %+v; want a RUNTIME_ERROR containing %q", src, errs, want)
		}
	}
}
