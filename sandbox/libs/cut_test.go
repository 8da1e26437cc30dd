package libs

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// chunkOf builds what Script builds for names, before it turns the
// export clause into an object: the exports names of the entry, served by
// plugin.
func chunkOf(t *testing.T, s *ESMSource, names []string, plugin api.Plugin) string {
	t.Helper()
	res := build("export { "+strings.Join(names, ", ")+" } from \""+s.EntryFor(names)+"\";\n", plugin)
	if len(res.Errors) > 0 {
		t.Fatalf("%v: %v", names, res.Errors[0].Text)
	}
	return string(res.OutputFiles[0].Contents)
}

// TestCutModulesBuildTheSameChunks: a chunk built reading only the modules
// its names reach (PluginFor) holds the same statements and exports as the
// chunk built from every module of the package, for every vendored
// library with ES modules: single exports spread over each package and
// groups of them. Only their order may differ: esbuild places each
// module where its traversal of the imports first reaches it, after its
// own imports in both builds, and the package's modules are free of side
// effects (Pure), so the order of two modules neither imports is not
// observable.
func TestCutModulesBuildTheSameChunks(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range set.Modules() {
		s, ok := set.ESM(name)
		if !ok || s.Wraps() {
			continue // no ES modules: nothing to cut (jstat's sections are WrapperSource's)
		}
		t.Run(name, func(t *testing.T) {
			var sets [][]string
			step := max(1, len(s.Exports)/4)
			for i := 0; i < len(s.Exports); i += step {
				sets = append(sets, []string{s.Exports[i]})
			}
			if n := len(s.Exports); n >= 5 {
				sets = append(sets, []string{s.Exports[0], s.Exports[n/2]},
					[]string{s.Exports[1], s.Exports[n/3], s.Exports[n/2+1], s.Exports[2*n/3], s.Exports[n-1]})
			}
			if !cuttable(s) {
				sets = sets[:1] // both builds read the same modules: one pair shows it
			}
			for _, names := range sets {
				slices.Sort(names)
				want := chunkOf(t, s, names, s.Plugin("library"))
				sameStatements(t, fmt.Sprint(names), chunkOf(t, s, names, s.PluginFor("library", names)), want)
			}
		})
	}
}

// cuttable reports whether PluginFor can leave out a module of s: its
// entry, or a module the entry imports, is named re-exports only.
func cuttable(s *ESMSource) bool {
	if _, ok := reexportsOf(s.Entry, s.Exports[:1]); ok {
		return true
	}
	for _, p := range s.Resolve["<stdin>"] {
		if _, ok := reexportsOf(s.Files[p], s.Exports[:1]); ok {
			return true
		}
	}
	return false
}

// sameStatements reports when chunks got and want differ in their final
// export clause or in the multiset of their other top-level statements,
// each with its top-level names numbered (numbered): esbuild renames a
// top-level name that collides with one of another module it parsed
// (_typeof, _typeof2), so a build that parses fewer modules may number
// fewer of them.
func sameStatements(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	split := func(chunk string) ([]string, string) {
		i := strings.LastIndex(chunk, "export{")
		if i < 0 {
			i = len(chunk)
		}
		prg, err := parser.ParseFile(nil, "chunk.js", chunk[:i], 0)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		top := topLevelNames(prg)
		var stmts []string
		for _, st := range prg.Body {
			stmts = append(stmts, numbered(chunk[st.Idx0()-1:st.Idx1()-1], top))
		}
		slices.Sort(stmts)
		return stmts, numbered(chunk[i:], top)
	}
	g, gx := split(got)
	w, wx := split(want)
	if gx != wx || !slices.Equal(g, w) {
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Logf("first difference:\n%.300s\n%.300s", g[i], w[i])
				break
			}
		}
		t.Errorf("%s: the cut build differs: %d statements, exports %q; want %d, %q", what, len(g), gx, len(w), wx)
	}
}

