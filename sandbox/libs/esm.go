package libs

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// ESMSource is a vendored package's ES modules, as gen.go collected them
// into dist/<name>.esm.json: enough for esbuild to bundle any subset of the
// package's named exports with tree shaking, without a file system. A run
// that imports a few names of a heavy package (mathjs) evaluates only the
// modules those names need (sandbox/worker/bundle.LibraryChunk).
type ESMSource struct {
	// Entry is the source of the module that exports the package's names
	// (for most packages `export * from "<name>"`).
	Entry string `json:"entry"`
	// Exports are Entry's export names, sorted, "default" left out.
	Exports []string `json:"exports"`
	// Lighter, when set, is an entry exporting LighterExports (a subset of
	// Exports) with the same results for every value a snippet can make
	// with them, in less evaluation time (see gen.go, lighterEntries).
	Lighter        string   `json:"lighter,omitempty"`
	LighterExports []string `json:"lighterExports,omitempty"`
	// DefaultIsExports says the package's default export (its CommonJS
	// exports) is an object of its named exports: `x.name` of a default
	// import is the named export name.
	DefaultIsExports bool `json:"defaultIsExports,omitempty"`
	// Namespace, when set, is a named export that is an object of the
	// other named exports (zod's z): `z.name` is the named export name.
	Namespace string `json:"namespace,omitempty"`
	// Whole lists names that need the whole package evaluated.
	Whole []string `json:"whole,omitempty"`
	// Wrapper, when set, is the module that builds the package's callable
	// default export (lodash's _) cut into parts per method, so that a
	// chunk can build it with only the methods a run names (WrapperSource).
	Wrapper *ESMWrapper `json:"wrapper,omitempty"`
	// Files maps a module path (below node_modules) to its minified source.
	Files map[string]string `json:"files"`
	// Resolve maps an importing module ("<stdin>" for an entry) and an
	// import specifier to the imported module's path.
	Resolve map[string]map[string]string `json:"resolve"`
	// Pure lists the modules whose package declares "sideEffects": false,
	// sorted: esbuild drops them when nothing they export is used.
	Pure []string `json:"pure"`
}

// ESMWrapper is a module that makes a package's callable default export
// (lodash-es's lodash.default.js: _ with every method, on _ and on its
// chain wrapper's prototype; jstat's script: jStat with every section)
// with parts that can be left out, so that a chunk builds it with just
// the methods a run names.
type ESMWrapper struct {
	// Path is the module's path below node_modules: its imports resolve
	// as that module's (ESMSource.Resolve).
	Path string `json:"path"`
	// Call is the name a call of the callable export counts as a use of
	// (lodash's "chain": _(xs) wraps as _.chain(xs) does).
	Call string `json:"call"`
	// Always: every chunk of the package is this module (a package with
	// no ES modules, cut in sections: jstat); else only a chunk whose
	// names have Call.
	Always bool `json:"always,omitempty"`
	// Parts are the module's text in order: a part with Methods is kept
	// when a run names one of them; one without is always kept.
	Parts []ESMPart `json:"parts"`
	// Implies maps a method to others that must come with it; the methods
	// under "" come always (lodash: push, sort and unshift on a chain call
	// tap; first's prototype method is copied from head's).
	Implies map[string][]string `json:"implies,omitempty"`
}

// ESMPart is a piece of an ESMWrapper's module: Text, and when it is
// kept, Import among the module's imports.
type ESMPart struct {
	Methods []string `json:"methods,omitempty"`
	Import  string   `json:"import,omitempty"`
	Text    string   `json:"text"`
}

// Wraps reports whether a chunk of names is s's Wrapper module (the
// callable export with just those methods, WrapperSource) rather than
// the named exports of its ES modules.
func (s *ESMSource) Wraps(names []string) bool {
	return s.Wrapper != nil && (s.Wrapper.Always || slices.Contains(names, s.Wrapper.Call))
}

// Knows reports whether name is a method of a part of s's Wrapper.
func (s *ESMSource) Knows(name string) bool {
	if s.Wrapper == nil {
		return false
	}
	for _, p := range s.Wrapper.Parts {
		if slices.Contains(p.Methods, name) {
			return true
		}
	}
	return false
}

