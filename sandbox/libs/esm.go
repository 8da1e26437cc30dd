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

// The esbuild namespaces of an ESMSource's plugin.
const (
	ESMEntry   = "playground-entry"    // the specifier of Entry
	ESMLighter = ESMEntry + "/lighter" // the specifier of Lighter
	ESMWrapped = ESMEntry + "/wrapper" // the specifier of a WrapperSource (PluginWrapper)
	esmModule  = "-module"             // suffix of the namespace of its modules
)

// Plugin serves the modules of s to esbuild, in namespace ns+"-module":
// the build's stdin may import ESMEntry (Entry) or ESMLighter (Lighter), whose imports resolve through
// Resolve. An import Resolve does not know is an error.
func (s *ESMSource) Plugin(ns string) api.Plugin { return s.plugin(ns, "") }

// PluginWrapper is Plugin that also serves ESMWrapped: the module
// WrapperSource(methods) returns, whose imports resolve as s.Wrapper.Path's.
// It is Plugin when s has no Wrapper.
func (s *ESMSource) PluginWrapper(ns string, methods []string) api.Plugin {
	return s.plugin(ns, s.WrapperSource(methods))
}

func (s *ESMSource) plugin(ns, wrapper string) api.Plugin {
	mod := ns + esmModule
	return api.Plugin{Name: ns, Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Namespace != mod {
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
			switch from {
			case ESMEntry, ESMLighter:
				from = "<stdin>"
			case ESMWrapped:
				from = s.Wrapper.Path
			}
			p, ok := s.Resolve[from][a.Path]
			if !ok {
				return api.OnResolveResult{}, fmt.Errorf("%s imports %q, which was not vendored", from, a.Path)
			}
			r := api.OnResolveResult{Path: p, Namespace: mod}
			if _, pure := slices.BinarySearch(s.Pure, p); pure {
				r.SideEffects = api.SideEffectsFalse
			}
			return r, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: mod}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			var src string
			switch a.Path {
			case ESMEntry:
				src = s.Entry
			case ESMLighter:
				src = s.Lighter
			case ESMWrapped:
				src = wrapper
			default:
				var ok bool
				if src, ok = s.Files[a.Path]; !ok {
					return api.OnLoadResult{}, fmt.Errorf("no module %s", a.Path)
				}
			}
			loader := api.LoaderJS
			if path.Ext(a.Path) == ".json" {
				loader = api.LoaderJSON
			}
			return api.OnLoadResult{Contents: &src, Loader: loader}, nil
		})
	}}
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
		b, err := dist.ReadFile("dist/" + name + ".esm.json")
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