// topLevelNames returns the names prg's top-level declarations bind
// (function, class, var/let/const of an identifier): the only names
// esbuild renames when modules collide.
func topLevelNames(prg *ast.Program) map[string]bool {
	top := map[string]bool{}
	bind := func(list []*ast.Binding) {
		for _, b := range list {
			if id, ok := b.Target.(*ast.Identifier); ok {
				top[id.Name.String()] = true
			}
		}
	}
	for _, st := range prg.Body {
		switch d := st.(type) {
		case *ast.FunctionDeclaration:
			top[d.Function.Name.Name.String()] = true
		case *ast.ClassDeclaration:
			top[d.Class.Name.Name.String()] = true
		case *ast.VariableStatement:
			bind(d.List)
		case *ast.LexicalDeclaration:
			bind(d.List)
		}
	}
	return top
}

// numbered writes each top-level name in src (outside string literals) as
// its stem, without esbuild's number, and the order in which that stem's
// distinct names first appear in src: `_typeof2(x)===_typeof(y)` and
// `_typeof(x)===_typeof3(y)` are both `_typeof#0(x)===_typeof#1(y)`, while
// a string or a name that is not top-level is compared as written.
func numbered(src string, top map[string]bool) string {
	var b strings.Builder
	seen := map[string]int{}  // a name → its number among its stem's
	stems := map[string]int{} // a stem → how many of its names were seen
	ident := func(c byte) bool {
		return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			b.WriteString(src[i:j])
			i = j
		case ident(c) && (i == 0 || !ident(src[i-1]) && src[i-1] != '.'):
			j := i
			for j < len(src) && ident(src[j]) {
				j++
			}
			name := src[i:j]
			if !top[name] {
				b.WriteString(name)
			} else {
				stem := strings.TrimRight(name, "0123456789")
				n, ok := seen[name]
				if !ok {
					n = stems[stem]
					seen[name], stems[stem] = n, n+1
				}
				fmt.Fprintf(&b, "%s#%d", stem, n)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func TestNumbered(t *testing.T) {
	top := map[string]bool{"_typeof": true, "_typeof2": true, "_typeof3": true, "a1": true}
	for _, c := range []struct{ a, b string }{
		{`_typeof2(x)===_typeof(y)`, `_typeof(x)===_typeof3(y)`},
		{`a1+"_typeof2"`, `a1+"_typeof2"`},
	} {
		if x, y := numbered(c.a, top), numbered(c.b, top); x != y {
			t.Errorf("numbered(%q) = %q, numbered(%q) = %q; want them equal", c.a, x, c.b, y)
		}
	}
	for _, c := range []struct{ a, b string }{
		{`a1+"_typeof2"`, `a1+"_typeof3"`},                      // a string is compared as written
		{`_typeof(x)===_typeof(y)`, `_typeof(x)===_typeof2(y)`}, // one name against two
		{`o._typeof2`, `o._typeof3`},                            // a property, not the top-level name
		{`b1(x)`, `b2(x)`},                                      // not top-level
	} {
		if x, y := numbered(c.a, top), numbered(c.b, top); x == y {
			t.Errorf("numbered(%q) = numbered(%q) = %q; want them to differ", c.a, c.b, x)
		}
	}
}

func TestReexportsOf(t *testing.T) {
	src := "export { default as add } from \"./add.js\";\nexport { a, b as c } from './m.js'\n\nexport { default } from \"./d.js\";\n"
	for _, c := range []struct {
		names []string
		want  string
		ok    bool
	}{
		{[]string{"add"}, "export { default as add } from \"./add.js\";\n", true},
		{[]string{"c", "default"}, "export { b as c } from './m.js';\nexport { default } from \"./d.js\";\n", true},
		{[]string{"a", "add", "c"}, "export { default as add } from \"./add.js\";\nexport { a, b as c } from './m.js';\n", true},
		{[]string{"b"}, src, false}, // b is exported as c: not here
	} {
		got, ok := reexportsOf(src, c.names)
		if got != c.want || ok != c.ok {
			t.Errorf("reexportsOf(%v) = %q, %v; want %q, %v", c.names, got, ok, c.want, c.ok)
		}
	}
	for _, other := range []string{
		"export * from \"./x.js\";\n",                                         // a star: its names are unknown here
		"export { a } from \"./x.js\";\nconst b = 1;\n",                       // a declaration
		"// comment\nexport { a } from \"./x.js\";\n",                         // a comment
		"export { \"a-b\" as a } from \"./x.js\";\n",                          // a string-named export
		"export { a } from \"./x\\\".js\";\n",                                 // an escape in the specifier
		"export { a }\n",                                                      // no from
		"export { a } from \"./x.js\";\nexport { b as a } from \"./y.js\";\n", // a exported twice
	} {
		if got, ok := reexportsOf(other, []string{"a"}); ok || got != other {
			t.Errorf("reexportsOf(%q) = %q, %v; want it unchanged and false", other, got, ok)
		}
	}
}

// TestCutEntriesByWhatTheyImport: a module an entry re-exports from is cut
// to the names the entry imports from it (left of `as`), per module: an
// aliased re-export builds (it failed with "No matching export" when the
// module was cut to the entry's own names) and an entry re-exporting from
// two modules of re-exports cuts both.
func TestCutEntriesByWhatTheyImport(t *testing.T) {
	s := &ESMSource{
		Entry:   "export { x as y } from \"m\";\nexport { z } from \"n\";\n",
		Exports: []string{"y", "z"},
		Files: map[string]string{
			"m/index.js": "export { y } from \"./y.js\";\nexport { x } from \"./x.js\";\n",
			"m/x.js":     "export const x = \"x of m\";",
			"m/y.js":     "export const y = \"y of m\";",
			"n/index.js": "export { z } from \"./z.js\";\nexport { w } from \"./w.js\";\n",
			"n/z.js":     "export const z = \"z of n\";",
			"n/w.js":     "throw new Error(\"w is read\");",
		},
		Resolve: map[string]map[string]string{
			"<stdin>":    {"m": "m/index.js", "n": "n/index.js"},
			"m/index.js": {"./x.js": "m/x.js", "./y.js": "m/y.js"},
			"n/index.js": {"./z.js": "n/z.js", "./w.js": "n/w.js"},
		},
	}
	var mu sync.Mutex // esbuild loads modules on several goroutines
	read := map[string]bool{}
	spy := api.Plugin{Name: "spy", Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: `.*`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			mu.Lock()
			read[a.Path] = true
			mu.Unlock()
			return api.OnLoadResult{}, nil // on to the library's plugin
		})
	}}
	for _, names := range [][]string{{"y"}, {"y", "z"}, {"z"}} {
		clear(read)
		res := api.Build(api.BuildOptions{
			Stdin: &api.StdinOptions{Contents: "export { " + strings.Join(names, ", ") + " } from \"" + ESMEntry + "\";\n",
				Sourcefile: "library-chunk.js", Loader: api.LoaderJS},
			Bundle: true, Write: false, Format: api.FormatESModule, TreeShaking: api.TreeShakingTrue,
			LogLevel: api.LogLevelSilent, Plugins: []api.Plugin{spy, s.PluginFor("library", names)},
		})
		if len(res.Errors) > 0 {
			t.Fatalf("%v: %s", names, res.Errors[0].Text)
		}
		out := string(res.OutputFiles[0].Contents)
		for _, n := range names {
			if want := map[string]string{"y": "x of m", "z": "z of n"}[n]; !strings.Contains(out, want) {
				t.Errorf("%v: the chunk lacks %q:\n%s", names, want, out)
			}
		}
		for p := range read {
			if strings.HasSuffix(p, "y.js") || strings.HasSuffix(p, "w.js") {
				t.Errorf("%v: read %s, which no name reaches", names, p)
			}
		}
	}
}