// WrapperSource returns the source of s.Wrapper's module with the parts
// of methods (and of those they need) only; "" when s has no Wrapper.
// The module's default export is the callable export (lodash's _,
// jstat's jStat), with those methods as the whole package has them:
// every value a snippet makes with those methods equals the whole
// package's (bundle's TestLodashWrapperMatchesWholeLodash and
// TestJstatSectionsMatchWholeJstat check it under Node).
func (s *ESMSource) WrapperSource(methods []string) string {
	if s.Wrapper == nil {
		return ""
	}
	want := map[string]bool{}
	for _, m := range append(slices.Clone(methods), s.Wrapper.Implies[""]...) {
		want[m] = true
		for _, n := range s.Wrapper.Implies[m] {
			want[n] = true
		}
	}
	var imports, b strings.Builder
	for _, p := range s.Wrapper.Parts {
		if len(p.Methods) == 0 || slices.ContainsFunc(p.Methods, func(m string) bool { return want[m] }) {
			imports.WriteString(p.Import)
			b.WriteString(p.Text)
		}
	}
	return imports.String() + b.String()
}

// withoutUnusedImports leaves out of a wrapper's source each default import
// that esbuild finds unused, when its module is side-effect free (Pure):
// esbuild would drop it from the chunk anyway, but only after parsing it
// and every module it imports (lodash's lodash.default.js imports each
// category's object, array.js…util.js, which a chunk with a few methods
// never uses: 600 modules read for 30 kept). To learn which are used,
// esbuild bundles the source alone with every import external and side-effect
// free, which keeps exactly the imports the code uses.
func (s *ESMSource) withoutUnusedImports(src string) string {
	res := api.Build(api.BuildOptions{
		Stdin:       &api.StdinOptions{Contents: src, Sourcefile: "wrapper.js", Loader: api.LoaderJS},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatESModule,
		TreeShaking: api.TreeShakingTrue,
		LogLevel:    api.LogLevelSilent,
		Plugins: []api.Plugin{{Name: "external", Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: a.Path, External: true, SideEffects: api.SideEffectsFalse}, nil
			})
		}}},
	})
	if len(res.Errors) > 0 || len(res.OutputFiles) != 1 {
		return src // esbuild will say what is wrong when it bundles the chunk
	}
	used := map[string]bool{} // specifiers whose default import the code uses
	for _, m := range anyImport.FindAllStringSubmatch(string(res.OutputFiles[0].Contents), -1) {
		if c := m[1]; c != "" && c[0] != '{' && c[0] != '*' {
			used[m[3]] = true
		}
	}
	return defaultImport.ReplaceAllStringFunc(src, func(line string) string {
		m := defaultImport.FindStringSubmatch(line)
		p, ok := s.Resolve[s.Wrapper.Path][m[3]]
		if _, pure := slices.BinarySearch(s.Pure, p); !ok || !pure || used[m[3]] {
			return line
		}
		return ""
	})
}

// defaultImport matches a wrapper's line `import name from './module.js';`.
var defaultImport = regexp.MustCompile(`(?m)^import ([A-Za-z_$][\w$]*) from (['"])([^'"\n]+)['"];?\n?`)

// namedImports returns, for each specifier a module's source imports
// only by name (`import { a as b } from "m";`, in any number of
// statements), the names it imports from it; a specifier also imported
// another way (a default or namespace import, a bare import) is left out.
func namedImports(src string) map[string][]string {
	named := map[string][]string{}
	other := map[string]bool{}
	for _, m := range anyImport.FindAllStringSubmatch(src, -1) {
		spec := m[3]
		if !strings.HasPrefix(m[1], "{") {
			other[spec] = true
			continue
		}
		for _, sp := range strings.Split(strings.Trim(m[1], "{} "), ",") {
			f := strings.Fields(sp)
			if len(f) != 1 && (len(f) != 3 || f[1] != "as") {
				other[spec] = true
				break
			}
			named[spec] = append(named[spec], f[0])
		}
	}
	for spec := range other {
		delete(named, spec)
	}
	for spec, ns := range named {
		slices.Sort(ns)
		named[spec] = slices.Compact(ns)
	}
	return named
}

// anyImport matches an import statement on its own line: its clause
// (`{ a as b }`, `x`, `* as x`) and its specifier.
var anyImport = regexp.MustCompile(`(?m)^import\s+(\{[^}]*\}|[^'"\n]*?)\s*from\s*(['"])([^'"\n]+)['"]`)

// The esbuild namespaces of an ESMSource's plugin.
const (
	ESMEntry   = "playground-entry"    // the specifier of Entry
	ESMLighter = ESMEntry + "/lighter" // the specifier of Lighter
	ESMWrapped = ESMEntry + "/wrapper" // the specifier of a WrapperSource (PluginWrapper)
	esmModule  = "-module"             // suffix of the namespace of its modules
	esmOnly    = "-only"               // suffix of the namespace of modules cut to a build's names (PluginFor)
)

