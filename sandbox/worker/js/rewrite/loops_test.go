package rewrite

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

// TestArrayLoopsChangeNothing runs each body as written and as ArrayLoops
// rewrites it: the values, errors, stacks and every observable step (traps,
// getters, next and return calls, logged into `log`) must be the same.
func TestArrayLoopsChangeNothing(t *testing.T) {
	var indexed, iterated int
	arrayLoopTaken = func(ok bool) {
		if ok {
			indexed++
		} else {
			iterated++
		}
	}
	saved := minIndexed
	minIndexed = 0 // the cases' arrays are short
	defer func() { arrayLoopTaken, minIndexed = nil, saved }()
	cases := []struct {
		name, body string
		// rewritten: ArrayLoops changes the program.
		rewritten bool
		// want, when set, is what the rewritten body gives where it differs
		// from the body as written.
		want string
	}{
		{"sum", `let s = 0; for (const x of [1, 2, 3]) s += x; return s;`, true, ""},
		{"let and closures bind each iteration", `const fs = []; for (let x of [1, 2, 3]) { fs.push(() => x); x *= 10; } return fs.map(f => f());`, true, ""},
		{"const closures", `const fs = []; for (const x of ["a", "b"]) fs.push(() => x); return fs.map(f => f());`, true, ""},
		{"var leaks its last value", `for (var v of [4, 5, 6]) {} return v;`, true, ""},
		{"var pattern", `for (var [a, b] of [[1, 2], [3, 4]]) {} return [a, b];`, true, ""},
		{"destructuring with defaults", `const out = []; for (const {p = 9, q: [r] = [7]} of [{}, {p: 1, q: [2]}]) out.push(p, r); return out;`, true, ""},
		{"destructuring null throws at its place", `for (const {a} of [null]) {} return 1;`, true, ""},
		{"break and continue", `const out = []; for (const x of [1, 2, 3, 4, 5]) { if (x === 2) continue; if (x === 4) break; out.push(x); } return out;`, true, ""},
		{"labels", `const out = []; outer: for (const x of [1, 2, 3]) { for (let i = 0; i < 3; i++) { if (i === 1) continue outer; if (x === 3) break outer; out.push([x, i]); } } return out;`, true, ""},
		{"two labels", `let n = 0; a: b: for (const x of [1, 2, 3]) { if (x === 2) continue b; if (x === 3) break a; n += x; } return n;`, true, ""},
		{"switch break", `const out = []; for (const x of [1, 2]) { switch (x) { case 1: out.push("one"); break; default: out.push("other"); } } return out;`, true, ""},
		{"return from inside", `function f(xs) { for (const x of xs) if (x > 1) return x; return -1; } return [f([0, 2, 3]), f([])];`, true, ""},
		{"growing while iterating", `const a = [1]; for (const x of a) if (a.length < 5) a.push(x + 1); return a;`, true, ""},
		{"shrinking while iterating", `const a = [1, 2, 3, 4, 5], seen = []; for (const x of a) { seen.push(x); a.length = 3; } return seen;`, true, ""},
		{"splice while iterating", `const a = [1, 2, 3, 4], seen = []; for (const x of a) { seen.push(x); if (x === 2) a.splice(0, 1); } return seen;`, true, ""},
		{"holes read the prototype", `const a = [1, , 3]; Array.prototype[1] = "proto"; const out = []; for (const x of a) out.push(x); delete Array.prototype[1]; return out;`, true, ""},
		{"holes as undefined", `const out = []; for (const x of [, 1, ,]) out.push(typeof x); return out;`, true, ""},
		{"getter element", `const log = []; const a = [1, 2]; Object.defineProperty(a, 1, { get() { log.push("get 1"); return 20; } }); for (const x of a) log.push(x); return log;`, true, ""},
		{"frozen", `let s = 0; for (const x of Object.freeze([1, 2])) s += x; return s;`, true, ""},
		{"shadowing let in the body", `const out = []; for (const x of [1, 2]) { let x2 = x; { let x = x2 * 2; out.push(x); } } return out;`, true, ""},
		{"function declaration in the body", `const out = []; for (const x of [1, 2]) { function g() { return x * 3; } out.push(g()); } return out;`, true, ""},
		{"this in the body", `const o = { k: 5, f() { let s = 0; for (const x of [1, 2]) s += this.k * x; return s; } }; return o.f();`, true, ""},
		{"generator yields inside", `function* g(xs) { for (const x of xs) yield x * 2; } return [...g([1, 2, 3])];`, true, ""},
		{"await inside", `async function f(xs) { let s = 0; for (const x of xs) s += await x; return s; } return f([1, Promise.resolve(2)]);`, true, ""},
		{"throw inside keeps the stack", `function f(rows) { for (const r of rows) { if (r > 1) throw new Error("boom " + r); } } try { f([1, 2]); } catch (e) { return e.stack; }`, true, ""},
		{"error from the source", `const n = 7; for (const x of n) {} return 1;`, true, ""},
		// As written goja places this error at the function's start; the
		// rewritten loop at its source, as it does for any other
		// non-iterable ("error from the source").
		{"null source", `for (const x of null) {} return 1;`, true, "threw TypeError: Cannot convert undefined or null to object at t.js:2:17)"},
		{"string", `const out = []; for (const c of "a😀b") out.push(c); return out;`, true, ""},
		{"map and set", `const out = []; for (const [k, v] of new Map([[1, 2]])) out.push(k, v); for (const x of new Set([3, 3, 4])) out.push(x); return out;`, true, ""},
		{"typed array", `let s = 0; for (const x of new Uint8Array([1, 2, 250])) s += x; return s;`, true, ""},
		{"arguments", `function f() { let s = 0; for (const x of arguments) s += x; return s; } return f(1, 2, 3);`, true, ""},
		{"entries", `const out = []; for (const [i, v] of ["a", "b"].entries()) out.push(i + v); return out;`, true, ""},
		{"subclass uses its iterator", `const log = []; class A extends Array { *[Symbol.iterator]() { log.push("own"); yield 1; } } for (const x of A.from([5, 6])) log.push(x); return log;`, true, ""},
		{"own Symbol.iterator", `const a = [1, 2]; a[Symbol.iterator] = function* () { yield "own"; }; const out = []; for (const x of a) out.push(x); return out;`, true, ""},
		{"patched Array.prototype iterator", `const saved = Array.prototype[Symbol.iterator]; Array.prototype[Symbol.iterator] = function* () { yield "patched"; }; const out = []; for (const x of [1, 2]) out.push(x); Array.prototype[Symbol.iterator] = saved; return out;`, true, ""},
		{"iterator getter runs once", `const log = []; const d = Object.getOwnPropertyDescriptor(Array.prototype, Symbol.iterator); Object.defineProperty(Array.prototype, Symbol.iterator, { configurable: true, get() { log.push("get"); return d.value; } }); for (const x of [1, 2]) log.push(x); Object.defineProperty(Array.prototype, Symbol.iterator, d); return log;`, true, ""},
		{"patched next", `const P = Object.getPrototypeOf([][Symbol.iterator]()); const next = P.next; const log = []; P.next = function () { const r = next.call(this); log.push(r.value); return r; }; for (const x of [1, 2]) {} P.next = next; return log;`, true, ""},
		{"return method is called on break", `const P = Object.getPrototypeOf([][Symbol.iterator]()); const log = []; P.return = function () { log.push("return"); return {}; }; for (const x of [1, 2, 3]) { log.push(x); if (x === 2) break; } delete P.return; return log;`, true, ""},
		{"Object.prototype.return is called on throw", `const log = []; Object.prototype.return = function () { log.push("closed"); return {}; }; try { for (const x of [1, 2]) throw new Error("t"); } catch (e) { log.push(e.message); } delete Object.prototype.return; return log;`, true, ""},
		{"proxy traps", `const log = []; const p = new Proxy([1, 2], { get(t, k, r) { log.push(String(k)); return Reflect.get(t, k, r); } }); for (const x of p) log.push("x" + x); return log;`, true, ""},
		{"array with a symbol", `const a = [1]; a[Symbol("s")] = 1; let s = 0; for (const x of a) s += x; return s;`, true, ""},
		{"source names the variable (TDZ)", `const x = [1]; try { for (const x of x) {} } catch (e) { return e.name; } return "no error";`, false, ""},
		{"assignment target is left alone", `let y; const out = []; for (y of [1, 2]) out.push(y); return [y, out];`, false, ""},
		{"nested: the inner loop only", `const out = []; for (const r of [[1, 2], [3]]) for (const x of r) out.push(x); return out;`, true, ""},
		{"loop in a closure, twice", `const f = (xs) => { let s = 0; for (const x of xs) s += x; return s; }; return [f([1, 2]), f(new Set([3]))];`, true, ""},
		{"body without a block", `let s = 0; for (const x of [1, 2]) if (x) s += x; return s;`, true, ""},
		{"with is left alone", `const o = { a: [1, 2] }; let s = 0; with (o) { for (const x of a) s += x; } return s;`, false, ""},
	}
	// The loops arrayLoop must send to for…of: not an ordinary array, or
	// its iteration changed.
	iteratedOnly := map[string]bool{}
	for _, name := range []string{"error from the source", "null source", "string", "map and set", "typed array",
		"arguments", "entries", "subclass uses its iterator", "own Symbol.iterator", "patched Array.prototype iterator",
		"iterator getter runs once", "patched next", "return method is called on break",
		"Object.prototype.return is called on throw", "proxy traps", "array with a symbol"} {
		iteratedOnly[name] = true
	}
	for name := range iteratedOnly {
		if !slices.ContainsFunc(cases, func(c struct {
			name, body string
			rewritten  bool
			want       string
		}) bool {
			return c.name == name
		}) {
			t.Errorf("iteratedOnly names %q, which is no case", name)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, _ := evalRewritten(t, c.body, nil)
			indexed, iterated = 0, 0
			got, changed := evalRewritten(t, c.body, ArrayLoops)
			switch {
			case !c.rewritten:
			case c.name == "loop in a closure, twice":
				if indexed != 1 || iterated != 1 {
					t.Errorf("loops run indexed %d, iterated %d; want 1 and 1", indexed, iterated)
				}
			case iteratedOnly[c.name]:
				if indexed != 0 || iterated == 0 {
					t.Errorf("loops run indexed %d, iterated %d; want only iterated", indexed, iterated)
				}
			default:
				if indexed == 0 || iterated != 0 {
					t.Errorf("loops run indexed %d, iterated %d; want only indexed", indexed, iterated)
				}
			}
			want, got = pcOffset.ReplaceAllString(want, ")"), pcOffset.ReplaceAllString(got, ")")
			if c.want != "" {
				want = c.want
			}
			if got != want {
				t.Errorf("rewritten: %s\nas written: %s", got, want)
			}
			if changed != c.rewritten {
				t.Errorf("rewritten = %v, want %v", changed, c.rewritten)
			}
		})
	}
}

