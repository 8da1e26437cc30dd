package rewrite

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

const testParam = "__rt"

var pcOffset = regexp.MustCompile(`\(\d+\)\)?`)

// evalBody runs body as the body of a bundle function, rewritten by
// StringBuilding or not, and returns what it returned (as JSON, with
// typeof), or what it threw (message and stack), and whether the rewrite
// changed the program.
func evalBody(t *testing.T, body string, rewrite bool) (string, bool) {
	t.Helper()
	if rewrite {
		return evalRewritten(t, body, StringBuilding)
	}
	return evalRewritten(t, body, nil)
}

// evalRewritten is evalBody with the rewrite rw (nil: none).
func evalRewritten(t *testing.T, body string, rw func(*ast.Program, string) bool) (string, bool) {
	t.Helper()
	code := "(function (" + testParam + ") {\n" + body + "\n})"
	prg, err := goja.Parse("t.js", code)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	changed := false
	if rw != nil {
		changed = rw(prg, testParam)
	}
	// Strict, as a module bundle is; a body with `with` as a sloppy
	// script-mode bundle.
	p, err := goja.CompileAST(prg, !strings.Contains(body, "with ("))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	vm := goja.New()
	fv, err := vm.RunProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := goja.AssertFunction(fv)
	rt := vm.NewObject()
	DefineNatives(vm, rt)
	v, err := fn(goja.Undefined(), rt)
	if err != nil {
		return "threw " + err.Error(), changed
	}
	if p, ok := v.Export().(*goja.Promise); ok {
		if p.State() == goja.PromiseStateRejected {
			return fmt.Sprintf("rejected %v", p.Result()), changed
		}
		v = p.Result()
	}
	js, _ := vm.RunString("(v) => typeof v + ' ' + JSON.stringify(v)")
	f, _ := goja.AssertFunction(js)
	out, err := f(goja.Undefined(), v)
	if err != nil {
		return "unprintable " + err.Error(), changed
	}
	return out.String(), changed
}