// Plugin serves the modules of s to esbuild, in namespace ns+"-module":
// the build's stdin may import ESMEntry (Entry) or ESMLighter (Lighter), whose imports resolve through
// Resolve. An import Resolve does not know is an error.
func (s *ESMSource) Plugin(ns string) api.Plugin { return s.plugin(ns, "", nil, false) }

// PluginFor is Plugin for a build whose stdin imports only names (not
// nil) from ESMEntry or ESMLighter, and reads only the modules those names
// reach: an entry, or a module an entry re-exports from, that is nothing
// but named re-export statements (`export { default as add } from
// "./add.js";`: lodash-es's lodash.js, validator's entry) is served with
// only the statements of names (reexportsOf). Without it esbuild parses
// every module of the package and then drops all but a few: lodash's
// chunk of one function read 640 modules in 45–70 ms (docs/benchmarks.md,
// "Libraries: cold and warm"). Each module left out is one tree shaking
// drops anyway (an unused re-export of a side-effect-free module), so the
// chunk is the same byte for byte (TestCutModulesBuildTheSameChunks).
func (s *ESMSource) PluginFor(ns string, names []string) api.Plugin {
	return s.plugin(ns, "", names, true)
}

// PluginWrapper is Plugin that also serves ESMWrapped: the module
// WrapperSource(methods) returns, whose imports resolve as s.Wrapper.Path's.
// It is Plugin when s has no Wrapper. It reads only the modules the
// wrapper's code uses: a default import the code does not use is left out
// of the wrapper (withoutUnusedImports), and a module the wrapper imports
// only by name that is nothing but named re-exports (lodash-es's
// array.js…util.js) is served with the statements of those names, as
// PluginFor does.
func (s *ESMSource) PluginWrapper(ns string, methods []string) api.Plugin {
	return s.plugin(ns, s.WrapperSource(methods), nil, true)
}

// plugin serves s. With cut, a module an entry re-exports names from (or
// that the wrapper imports by name only) is resolved into namespace only
// (ns+esmOnly) under its path and the names it is cut to (cutPath), where
// it is loaded as reexportsOf(its source, those names); a module importing
// the same path otherwise gets the whole one, in namespace mod (a second
// copy of a module of re-exports only, which holds no state). The names
// asked of a module are the ones its importer imports from it: the left
// of `as` in the cut entry's statements (entryImports), or the wrapper's
// named imports (namedImports).
func (s *ESMSource) plugin(ns, wrapper string, names []string, cut bool) api.Plugin {
	mod, only := ns+esmModule, ns+esmOnly
	var wanted map[string][]string // by specifier: what the wrapper imports by name only
	if cut && wrapper != "" {
		wrapper = s.withoutUnusedImports(wrapper)
		wanted = namedImports(wrapper)
	}
	entries := map[string]string{ESMEntry: s.Entry, ESMLighter: s.Lighter}
	var fromEntry map[string]map[string][]string // by entry, then specifier: the names it imports
	if cut && names != nil {
		fromEntry = map[string]map[string][]string{}
		for e, src := range entries {
			fromEntry[e] = entryImports(src, names)
		}
	}
	load := func(src string, p string) api.OnLoadResult {
		loader := api.LoaderJS
		if path.Ext(p) == ".json" {
			loader = api.LoaderJSON
		}
		return api.OnLoadResult{Contents: &src, Loader: loader}
	}
	return api.Plugin{Name: ns, Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Namespace != mod && a.Namespace != only {
				switch a.Path {
				case ESMEntry, ESMLighter:
					return api.OnResolveResult{Path: a.Path, Namespace: mod, SideEffects: api.SideEffectsFalse}, nil
				case ESMWrapped:
					if wrapper != "" {
						return api.OnResolveResult{Path: a.Path, Namespace: mod}, nil
					}
				}
				return api.OnResolveResult{}, fmt.Errorf("%q is not part of the library", a.Path)
			}
			from := a.Importer
			switch {
			case a.Namespace == only:
				from, _ = splitCutPath(from)
			case from == ESMEntry || from == ESMLighter:
				from = "<stdin>"
			case from == ESMWrapped:
				from = s.Wrapper.Path
			}
			p, ok := s.Resolve[from][a.Path]
			if !ok {
				return api.OnResolveResult{}, fmt.Errorf("%s imports %q, which was not vendored", from, a.Path)
			}
			r := api.OnResolveResult{Path: p, Namespace: mod}
			var want []string
			switch {
			case !cut || a.Namespace != mod:
			case a.Importer == ESMEntry || a.Importer == ESMLighter:
				want = fromEntry[a.Importer][a.Path]
			case a.Importer == ESMWrapped:
				want = wanted[a.Path]
			}
			if want != nil {
				if _, ok := reexportsOf(s.Files[p], want); ok {
					r.Path, r.Namespace = cutPath(p, want), only
				}
			}
			if _, pure := slices.BinarySearch(s.Pure, p); pure {
				r.SideEffects = api.SideEffectsFalse
			}
			return r, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: only}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			p, want := splitCutPath(a.Path)
			src, _ := reexportsOf(s.Files[p], want)
			return load(src, p), nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: mod}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			var src string
			switch a.Path {
			case ESMEntry, ESMLighter:
				src = entries[a.Path]
			case ESMWrapped:
				src = wrapper
			default:
				var ok bool
				if src, ok = s.Files[a.Path]; !ok {
					return api.OnLoadResult{}, fmt.Errorf("no module %s", a.Path)
				}
			}
			if cut && names != nil && (a.Path == ESMEntry || a.Path == ESMLighter) {
				if kept, ok := reexportsOf(src, names); ok {
					src = kept
				}
			}
			return load(src, a.Path), nil
		})
	}}
}

