package libs

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
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
	// Files maps a module path (below node_modules) to its minified source.
	Files map[string]string `json:"files"`
	// Resolve maps an importing module ("<stdin>" for an entry) and an
	// import specifier to the imported module's path.
	Resolve map[string]map[string]string `json:"resolve"`
	// Pure lists the modules whose package declares "sideEffects": false,
	// sorted: esbuild drops them when nothing they export is used.
	Pure []string `json:"pure"`
}

// The esbuild namespaces of an ESMSource's plugin.
const (
	ESMEntry   = "playground-entry"    // the specifier of Entry
	ESMLighter = ESMEntry + "/lighter" // the specifier of Lighter
	esmModule  = "-module"             // suffix of the namespace of its modules
)

// Plugin serves the modules of s to esbuild, in namespace ns+"-module":
// the build's stdin may import ESMEntry (Entry) or ESMLighter (Lighter), whose imports resolve through
// Resolve. An import Resolve does not know is an error.
func (s *ESMSource) Plugin(ns string) api.Plugin {
	mod := ns + esmModule
	return api.Plugin{Name: ns, Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Namespace != mod {
				switch a.Path {
				case ESMEntry, ESMLighter:
					return api.OnResolveResult{Path: a.Path, Namespace: mod, SideEffects: api.SideEffectsFalse}, nil
				}
				return api.OnResolveResult{}, fmt.Errorf("%q is not part of the library", a.Path)
			}
			from := a.Importer
			if from == ESMEntry || from == ESMLighter {
				from = "<stdin>"
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
