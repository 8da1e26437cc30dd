package bundle

import (
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/pipe"
)

func files(kv ...string) []pipe.File {
	var fs []pipe.File
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, pipe.File{Path: kv[i], Source: kv[i+1]})
	}
	return fs
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name  string
		files []pipe.File
		ok    bool
		kind  pipe.ErrorKind
		text  string
	}{
		{"js specifier names ts file", files("src/main.ts", "import { a } from './a.js'; console.log(a);", "src/a.ts", "export const a = 1;"), true, "", ""},
		{"extensionless", files("main.ts", "import { a } from './lib/a'; console.log(a);", "lib/a.tsx", "export const a = 1;"), true, "", ""},
		{"directory index", files("main.ts", "import { a } from './lib'; console.log(a);", "lib/index.ts", "export const a = 1;"), true, "", ""},
		{"parent directory", files("src/x/main.ts", "import { a } from '../a'; console.log(a);", "src/a.ts", "export const a = 1;"), true, "", ""},
		{"json", files("main.ts", "import d from './d.json'; console.log(d);", "d.json", `{"k":1}`), true, "", ""},
		{"outside the files", files("main.ts", "import '../x';"), false, pipe.KindBundle, "outside"},
		{"missing", files("main.ts", "import './nope';", "other.ts", ""), false, pipe.KindBundle, "no file nope among the snippet's files (main.ts, other.ts)"},
		{"absolute", files("main.ts", "import '/etc/passwd';"), false, pipe.KindBundle, "relative"},
		{"bare", files("main.ts", "import 'left-pad';"), false, pipe.KindBundle, `importable modules: playground, date-fns, date-fns/locale, jstat, lodash, mathjs, papaparse, uuid, validator, zod and relative files`},
		{"node builtin", files("main.ts", "import 'fs/promises';"), false, pipe.KindSecurity, "host modules"},
		{"node: scheme", files("main.ts", "import 'node:child_process';"), false, pipe.KindSecurity, "host modules"},
		{"dynamic import of a host module", files("main.ts", "await import('http');"), false, pipe.KindSecurity, "host modules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Bundle(tt.files, tt.files[0].Path, testLibraries(t))
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
	b := Bundle(files("main.ts", "const s = \"é😀\"; )"), "main.ts", testLibraries(t))
	if len(b.Errors) != 1 {
		t.Fatalf("errors = %+v", b.Errors)
	}
	// "const s = \"é😀\"; " is 17 UTF-16 units (23 bytes); the error is at ')'.
	if e := b.Errors[0]; e.Line != 1 || e.Column != 18 {
		t.Errorf("error at %d:%d; want 1:18 (UTF-16 columns)", e.Line, e.Column)
	}
}

func testLibraries(t *testing.T) *libs.Set {
	t.Helper()
	r, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBundleShape(t *testing.T) {
	b := Bundle(files("main.ts", "import _ from 'lodash'; import { facts } from 'playground'; facts.v = 1; export default _.VERSION;"), "main.ts", testLibraries(t))
	if len(b.Errors) > 0 {
		t.Fatal(b.Errors)
	}
	if !strings.HasPrefix(b.Code, Banner) || !strings.Contains(b.Code, RuntimeParam+"."+FieldLib+`("lodash")`) ||
		!strings.Contains(b.Code, RuntimeParam+"."+FieldDone+"(") || !strings.Contains(b.Code, RuntimeParam+"."+FieldFacts) {
		t.Errorf("bundle does not follow the contract (banner, lib, done, facts):\n%s", b.Code[:min(len(b.Code), 600)])
	}
	if !strings.Contains(b.Code, "sourceMappingURL=data:") || !strings.Contains(b.Code, FileNamespace+":main.ts") {
		t.Error("bundle has no inline source map naming the user's file in FileNamespace")
	}
	if strings.Join(b.Libraries, ",") != "lodash" {
		t.Errorf("Libraries = %v; want [lodash]", b.Libraries)
	}
	if b := Bundle(files("a.ts", ""), "b.ts", nil); len(b.Errors) != 1 || b.Errors[0].Kind != pipe.KindInvalidRequest {
		t.Errorf("missing entry: errors = %+v; want one INVALID_REQUEST", b.Errors)
	}
}