// cutMark separates a module's path from the names it is cut to in the
// path of namespace only: each (module, names) is a module of its own, so
// the modules a build reads never depend on the order esbuild resolves
// imports in.
const cutMark = "?names="

func cutPath(p string, names []string) string { return p + cutMark + strings.Join(names, ",") }

// splitCutPath undoes cutPath (names are identifiers: no comma in one).
func splitCutPath(cp string) (p string, names []string) {
	p, list, _ := strings.Cut(cp, cutMark)
	return p, strings.Split(list, ",")
}

// entryImports returns, by specifier, the names an entry whose source is
// src imports from each module when a build takes names from it: the local
// names (left of `as`) of the statements reexportsOf keeps, or names for
// the module of an entry that is one `export * from "m"` statement; nil for
// any other entry (nothing of it is cut).
func entryImports(src string, names []string) map[string][]string {
	if kept, ok := reexportsOf(src, names); ok {
		out := map[string][]string{}
		r := reexportScanner{s: kept}
		for r.space(); r.i < len(r.s); r.space() {
			specs, from, _ := r.statement()
			for _, sp := range specs {
				out[from[1:len(from)-1]] = append(out[from[1:len(from)-1]], sp.local)
			}
		}
		for from, locals := range out {
			out[from] = slices.Compact(slices.Sorted(slices.Values(locals)))
		}
		return out
	}
	r := reexportScanner{s: src}
	if r.word("export") && r.word("*") && r.word("from") {
		if from, ok := r.specifier(); ok {
			r.word(";")
			if r.space(); r.i == len(r.s) {
				return map[string][]string{from[1 : len(from)-1]: names}
			}
		}
	}
	return nil
}

// EntryFor returns the specifier a build's stdin imports names from: the
// lighter entry when it exports every one of names, else the full one.
func (s *ESMSource) EntryFor(names []string) string {
	if s.Lighter != "" {
		all := true
		for _, n := range names {
			if _, ok := slices.BinarySearch(s.LighterExports, n); !ok {
				all = false
				break
			}
		}
		if all {
			return ESMLighter
		}
	}
	return ESMEntry
}

// EntryExports bundles the entry of specifier (ESMEntry or ESMLighter)
// from s alone and returns the names it exports, sorted, as operator
// libraries' are read (metafileExports: "default" and names that are not
// identifiers left out). gen.go fills Exports and checks LighterExports
// with it; it is an error when a module of the entry is missing from s.
func (s *ESMSource) EntryExports(specifier string) ([]string, error) {
	res := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: "export * from " + strconv.Quote(specifier) + ";", Sourcefile: "entry.js", Loader: api.LoaderJS},
		Bundle:   true,
		Metafile: true,
		Write:    false,
		Outfile:  "out.js",
		Format:   api.FormatESModule,
		LogLevel: api.LogLevelSilent,
		Plugins:  []api.Plugin{s.Plugin("exports")},
	})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("esbuild from the collected modules: %s", res.Errors[0].Text)
	}
	return metafileExports(res.Metafile)
}

// Has reports whether the package's ESM entry exports name.
func (s *ESMSource) Has(name string) bool {
	_, ok := slices.BinarySearch(s.Exports, name)
	return ok
}

var esmSources sync.Map // name → func() (*ESMSource, error), each loaded once

