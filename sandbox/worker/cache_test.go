package worker

import (
	"strings"
	"testing"

	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// TestCompileErrorNamesTheUsersFile: an error goja finds in a bundle
// esbuild accepted is reported at the snippet file's line and column
// (through the bundle's source map), never at bundle.js.
func TestCompileErrorNamesTheUsersFile(t *testing.T) {
	files := []pipe.File{
		{Path: "main.ts", Source: "import { twice } from './util.ts';\nconsole.log(twice(2));\n"},
		{Path: "util.ts", Source: "export const a = 1;\n\nexport function twice(x: number) {\n  return  x * 2;\n}\n"},
	}
	b := bundle.Bundle(files, "main.ts", nil)
	if len(b.Errors) > 0 {
		t.Fatal(b.Errors)
	}
	// Where the bundle holds util.ts's `x * 2`.
	lines := strings.Split(b.Code, "\n")
	line, col := 0, 0
	for i, l := range lines {
		if c := strings.Index(l, "x * 2"); c >= 0 {
			line, col = i+1, c+1
		}
	}
	if line == 0 {
		t.Fatalf("no `x * 2` in the bundle:\n%s", b.Code)
	}
	var list parser.ErrorList
	list.Add(file.Position{Filename: "bundle.js", Line: line, Column: col}, "Unexpected token")
	list.Add(file.Position{Filename: "bundle.js", Line: line, Column: col + 2}, "Unexpected end")
	e := compileError(list, b.Code, "main.ts", pipe.ModeModule)
	if e.Kind != pipe.KindSyntax || e.File != "util.ts" || e.Line != 4 || e.Column != 11 || e.Stack != "util.ts:4:11" {
		t.Errorf("error %+v; want SYNTAX_ERROR at util.ts:4:11", e)
	}
	if strings.Contains(e.Message, "bundle.js") || !strings.HasPrefix(e.Message, "SyntaxError: Unexpected token") {
		t.Errorf("message %q; want goja's message without bundle.js", e.Message)
	}

	// The bundle's own glue (the banner) maps to no file: the entry's first line.
	var glue parser.ErrorList
	glue.Add(file.Position{Filename: "bundle.js", Line: 1, Column: 2}, "bundle.js: Line 1:2 Unexpected reserved word")
	e = compileError(glue, b.Code, "main.ts", pipe.ModeModule)
	if e.File != "main.ts" || e.Line != 1 || strings.Contains(e.Message, "bundle.js") {
		t.Errorf("glue error %+v; want main.ts:1 without bundle.js", e)
	}
}
