package libs

import (
	"encoding/json"
	"fmt"
	"path"
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
	// Instance, when set, is a script that evaluates to an instance of
	// the package whose members are made on their first read (mathjs's
	// create(all): each function is a lazy property), built by the
	// generate step (InstanceScript); InstanceNames are the
	// exports that are members of it, sorted. A run whose names are all
	// InstanceNames, and not all LighterExports, reads them from one
	// instance (FromInstance): it makes only what those names reach,
	// where a chunk of the package's named exports makes every function
	// its names depend on at once (mathjs's evaluate: all of them).
	Instance      string   `json:"instance,omitempty"`
	InstanceNames []string `json:"instanceNames,omitempty"`
	// Wrapper, when set, is the script that builds the package's callable
	// default export (jstat's jStat) cut into parts, so that a chunk can
	// build it with only the methods a run names (WrapperSource).
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

// ESMWrapper is the script of a package with no ES modules that makes its
// callable default export (jstat's dist/jstat.js: jStat with every
// section), with parts that can be left out, so that a chunk builds it
// with just the methods a run names. Every chunk of such a package is
// this module.
type ESMWrapper struct {
	// Path is the script's path below node_modules.
	Path string `json:"path"`
	// Call is the name a call of the callable export counts as a use of
	// (jstat's "jStat": jStat(xs)).
	Call string `json:"call"`
	// Parts are the module's text in order: a part with Methods is kept
	// when a run names one of them; one without is always kept.
	Parts []ESMPart `json:"parts"`
}

// ESMPart is a piece of an ESMWrapper's module.
type ESMPart struct {
	Methods []string `json:"methods,omitempty"`
	Text    string   `json:"text"`
}

// Wraps reports whether every chunk of s is its Wrapper module (the
// callable export with just a run's methods, WrapperSource) rather than
// the named exports of its ES modules.
func (s *ESMSource) Wraps() bool {
	return s.Wrapper != nil
}

// FromInstance reports whether a run that uses names (sorted, not empty)
// reads them from s's Instance rather than from a chunk: each is one of
// InstanceNames, and the lighter entry does not export them all.
func (s *ESMSource) FromInstance(names []string) bool {
	if s.Instance == "" || len(names) == 0 {
		return false
	}
	lighter := s.Lighter != ""
	for _, n := range names {
		if _, ok := slices.BinarySearch(s.InstanceNames, n); !ok {
			return false
		}
		if _, ok := slices.BinarySearch(s.LighterExports, n); !ok {
			lighter = false
		}
	}
	return !lighter
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
// of methods only (a part lists, with its own methods, those of every
// part that needs it: gen_sections.go); "" when s has no Wrapper. The module's default
// export is the callable export (jstat's jStat), with those methods as
// the whole package has them: every value a snippet makes with those
// methods equals the whole package's (bundle's
// TestJstatSectionsMatchWholeJstat checks it under Node).
func (s *ESMSource) WrapperSource(methods []string) string {
	if s.Wrapper == nil {
		return ""
	}
	want := map[string]bool{}
	for _, m := range methods {
		want[m] = true
	}
	var b strings.Builder
	for _, p := range s.Wrapper.Parts {
		if len(p.Methods) == 0 || slices.ContainsFunc(p.Methods, func(m string) bool { return want[m] }) {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

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
func (s *ESMSource) Plugin(ns string) api.Plugin { return s.plugin(ns, "", nil) }

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
	return s.plugin(ns, "", names)
}

// PluginWrapper is Plugin that also serves ESMWrapped: the module
// WrapperSource(methods) returns (an import in it would resolve as
// s.Wrapper.Path's). It is Plugin when s has no Wrapper.
func (s *ESMSource) PluginWrapper(ns string, methods []string) api.Plugin {
	return s.plugin(ns, s.WrapperSource(methods), nil)
}

// plugin serves s, and wrapper (when not "") as ESMWrapped. With names
// (not nil: a build that imports only those from an entry), the entry is
// served as reexportsOf(its source, names) when it is named re-exports
// only, and a module it re-exports from is resolved into namespace only
// (ns+esmOnly) under its path and the names the entry imports from it
// (entryImports; cutPath), where it is loaded as reexportsOf(its source,
// those names); a module importing the same path otherwise gets the whole
// one, in namespace mod (a second copy of a module of re-exports only,
// which holds no state).
func (s *ESMSource) plugin(ns, wrapper string, names []string) api.Plugin {
	mod, only := ns+esmModule, ns+esmOnly
	entries := map[string]string{ESMEntry: s.Entry, ESMLighter: s.Lighter}
	var fromEntry map[string]map[string][]string // by entry, then specifier: the names it imports
	if names != nil {
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
			if want := fromEntry[a.Importer][a.Path]; want != nil && a.Namespace == mod {
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
			if names != nil && (a.Path == ESMEntry || a.Path == ESMLighter) {
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
			m := unquote(from)
			for _, sp := range specs {
				out[m] = append(out[m], sp.local)
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
				return map[string][]string{unquote(from): names}
			}
		}
	}
	return nil
}

// unquote is a specifier (reexportScanner.specifier) without its quotes.
func unquote(spec string) string { return spec[1 : len(spec)-1] }

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
// double quotes without escapes or line breaks, returned as written
// (unquote strips its quotes).
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