// ESM returns the ES module source of vendored library name, or false when
// it has none (a CommonJS package, an operator library: those evaluate
// whole). It is safe for concurrent use; each source is parsed once per
// process.
func (s *Set) ESM(name string) (*ESMSource, bool) {
	if _, ok := s.Lookup(name); !ok {
		return nil, false
	}
	if _, op := s.operator[name]; op {
		return nil, false
	}
	f, _ := esmSources.LoadOrStore(name, sync.OnceValues(func() (*ESMSource, error) {
		b, err := dist.ReadFile("dist/" + DistName(name) + ".esm.json")
		if err != nil {
			return nil, err
		}
		var src ESMSource
		if err := json.Unmarshal(b, &src); err != nil {
			return nil, err
		}
		return &src, nil
	}))
	src, err := f.(func() (*ESMSource, error))()
	return src, err == nil
}

// reexportsOf returns the statements of src that export names, each with
// only those of its specifiers, when src is nothing but named re-export
// statements (`export { a, b as c } from "m";`, whitespace between them)
// and exports every one of names; else src and false. A statement none of
// whose names is wanted is left out, and with it the module it imports
// from, which esbuild would have parsed and then dropped.
func reexportsOf(src string, names []string) (string, bool) {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var b strings.Builder
	found := 0
	r := reexportScanner{s: src}
	for {
		r.space()
		if r.i == len(r.s) {
			break
		}
		specs, from, ok := r.statement()
		if !ok {
			return src, false
		}
		var kept []string
		for _, sp := range specs {
			if want[sp.exported] {
				kept = append(kept, sp.text)
				found++
			}
		}
		if len(kept) > 0 {
			b.WriteString("export { " + strings.Join(kept, ", ") + " } from " + from + ";\n")
		}
	}
	if found != len(want) { // a name from elsewhere, or exported twice: leave it to esbuild
		return src, false
	}
	return b.String(), true
}

// reexportScanner reads `export { specifiers } from "module";`
// statements; anything else (a comment, a declaration, `export *`, a
// string-named specifier) stops it.
type reexportScanner struct {
	s string
	i int
}

type reexportSpec struct {
	text     string // "a" or "a as b", as written
	local    string // a: the name in the module it is imported from
	exported string // b
}

func (r *reexportScanner) space() {
	for r.i < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.i]) >= 0 {
		r.i++
	}
}

func (r *reexportScanner) word(w string) bool {
	r.space()
	if strings.HasPrefix(r.s[r.i:], w) {
		r.i += len(w)
		return true
	}
	return false
}

func (r *reexportScanner) ident() string {
	r.space()
	j := r.i
	for j < len(r.s) {
		c := r.s[j]
		if c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > r.i && '0' <= c && c <= '9' {
			j++
			continue
		}
		break
	}
	id := r.s[r.i:j]
	r.i = j
	return id
}

func (r *reexportScanner) statement() (specs []reexportSpec, from string, ok bool) {
	if !r.word("export") || !r.word("{") {
		return nil, "", false
	}
	for {
		if r.word("}") {
			break
		}
		name := r.ident()
		if name == "" {
			return nil, "", false
		}
		sp := reexportSpec{text: name, local: name, exported: name}
		save := r.i
		if r.word("as") && r.i < len(r.s) && strings.IndexByte(" \t\r\n", r.s[r.i]) >= 0 {
			alias := r.ident()
			if alias == "" {
				return nil, "", false
			}
			sp = reexportSpec{text: name + " as " + alias, local: name, exported: alias}
		} else {
			r.i = save
		}
		specs = append(specs, sp)
		if !r.word(",") {
			if !r.word("}") {
				return nil, "", false
			}
			break
		}
	}
	if !r.word("from") {
		return nil, "", false
	}
	if from, ok = r.specifier(); !ok {
		return nil, "", false
	}
	r.word(";")
	return specs, from, true
}

// specifier reads a module specifier: a string literal in single or
// double quotes without escapes or line breaks, returned as written.
func (r *reexportScanner) specifier() (string, bool) {
	r.space()
	if r.i == len(r.s) || r.s[r.i] != '"' && r.s[r.i] != '\'' {
		return "", false
	}
	q := r.s[r.i]
	end := strings.IndexByte(r.s[r.i+1:], q)
	if end < 0 || strings.ContainsAny(r.s[r.i+1:r.i+1+end], "\\\n") {
		return "", false
	}
	spec := r.s[r.i : r.i+2+end]
	r.i += 2 + end
	return spec, true
}
