package js_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// TestDateFnsLocales runs the date-fns locale snippets of
// testdata/locales (ES modules: date-fns/locale by name, by namespace,
// date-fns/locale/<code> by default and named import) and compares their
// console output with Node 20's, recorded with date-fns from
// sandbox/libs/node_modules by
//
//	cd sandbox/worker/js/testdata/locales && node record.mjs
//
// under TZ=UTC, the runtime's only zone (js.Zone), so that fixed UTC
// dates format the same in both.
func TestDateFnsLocales(t *testing.T) {
	conformance(t, "testdata/locales", "module", 15, localeDeviations, "date-fns with a locale differs from Node 20")
}

// localeDeviations are the locale snippets whose output is not Node 20's
// on purpose; want is the playground's exact output.
var localeDeviations = map[string]struct{ reason, want string }{
	"namespace": {
		reason: "a library imported whole gets a default export, its exports object, from the playground's facade (bundle.libraryFacade), as date-fns and every other library do, so its namespace has a default key; date-fns/locale has no default export in Node",
		want: `96 af,ar,arDZ,arEG,arMA true true default
it domenica 3 marzo 2024 14:05
nl zondag 3 maart 2024 14:05
pl niedziela, 3 marca 2024 14:05
sv söndag 3 mars 2024 14:05
tr 3 Mart 2024 Pazar 14:05
ko 2024년 3월 3일 일요일 14:05
uk неділя, 3-є березня 2024 р. 14:05
hi रविवार, ३ मार्च, 2024 2:05 अपराह्न
enUS Sunday, March 3rd, 2024 2:05 PM
zhTW 2024年3月3日 星期日 下午 2:05
`,
	},
}

// TestDateFnsLocalesScript is TestDateFnsLocales for script mode:
// require("date-fns/locale") destructured, by member and by a computed
// name, and require("date-fns/locale/<code>") (Node's CommonJS object of
// the one locale), recorded by the same command (script/ runs as
// CommonJS there).
func TestDateFnsLocalesScript(t *testing.T) {
	conformance(t, "testdata/locales/script", "script", 4, nil, "date-fns with a locale differs from Node 20 (script mode)")
}

// TestDateFnsLocaleRefused: a locale module date-fns does not have is a
// bundling error naming the module and the locales there are, as the
// other refused subpaths are; required in script mode, the SECURITY_ERROR
// of any refused module, with the same list. A locale name date-fns/locale
// does not export, or a locale imported from date-fns itself, is esbuild's
// error naming the module and the import, as in Node (a SyntaxError there).
func TestDateFnsLocaleRefused(t *testing.T) {
	h := newHarness(t, Config{})
	codes := []string{"date-fns/locale/<name>", "<name> is one of af, ar, ar-DZ,", " de, de-AT,", "zh-CN, zh-HK, zh-TW"}
	for _, tc := range []struct {
		mode, src string
		kind      pipe.ErrorKind
		want      []string
	}{
		{"module", `import { xx } from "date-fns/locale/xx";`, KindBundle, append([]string{`cannot import "date-fns/locale/xx"`}, codes...)},
		{"module", `import { zhCN } from "date-fns/locale/zhCN";`, KindBundle, codes},
		{"module", `import { de } from "date-fns/locale/de/_lib/localize.js";`, KindBundle, codes},
		{"script", `const { xx } = require("date-fns/locale/xx");`, KindSecurity, append([]string{"Module 'date-fns/locale/xx' is not allowed"}, codes...)},
		{"module", `import { xx } from "date-fns/locale"; console.log(xx);`, KindSyntax, []string{`No matching export in "library:date-fns/locale" for import "xx"`}},
		{"module", `import { de } from "date-fns"; console.log(de);`, KindSyntax, []string{`No matching export in "library:date-fns" for import "de"`}},
	} {
		res, rec := run(t, h, Request{Mode: tc.mode, Files: files("main.js", tc.src)})
		errs := rec.Errors()
		if res.Outcome != OutcomeError || len(errs) != 1 || errs[0].Kind != tc.kind {
			t.Errorf("%s: outcome %s, errors %+v; want one %s", tc.src, res.Outcome, errs, tc.kind)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(errs[0].Message, want) {
				t.Errorf("%s: %q; want it to contain %q", tc.src, errs[0].Message, want)
			}
		}
	}
}

// TestDateFnsLocalesGoldenIsFresh re-records the goldens under Node 20
// (testdata/locales/record.mjs, into a temporary directory) and fails when
// one differs from the committed file: the snippets and their goldens go
// together. It needs node and sandbox/libs/node_modules (npm ci there),
// as the other comparisons with Node do.
func TestDateFnsLocalesGoldenIsFresh(t *testing.T) {
	needNode20(t, "../../libs/node_modules/date-fns")
	into := t.TempDir()
	cmd := exec.Command("node", "record.mjs")
	cmd.Dir = "testdata/locales"
	cmd.Env = append(os.Environ(), "RECORD_INTO="+into)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node record.mjs: %v\n%s", err, out)
	}
	goldens, err := filepath.Glob("testdata/locales/*.golden")
	if err != nil || len(goldens) < 15 {
		t.Fatalf("%d goldens (%v); want at least 15", len(goldens), err)
	}
	more, _ := filepath.Glob("testdata/locales/script/*.golden")
	for _, g := range append(goldens, more...) {
		committed, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		recorded, err := os.ReadFile(filepath.Join(into, strings.TrimPrefix(g, "testdata/locales/")))
		if err != nil {
			t.Fatal(err)
		}
		if string(recorded) != string(committed) {
			t.Errorf("%s is stale: run `cd sandbox/worker/js/testdata/locales && node record.mjs`\n--- node now\n%s--- committed\n%s", g, recorded, committed)
		}
	}
}

// needNode20 skips t when node (major version 20) or path, a package of
// sandbox/libs/node_modules, is missing (a fresh clone: go test ./... needs
// no npm), and fails it instead under scripts/test.sh, which installs the
// packages and sets PLAYGROUND_REQUIRE_NPM, so that CI never skips it.
func needNode20(t *testing.T, path string) {
	t.Helper()
	_, err := os.Stat(path)
	if err == nil {
		var out []byte
		if out, err = exec.Command("node", "--version").Output(); err == nil && !strings.HasPrefix(string(out), "v20.") {
			err = fmt.Errorf("node is %s; the goldens are Node 20's", strings.TrimSpace(string(out)))
		}
	}
	if err == nil {
		return
	}
	if os.Getenv("PLAYGROUND_REQUIRE_NPM") != "" {
		t.Fatalf("PLAYGROUND_REQUIRE_NPM is set but %v (npm ci in sandbox/libs; scripts/test.sh does it)", err)
	}
	t.Skipf("needs Node 20 and the npm packages of sandbox/libs (%v)", err)
}
