package libs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, src string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVendoredLibraries(t *testing.T) {
	var s *Set // the nil Set has the vendored libraries only
	if got := strings.Join(s.Modules(), " "); got != "playground" {
		t.Errorf("nil Set modules = %q", got)
	}
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Modules(), " "); got != "playground date-fns date-fns/locale jstat lodash mathjs papaparse uuid validator zod" {
		t.Errorf("modules = %q", got)
	}
	l, ok := s.Lookup("lodash")
	if !ok || l.Version == "" || l.License == "" || len(l.Exports) < 100 {
		t.Errorf("lodash = %+v, %v; want a version, a license and its exports", l, ok)
	}
	src, err := s.Source("lodash")
	if err != nil || !strings.Contains(src, "lodash") {
		t.Errorf("Source(lodash) = %d bytes, %v", len(src), err)
	}
	if _, err := s.Source("left-pad"); err == nil {
		t.Error("Source(left-pad) succeeded; want an error")
	}
}

func TestOperatorDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "greeter.js", "export const greet = (n) => `hi ${n}`;\nexport default { version: 3 };\n")
	writeFile(t, dir, "@acme/tools.mjs", "export function twice(x) { return x * 2; }\nexport { twice as 'not-an-identifier' };\n")
	writeFile(t, dir, "README.md", "not a library")
	s, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Modules(), " "); got != "playground @acme/tools date-fns date-fns/locale greeter jstat lodash mathjs papaparse uuid validator zod" {
		t.Errorf("modules = %s", got)
	}
	l, _ := s.Lookup("@acme/tools")
	if strings.Join(l.Exports, ",") != "twice" || l.Version != "operator" {
		t.Errorf("@acme/tools = %+v; want exports [twice] (names that are not identifiers are left out)", l)
	}
	src, err := s.Source("greeter")
	if err != nil || !strings.Contains(src, "hi ") {
		t.Errorf("Source(greeter) = %q, %v", src, err)
	}

	for name, tc := range map[string]struct{ file, src, want string }{
		"imports": {"bad.js", "import x from 'lodash'; export default x;", "self-contained"},
		"shadows": {"lodash.js", "export default 1;", "already a library"},
		"syntax":  {"broken.js", "export const = ;", "esbuild"},
	} {
		t.Run(name, func(t *testing.T) {
			bad := t.TempDir()
			writeFile(t, bad, tc.file, tc.src)
			if _, err := New(bad); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
				t.Errorf("New(dir with %s) = %v; want an error naming the file and %q", tc.file, err, tc.want)
			}
		})
	}
}

// TestLighterEntryMatchesFullLibrary runs testdata/lighter.mjs under Node
// (the packages `npm ci` installed here) to compare mathjs/number with
// mathjs for every name a snippet may get from the lighter entry: results
// must be equal, except that mathjs/number throws where mathjs maps the
// documented element-wise names over an array (gen.go, lighterSame).
func TestLighterEntryMatchesFullLibrary(t *testing.T) {
	needNodeModules(t, "node_modules/mathjs")
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	src, ok := set.ESM("mathjs")
	if !ok || len(src.LighterExports) == 0 {
		t.Fatal("mathjs has no lighter entry")
	}
	names, _ := json.Marshal(src.LighterExports)
	out, err := exec.Command("node", "testdata/lighter.mjs", string(names)).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	elementwise := []string{"mean", "round", "abs", "floor", "ceil"}
	for line := range strings.Lines(string(out)) {
		var d struct{ Name, Full, Lighter string }
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if d.Lighter == "ERR" && slices.Contains(elementwise, d.Name) && strings.HasSuffix(d.Full, ":array") {
			continue
		}
		t.Errorf("mathjs/number differs from mathjs: %s", strings.TrimSpace(line))
	}
}

