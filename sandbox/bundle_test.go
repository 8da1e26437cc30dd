package sandbox

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		name  string
		files []File
		ok    bool
		kind  ErrorKind
		text  string
	}{
		{"js specifier names ts file", files("src/main.ts", "import { a } from './a.js'; console.log(a);", "src/a.ts", "export const a = 1;"), true, "", ""},
		{"extensionless", files("main.ts", "import { a } from './lib/a'; console.log(a);", "lib/a.tsx", "export const a = 1;"), true, "", ""},
		{"directory index", files("main.ts", "import { a } from './lib'; console.log(a);", "lib/index.ts", "export const a = 1;"), true, "", ""},
		{"parent directory", files("src/x/main.ts", "import { a } from '../a'; console.log(a);", "src/a.ts", "export const a = 1;"), true, "", ""},
		{"json", files("main.ts", "import d from './d.json'; console.log(d);", "d.json", `{"k":1}`), true, "", ""},
		{"outside the files", files("main.ts", "import '../x';"), false, KindBundle, "outside"},
		{"missing", files("main.ts", "import './nope';", "other.ts", ""), false, KindBundle, "no file nope among the snippet's files (main.ts, other.ts)"},
		{"absolute", files("main.ts", "import '/etc/passwd';"), false, KindBundle, "relative"},
		{"bare", files("main.ts", "import 'left-pad';"), false, KindBundle, `importable modules: playground, date-fns, lodash, papaparse, uuid, zod and relative files`},
		{"node builtin", files("main.ts", "import 'fs/promises';"), false, KindSecurity, "host modules"},
		{"node: scheme", files("main.ts", "import 'node:child_process';"), false, KindSecurity, "host modules"},
		{"dynamic import of a host module", files("main.ts", "await import('http');"), false, KindSecurity, "host modules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bundle(tt.files, tt.files[0].Path, testLibraries(t))
			if tt.ok {
				if len(b.Errors) > 0 {
					t.Fatalf("bundle errors = %+v; want none", b.Errors)
				}
				return
			}
			if len(b.Errors) == 0 {
				t.Fatalf("bundle succeeded; want %s", tt.kind)
			}
			e := b.Errors[0]
			if e.Kind != tt.kind || !strings.Contains(e.Message, tt.text) || e.File != tt.files[0].Path || e.Line != 1 {
				t.Errorf("error = %+v; want %s containing %q at %s:1", e, tt.kind, tt.text, tt.files[0].Path)
			}
		})
	}
}

func TestSyntaxErrorColumnCountsUTF16(t *testing.T) {
	b := bundle(files("main.ts", "const s = \"é😀\"; )"), "main.ts", testLibraries(t))
	if len(b.Errors) != 1 {
		t.Fatalf("errors = %+v", b.Errors)
	}
	// "const s = \"é😀\"; " is 17 UTF-16 units (23 bytes); the error is at ')'.
	if e := b.Errors[0]; e.Line != 1 || e.Column != 18 {
		t.Errorf("error at %d:%d; want 1:18 (UTF-16 columns)", e.Line, e.Column)
	}
}

func TestDefaultEntry(t *testing.T) {
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"a.ts", "src/main.ts", "main.ts"}, "src/main.ts"},
		{[]string{"index.ts", "main.ts"}, "main.ts"},
		{[]string{"src/index.ts", "index.ts"}, "index.ts"},
		{[]string{"lib.ts", "main.js"}, "main.js"},
		{[]string{"only.tsx"}, "only.tsx"},
		{[]string{"a.ts", "b.ts"}, ""},
	}
	for _, tt := range tests {
		var fs []File
		for _, p := range tt.paths {
			fs = append(fs, File{Path: p})
		}
		if got := DefaultEntry(fs); got != tt.want {
			t.Errorf("DefaultEntry(%v) = %q; want %q", tt.paths, got, tt.want)
		}
	}
}

// TestBundleTargetRunsInGoja pins Target: code using the newest syntax of
// that ECMAScript level passes through esbuild untouched and runs in goja.
func TestBundleTargetRunsInGoja(t *testing.T) {
	p := newTestPool(t, Config{Workers: 1})
	res, rec := run(t, p, Request{Files: files("main.ts", `
class A { #p = 1; static s = 2; static { A.s = 3; } get p() { return this.#p; } has(o: object) { return #p in o; } }
const o: { a?: { b?: number } } = {};
const big = 2n ** 64n;
const g = /(?<year>\d{4})/.exec("in 2024")?.groups?.year;
const at = [1, 2, 3].at(-1);
const own = Object.hasOwn({ x: 1 }, "x");
let n = null; n ??= 5;
const e = new Error("outer", { cause: "inner" });
async function* gen() { yield 1; yield 2; }
let sum = 0; for await (const v of gen()) sum += v;
console.log(new A().p, A.s, new A().has(new A()), o.a?.b ?? "none", String(big), g, at, own, n, e.cause, sum, 2 ** 10, [[1, [2]]].flat(2).length, "a-b".replaceAll("-", "+"));
`)})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s; errors %+v", res.Outcome, rec.errors())
	}
	if got, want := rec.logs(), "1 3 true none 18446744073709551616 2024 3 true 5 inner 3 1024 2 a+b"; len(got) != 1 || got[0] != want {
		t.Errorf("logs = %q; want %q", got, want)
	}
}

func testLibraries(t *testing.T) *libraryRegistry {
	t.Helper()
	r, err := newLibraryRegistry("")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