// TestShortArraysIterate: an array shorter than minIndexed is left to
// for…of (the checks would cost what they save), a longer one is indexed.
func TestShortArraysIterate(t *testing.T) {
	var taken []bool
	arrayLoopTaken = func(ok bool) { taken = append(taken, ok) }
	defer func() { arrayLoopTaken = nil }()
	body := `let s = 0; for (const x of [1, 2, 3]) s += x; for (const x of [1, 2, 3, 4]) s += x; return s;`
	got, changed := evalRewritten(t, body, ArrayLoops)
	if got != "number 16" || !changed {
		t.Fatalf("got %s, changed %v", got, changed)
	}
	if len(taken) != 2 || taken[0] || !taken[1] {
		t.Fatalf("arrayLoop answered %v, want [false true]", taken)
	}
}

// TestArrayLoopsWithStringBuilding runs both rewrites on one program, as
// Compile does.
func TestArrayLoopsWithStringBuilding(t *testing.T) {
	body := `let csv = ""; for (const r of [{a: 1}, {a: 2}]) csv += r.a + ",\n"; const out = []; for (const line of csv.split("\n")) out.push(line); return [csv, out];`
	want, _ := evalRewritten(t, body, nil)
	got, changed := evalRewritten(t, body, func(p *ast.Program, param string) bool {
		a := StringBuilding(p, param)
		b := ArrayLoops(p, param)
		return a && b
	})
	if !changed || got != want {
		t.Fatalf("changed %v\nrewritten: %s\nas written: %s", changed, got, want)
	}
}

func BenchmarkArrayLoops(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"1e5 numbers", `const a = []; for (let i = 0; i < 1e5; i++) a.push(i); let s = 0; for (const x of a) s += x; return s;`},
		{"1e5 loops over 2 elements", `const a = [1, 2]; let s = 0; for (let i = 0; i < 1e5; i++) for (const x of a) s += x; return s;`},
	} {
		for _, rw := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/rewritten=%v", c.name, rw), func(b *testing.B) {
				code := fmt.Sprintf("(function (%s) {\n%s\n})", testParam, c.body)
				prg, err := goja.Parse("b.js", code)
				if err != nil {
					b.Fatal(err)
				}
				if rw && !ArrayLoops(prg, testParam) {
					b.Fatal("not rewritten")
				}
				p, err := goja.CompileAST(prg, true)
				if err != nil {
					b.Fatal(err)
				}
				vm := goja.New()
				fv, _ := vm.RunProgram(p)
				fn, _ := goja.AssertFunction(fv)
				rt := vm.NewObject()
				DefineNatives(vm, rt)
				for b.Loop() {
					if _, err := fn(goja.Undefined(), rt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
