package js_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// An error a snippet catches has V8's stack as a value: the user's file,
// line and 1-based column, no internal scheme or bytecode offset, no
// wrapper frame, Error.stackTraceLimit honoured; the run's own report of
// a rethrown error still finds its position.
func TestCaughtStackIsV8s(t *testing.T) {
	h := newHarness(t, Config{})
	tests := []struct {
		name, mode, file, code, want string
	}{
		{"module", "module", "main.ts", "function f(): never { throw new Error('probe'); }\nlet s = '';\ntry { f(); } catch (e) { s = (e as Error).stack!; }\nexport default s;",
			"Error: probe\n    at f (main.ts:1:29)\n    at main.ts:3:7"}, // a call's frame at its callee, as V8 (v8CallFrame)
		{"script line 1", "script", "s.js", "try { throw new Error('probe') } catch (e) { output = e.stack }",
			"Error: probe\n    at s.js:1:13"},
		{"engine error reworded", "script", "s.js", "try { [].reduce((a, b) => a) } catch (e) { return [e.message, String(e), e.stack.split('\\n')[0]] }",
			`["Reduce of empty array with no initial value","TypeError: Reduce of empty array with no initial value","TypeError: Reduce of empty array with no initial value"]`},
		{"stackTraceLimit", "script", "s.js", "Error.stackTraceLimit = 1;\nfunction a() { b() }\nfunction b() { throw new Error('deep') }\ntry { a() } catch (e) { return e.stack }",
			"Error: deep\n    at b (s.js:3:22)"},
		{"JSON.stringify", "script", "s.js", "function g() { let u; u.x }\ntry { g() } catch (e) { return JSON.stringify({ stack: e.stack }) }",
			`{"stack":"TypeError: Cannot read properties of undefined (reading 'x')\n    at g (s.js:1:25)\n    at s.js:2:7"}`},
		// Read where nothing caught it (errorRead): a value, a promise's
		// catch, a class whose constructor calls super.
		{"never caught, script line 1", "script", "s.js", "output = new Error('probe').stack",
			"Error: probe\n    at s.js:1:10"}, // Node 20 (vm.runInNewContext): column 10, at "new"
		{"never caught, module", "module", "main.ts", "function f() { return new Error('probe'); }\nconst e = f();\nexport default JSON.stringify({ s: e.stack, m: e['message'] });",
			`{"s":"Error: probe\n    at f (main.ts:1:23)\n    at main.ts:2:11","m":"probe"}`},
		{"a promise's catch", "script", "s.js", "function g() { let u; return u.x }\nreturn Promise.resolve().then(g).catch((r) => [r.message, r.stack.split('\\n')[1]])",
			`["Cannot read properties of undefined (reading 'x')","    at g (s.js:1:32)"]`},
		{"a class's super call is not a frame", "script", "s.js", "class HttpError extends Error { constructor(m) { super(m); this.name = 'HttpError' } }\nfunction load() { return new HttpError('boom') }\noutput = load().stack",
			"HttpError: boom\n    at load (s.js:2:26)\n    at s.js:3:10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := run(t, h, Request{Files: files(tt.file, tt.code), Mode: tt.mode, Input: json.RawMessage(`{}`)})
			if res.Outcome != OutcomeOK {
				t.Fatalf("outcome %s, errors %+v", res.Outcome, rec.Errors())
			}
			var got any
			if err := json.Unmarshal(res.Output, &got); err != nil {
				t.Fatal(err)
			}
			s, ok := got.(string)
			if !ok {
				b, _ := json.Marshal(got)
				s = string(b)
			}
			if s != tt.want {
				t.Errorf("got  %q\nwant %q", s, tt.want)
			}
			if strings.Contains(s, "file-mem") || strings.Contains(s, "\tat") {
				t.Errorf("goja's layout leaked: %q", s)
			}
		})
	}
	// Rethrown after its stack was read: the report still points at it.
	for _, src := range []string{
		"function f() { throw new Error('x') }\ntry { f() } catch (e) { void e.stack; throw e }",
		"function f() { throw new Error('x') }\ntry { f() } catch (e) { void e.stack; Promise.reject(e) }",
	} {
		_, rec := run(t, h, Request{Files: files("s.js", src), Mode: "script"})
		errs := rec.Errors()
		if len(errs) != 1 || errs[0].File != "s.js" || errs[0].Line != 1 || !strings.Contains(errs[0].Stack, "at f (s.js:1:") {
			t.Errorf("%q: %+v; want the error at f (s.js:1)", src, errs)
		}
	}
}

// An uncaught error a built-in threw is reported in V8's words too.
func TestUncaughtBuiltinErrorInV8Words(t *testing.T) {
	h := newHarness(t, Config{})
	for src, want := range map[string]string{
		"[].reduce((a, b) => a + b);":                           "TypeError: Reduce of empty array with no initial value",
		"'abc'.replaceAll(/b/, 'x');":                           "TypeError: String.prototype.replaceAll called with a non-global RegExp argument",
		"Promise.reject(new RangeError('x'));":                  "Uncaught (in promise) RangeError: x",
		"await Promise.resolve().then(() => (1).toFixed(101));": "RangeError: toFixed() digits argument must be between 0 and 100",
	} {
		_, rec := run(t, h, Request{Files: files("main.js", src+"\nexport {};"), Mode: "module"})
		if errs := rec.Errors(); len(errs) != 1 || errs[0].Message != want {
			t.Errorf("%s: %+v; want %q", src, errs, want)
		}
	}
}

// A call's frame points where V8's does: at the callee, at the method's
// name, at new (recorded from Node 20: node -e with the same code).
func TestCallFramesAsV8(t *testing.T) {
	h := newHarness(t, Config{})
	src := "function f(a, b) { throw new Error('x') }\nconst o = { m() { f(1, 2) } };\ntry { o.m() } catch (e) { console.log(e.stack) }\ntry { [1].map((x) =>   f(x)) } catch (e) { console.log(e.stack) }\ntry { new (class A { constructor() { f() } }) } catch (e) { console.log(e.stack) }\nexport {};"
	_, rec := run(t, h, Request{Files: files("main.js", src), Mode: "module"})
	// Node 20 names the frames Object.m, Array.map, new A and
	// Object.<anonymous>; goja's names are kept.
	want := []string{
		"Error: x\n    at f (main.js:1:26)\n    at m (main.js:2:19)\n    at main.js:3:9",
		"Error: x\n    at f (main.js:1:26)\n    at main.js:4:24\n    at map (<anonymous>)\n    at main.js:4:11",
		"Error: x\n    at f (main.js:1:26)\n    at main.js:5:38\n    at main.js:5:7",
	}
	if got := rec.Logs(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The call that failed, as V8 places it (Node 20).
	_, rec = run(t, h, Request{Files: files("main.js", "function g() { let u; u.x }\ntry { g() } catch (e) { console.log(e.stack) }\nconst cfg = {}; const h = 1;\ntry { cfg.load(1) } catch (e) { console.log(e.stack) }\ntry { h() } catch (e) { console.log(e.stack) }\ntry { new cfg.Nope() } catch (e) { console.log(e.stack) }\nexport {};"), Mode: "module"})
	want = []string{
		"TypeError: Cannot read properties of undefined (reading 'x')\n    at g (main.js:1:25)\n    at main.js:2:7",
		"TypeError: cfg.load is not a function\n    at main.js:4:11",
		"TypeError: h is not a function\n    at main.js:5:7",
		"TypeError: cfg.Nope is not a constructor\n    at main.js:6:7",
	}
	if got := rec.Logs(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
