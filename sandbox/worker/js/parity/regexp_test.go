package parity_test

import (
	"testing"
)

// TestRegExpFromStringCache: new RegExp(string, flags) built from the
// per-process literal cache behaves as the intrinsic's: a fresh object
// each time (own lastIndex), the same source and flags, the wrapper's
// prototype, instanceof; what a literal cannot spell exactly, or goja
// refuses, still goes to the intrinsic and throws its SyntaxError.
func TestRegExpFromStringCache(t *testing.T) {
	runHostile(t, []hostileCase{
		{"fresh objects", `const a = new RegExp("a+", "g"), b = new RegExp("a+", "g"); a.exec("aa"); console.log(a !== b, a.lastIndex, b.lastIndex, a.source, a.flags, a instanceof RegExp, Object.getPrototypeOf(a) === RegExp.prototype)`,
			[]string{"true 2 0 a+ g true true"}, ""},
		{"call form", `const r = RegExp("(\\d+)-(\\d+)", "y"); console.log(r.sticky, "12-34".replace(r, "$2-$1"), String(r))`,
			[]string{"true 34-12 /(\\d+)-(\\d+)/y"}, ""},
		{"not spellable as a literal", `console.log(new RegExp("a/b").test("a/b"), new RegExp("").source, new RegExp("*?x".slice(2)).source, new RegExp("a\nb").source, new RegExp("x", undefined).flags === "")`,
			[]string{"true (?:) x a\\nb true"}, ""},
		{"flags that are code", `try { new RegExp("a", "g;console.log('INJECTED')") } catch (e) { console.log(e.name) }`,
			[]string{"SyntaxError"}, ""},
		{"invalid pattern", `try { new RegExp("(") } catch (e) { console.log(e.name) }; try { RegExp("a", "gg") } catch (e) { console.log(e.name) }`,
			[]string{"SyntaxError", "SyntaxError"}, ""},
		{"subclass keeps its prototype", `class R extends RegExp {}; const r = new R("a", "g"); console.log(r instanceof R, r.global)`,
			[]string{"true true"}, ""},
		{"a pattern past the cache's 4 KiB bound", `const p = "a".repeat(5000); const r = new RegExp(p, "g"); console.log(r.test("a".repeat(5001)), r.lastIndex, r.source.length)`,
			[]string{"true 5000 5000"}, ""},
		{"unicode property still rewritten", `console.log(new RegExp("\\p{L}+", "u").exec("héllo1")[0])`,
			[]string{"héllo"}, ""},
	})
}
