package libs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// chunkOf builds what bundle.LibraryChunk builds for names (with the same
// tree shaking and minification): the exports names of the entry, or with
// wrap the wrapper's default export, served by plugin.
func chunkOf(t *testing.T, s *ESMSource, names []string, wrap bool, plugin api.Plugin) string {
	t.Helper()
	entry := "export { " + strings.Join(names, ", ") + " } from \"" + s.EntryFor(names) + "\";\n"
	if wrap {
		entry = "export { default } from \"" + ESMWrapped + "\";\n"
	}
	res := api.Build(api.BuildOptions{
		Stdin:  &api.StdinOptions{Contents: entry, Sourcefile: "library-chunk.js", Loader: api.LoaderJS},
		Bundle: true, Write: false, Format: api.FormatESModule, Platform: api.PlatformBrowser,
		Target: Target, Supported: EngineFeatures(), TreeShaking: api.TreeShakingTrue,
		MinifySyntax: true, MinifyWhitespace: true, LegalComments: api.LegalCommentsNone, Charset: api.CharsetUTF8,
		LogLevel: api.LogLevelSilent, Plugins: []api.Plugin{plugin},
	})
	if len(res.Errors) > 0 {
		t.Fatalf("%v (wrapper %v): %v", names, wrap, res.Errors[0].Text)
	}
	return string(res.OutputFiles[0].Contents)
}

// TestCutModulesBuildTheSameChunks: a chunk built reading only the modules
// its names reach (PluginFor, PluginWrapper) holds the same statements and
// exports as the chunk built from every module of the package, for every
// vendored library with ES modules: single exports spread over each
// package, groups of them, and lodash's and jstat's wrapper with a few
// methods and with many. Only their order may differ: esbuild places each
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
		if !ok {
			continue
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
			if !cuttable(s) && s.Wrapper == nil {
				sets = sets[:1] // both builds read the same modules: one pair shows it
			}
			for _, names := range sets {
				if s.Wraps(names) {
					continue
				}
				slices.Sort(names)
				want := chunkOf(t, s, names, false, s.plugin("library", "", names, false))
				sameStatements(t, fmt.Sprint(names), chunkOf(t, s, names, false, s.PluginFor("library", names)), want)
			}
			if s.Wrapper == nil {
				return
			}
			var methods []string
			for _, p := range s.Wrapper.Parts {
				methods = append(methods, p.Methods...)
			}
			slices.Sort(methods)
			methods = slices.Compact(methods)
			for _, ms := range [][]string{{s.Wrapper.Call}, append([]string{s.Wrapper.Call}, methods[:min(4, len(methods))]...),
				append([]string{s.Wrapper.Call}, methods[len(methods)/2:len(methods)/2+min(12, len(methods)/2)]...), methods} {
				ms = slices.Compact(slices.Sorted(slices.Values(ms)))
				want := chunkOf(t, s, ms, true, s.plugin("library", s.WrapperSource(ms), nil, false))
				sameStatements(t, fmt.Sprintf("wrapper with %d methods %v…", len(ms), ms[:min(3, len(ms))]), chunkOf(t, s, ms, true, s.PluginWrapper("library", ms)), want)
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

// renamed matches a name with a number at its end: esbuild renames a
// top-level name that collides with one of another module it parsed
// (_typeof, _typeof2), so a build that parses fewer modules may number
// fewer of them.
var renamed = regexp.MustCompile(`\b([A-Za-z_$][\w$]*?)[0-9]+\b`)

// sameStatements reports when chunks got and want differ in their final
// export clause or in the multiset of their other top-level statements,
// names compared without the numbers esbuild's renaming adds (renamed).
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
		var stmts []string
		for _, st := range prg.Body {
			stmts = append(stmts, renamed.ReplaceAllString(chunk[st.Idx0()-1:st.Idx1()-1], "$1"))
		}
		slices.Sort(stmts)
		return stmts, chunk[i:]
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
		"export * from \"./x.js\";\n",                   // a star: its names are unknown here
		"export { a } from \"./x.js\";\nconst b = 1;\n", // a declaration
		"// comment\nexport { a } from \"./x.js\";\n",   // a comment
		"export { \"a-b\" as a } from \"./x.js\";\n",    // a string-named export
		"export { a } from \"./x\\\".js\";\n",           // an escape in the specifier
		"export { a }\n",                                // no from
	} {
		if got, ok := reexportsOf(other, []string{"a"}); ok || got != other {
			t.Errorf("reexportsOf(%q) = %q, %v; want it unchanged and false", other, got, ok)
		}
	}
}