// TestSubpath: the subpaths of vendored packages that Node code imports
// resolve to their library and the one export they stand for; others do
// not resolve.
func TestSubpath(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, lib, export string }{
		{"zod/v4", "zod", ""},
		{"lodash/groupBy", "lodash", "groupBy"},
		{"lodash/groupBy.js", "lodash", "groupBy"},
		{"date-fns/addDays", "date-fns", "addDays"},
		{"validator/lib/isEmail", "validator", "isEmail"},
		{"validator/es/lib/isEmail", "validator", "isEmail"},
		{"date-fns/locale/de", "date-fns/locale", "de"},
		{"date-fns/locale/zh-CN", "date-fns/locale", "zhCN"},
		{"date-fns/locale/pt-BR.js", "date-fns/locale", "ptBR"},
		{"date-fns/locale", "", ""},      // a library itself (Lookup), not a subpath
		{"date-fns/locale/zhCN", "", ""}, // the export's name, not its module's
		{"date-fns/locale/xx", "", ""},
		{"date-fns/locale/_lib/buildMatchFn", "", ""},
		{"date-fns/fp", "", ""},
		{"lodash/nope", "", ""},
		{"lodash/fp/map", "", ""},
		{"zod/mini", "", ""},
		{"mathjs/number", "", ""},
	} {
		m, ok := set.Subpath(tc.spec)
		if m.Lib != tc.lib || m.Export != tc.export || ok != (tc.lib != "") {
			t.Errorf("Subpath(%q) = %+v, %v; want %q, %q", tc.spec, m, ok, tc.lib, tc.export)
		}
	}
}

// needNodeModules skips t when path, a package `npm ci` installs in
// sandbox/libs, is absent (a fresh clone: go test ./... needs no npm), and
// fails it instead under scripts/test.sh, which installs the packages and
// sets PLAYGROUND_REQUIRE_NPM, so that CI never skips it. It also needs node.
func needNodeModules(t *testing.T, path string) {
	t.Helper()
	_, err := os.Stat(path)
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err == nil {
		return
	}
	if os.Getenv("PLAYGROUND_REQUIRE_NPM") != "" {
		t.Fatalf("PLAYGROUND_REQUIRE_NPM is set but %v (npm ci in sandbox/libs; scripts/test.sh does it)", err)
	}
	t.Skipf("needs the npm packages of sandbox/libs and node (%v): npm ci there, or run scripts/test.sh, which does", err)
}

// TestLocaleLibrary: date-fns/locale is vendored as a library of its own,
// its exports the locales (as Node's require("date-fns/locale") has
// them), each member module date-fns/locale/<code> mapped to its locale,
// and its ES module source re-exports each by name, so that a chunk can
// be cut to the locales a run names.
func TestLocaleLibrary(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	l, ok := set.Lookup("date-fns/locale")
	if !ok || len(l.Exports) < 90 || l.License != "MIT" {
		t.Fatalf("date-fns/locale = %+v, %v; want the locales, MIT", l, ok)
	}
	d, _ := set.Lookup("date-fns")
	if l.Version != d.Version {
		t.Errorf("date-fns/locale %s, date-fns %s; want date-fns's version", l.Version, d.Version)
	}
	for _, code := range []string{"de", "fr", "es", "ja", "zh-CN", "ar", "ru", "pt-BR", "en-GB", "en-US", "sr-Latn", "be-tarask"} {
		e, ok := l.Subpaths[code]
		if !ok || !slices.Contains(l.Exports, e) || e != strings.ReplaceAll(strings.ReplaceAll(code, "-t", "T"), "-", "") {
			t.Errorf("Subpaths[%q] = %q, %v; want its camel-cased export", code, e, ok)
		}
	}
	if len(l.Subpaths) != len(l.Exports) {
		t.Errorf("%d subpaths for %d exports; want one each", len(l.Subpaths), len(l.Exports))
	}
	src, ok := set.ESM("date-fns/locale")
	if !ok || !slices.Equal(src.Exports, l.Exports) {
		t.Fatalf("ESM(date-fns/locale) = %v; want the same exports as the whole script", ok)
	}
	kept, ok := reexportsOf(src.Entry, []string{"de", "zhCN"})
	if !ok || kept != "export { de } from \"date-fns/locale/de\";\nexport { zhCN } from \"date-fns/locale/zh-CN\";\n" {
		t.Errorf("the entry cut to de, zhCN = %q, %v; want their two re-exports", kept, ok)
	}
	script, err := set.Source("date-fns/locale")
	if err != nil || !strings.Contains(script, "zh-CN") {
		t.Errorf("Source(date-fns/locale) = %d bytes, %v", len(script), err)
	}
}