// TestStringBuildingKeepsMeaning runs each program as written and
// rewritten, and requires the same result, thrown error and stack; and
// that the rewrite applied where the case says it does (so that a case
// which silently stopped being rewritten fails too).
func TestStringBuildingKeepsMeaning(t *testing.T) {
	cases := []struct {
		name, body string
		rewritten  bool
	}{
		{"loop", `let s = ""; for (let i = 0; i < 100; i++) s += i + ",Item " + i + "\n"; return s;`, true},
		{"template init and part", "let s = `a`; for (const x of [1, 2]) s += `<${x}>`; return s;", true},
		{"forEach closure", `let csv = "id\n"; [1, 2, 3].forEach(r => { csv += r + "\n"; }); return csv;`, true},
		{"doubling", `let s = "ab"; for (let i = 0; i < 5; i++) s += s; return s.length + s.slice(0, 8);`, true},
		{"closure appends inside the right side", `let s = "a"; const f = () => { s += "inner"; return "x"; }; s += f(); s += f(); return s;`, true},
		{"right side assigns", `let s = "a"; s += (s = "zz", "y"); return s;`, true},
		{"right side reads", `let s = "ab"; s += s.length; s += s; return s;`, true},
		{"valueOf before toString", `let s = ""; s += {valueOf() { return 1; }, toString() { return "x"; }}; s += [1, [2, 3]]; s += null; s += undefined; s += 1.5e300; s += -0; return s;`, true},
		{"symbol throws, value kept", `let s = "k"; try { s += Symbol("q"); } catch (e) { return e.constructor.name + ": " + e.message + " / " + s; }`, true},
		{"toString throws", `let s = "k"; try { s += {toString() { throw new RangeError("no"); }}; } catch (e) { return e.message + s; }`, true},
		{"typeof", `let s = ""; s += 1; return typeof s + s;`, true},
		{"shorthand and template", "let s = \"\"; s += \"a\"; s += 2; return JSON.stringify({ s, t: `[${s}]` });", true},
		{"value of an append", `let s = "a"; const r = (s += "b"); const q = [s += "c"]; return r + q + s;`, true},
		{"self chain", `let s = "a"; for (let i = 0; i < 3; i++) s = s + i + "-" + (i * 2); return s;`, true},
		{"prepend", `let s = "a"; s += "b"; s = "<" + s; s += ">"; return s;`, true},
		{"plain assign resets", `let s = "a"; s += "b"; s = "c"; s += "d"; return s;`, true},
		{"numeric accumulator untouched", `let t = 0; for (let i = 0; i < 10; i++) t += i; return t;`, false},
		{"var at top", `var s = ""; for (var i = 0; i < 4; i++) s += i; return s;`, true},
		{"var in a block", `if (true) { var s = ""; } for (var i = 0; i < 4; i++) s += i; return s;`, false},
		{"var used by a closure", `var s = ""; const f = () => s += "x"; f(); s += "y"; return s;`, false},
		{"var hoisted read", `function g() { return typeof s; } const before = g(); var s = ""; s += "q"; return before + s;`, false},
		{"TDZ", `const f = () => { s += "x"; }; try { f(); } catch (e) { return e.name + ": " + e.message; } let s = "";`, true},
		{"TDZ read", `const f = () => s; try { f(); } catch (e) { return e.message; } let s = ""; s += "x";`, true},
		{"increment", `let s = "1"; s += "2"; s++; return s;`, false},
		{"destructuring", `let s = "1"; s += "2"; [s] = ["x"]; s += "y"; return s;`, false},
		{"for of head", `let s = ""; for (s of ["a", "b"]); s += "c"; return s;`, false},
		{"non-string assignment", `let s = ""; s += "a"; s = 5; s += 1; return s;`, false},
		{"non-string init", `let s = String(1); s += "a"; return s;`, false},
		{"logical assignment", `let s = ""; s += "a"; s ||= "b"; return s;`, false},
		{"shadowing", `let s = "o"; { let s = 1; s += 1; s += 2; } s += "x"; { const f = (s) => s + 1; s += f(1); } return s;`, true},
		{"per-iteration bindings", `const fs = []; for (let i = 0; i < 3; i++) { let s = "i" + i; fs.push(() => (s += "!")); s += ":"; } return fs.map(f => f() + f()).join();`, true},
		{"class members", `let s = "a"; class C { x = s; m() { return s += "m"; } static { s += "S"; } } const c = new C(); c.m(); return s + c.x + c.m();`, true},
		{"generator", `let out = []; function* g() { let s = "a"; s += yield 1; s += yield 2; return s; } const it = g(); it.next(); it.next("b"); out.push(it.next("c").value); return out;`, true},
		{"unicode and halves", `let s = "é"; s += "\ud83d"; s += "\ude00"; s += "a"; return [s.length, s.codePointAt(1), s];`, true},
		{"length as a target", `let s = "ab"; s += "c"; try { s.length = 1; } catch (e) { return e.message + s.length; }`, true},
		{"length through delete and ++", `let s = "ab"; s += "c"; let r = []; try { r.push(delete s.length); } catch (e) { r.push(e.name); } try { s.length++; } catch (e) { r.push(e.name); } return r.concat(s.length, s);`, true},
		{"length in a loop", `let s = ""; while (s.length < 50) s += "ab"; return s.length;`, true},
		{"switch and labels", `let s = ""; outer: for (const k of [1, 2, 3]) { switch (k) { case 1: s += "one"; break; case 2: s += "two"; continue outer; default: s += "d"; break outer; } s += ";"; } return s;`, true},
		{"eval anywhere", `let s = ""; s += "a"; const e = eval; return s;`, false},
		{"string method chain", `let s = "x"; s += "y"; return s.toUpperCase().split("").reverse().join("") + s.at(-1);`, true},
		{"compare and use as key", `let s = "k"; s += "1"; const o = { [s]: 1 }; return [s === "k1", s < "k2", o.k1, s in o];`, true},
		{"thrown position", `let s = ""; s += "a"; s += ((() => { throw new Error("inside"); })()); return s;`, true},
		{"stack of a conversion", `let s = ""; s += "a"; try { s += {toString() { throw new Error("ts"); }}; } catch (e) { return e.stack; }`, true},
		{"stack through a call", `function g() { throw new Error("g"); } let s = ""; s += "a"; try { s += "<" + g(); } catch (e) { return e.stack; }`, true},
		{"async await inside", `return (async () => { let s = "a"; s += await Promise.resolve("b"); s += await "c"; return s; })();`, true},
		{"nested builders", `let a = "", b = ""; for (let i = 0; i < 3; i++) { b += i; a += (b += "|"); } return a + "/" + b;`, true},
		{"function declaration reads", `let s = ""; function show() { return "[" + s + "]"; } s += "x"; const first = show(); s += "y"; return first + show();`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, _ := evalBody(t, c.body, false)
			got, changed := evalBody(t, c.body, true)
			// A raw goja stack frame ends in the bytecode offset, which
			// the rewrite changes; snippets see stacks without it.
			want, got = pcOffset.ReplaceAllString(want, ")"), pcOffset.ReplaceAllString(got, ")")
			if got != want {
				t.Errorf("rewritten: %s\nas written: %s", got, want)
			}
			if changed != c.rewritten {
				t.Errorf("rewritten = %v, want %v", changed, c.rewritten)
			}
		})
	}
}

// TestStringBuildingIsLinear appends 2e5 lines, which as written copies
// the whole string each time (about 2e5 × 3 MB): the rewrite must produce
// the same string. The time it takes is in BenchmarkStringBuilding.
func TestStringBuildingIsLinear(t *testing.T) {
	body := `let s = ""; for (let i = 0; i < 2e5; i++) s += i + ",Item " + i + ",123,active\n"; return [s.length, s.slice(-20)];`
	got, changed := evalBody(t, body, true)
	if !changed || !strings.Contains(got, "5777780") {
		t.Fatalf("got %s (changed %v)", got, changed)
	}
}

func BenchmarkStringBuilding(b *testing.B) {
	for _, n := range []int{1e4, 1e5} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			code := fmt.Sprintf(`(function (%s) { let s = ""; for (let i = 0; i < %d; i++) s += i + ",Item " + i + ",123,active\n"; return s.length; })`, testParam, n)
			prg, err := goja.Parse("b.js", code)
			if err != nil {
				b.Fatal(err)
			}
			if !StringBuilding(prg, testParam) {
				b.Fatal("not rewritten")
			}
			p, err := goja.CompileAST(prg, true)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				vm := goja.New()
				fv, _ := vm.RunProgram(p)
				fn, _ := goja.AssertFunction(fv)
				rt := vm.NewObject()
				DefineNatives(vm, rt)
				if _, err := fn(goja.Undefined(), rt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
