//go:generate go run gen.go gen_sections.go gen_subpaths.go

// Package libs is the set of modules a snippet may import by bare name: the
// "playground" runtime module, the npm packages vendored into dist/ by
// gen.go, and an operator's own ESM bundles (-libraries DIR). Both
// processes use it: the pool announces the names and checks an operator's
// directory at start; a worker's bundler resolves imports against it and
// its runtime evaluates the sources. It imports no goja.
package libs

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RuntimeModule is the bare module name snippets import the runtime API
// (facts, input, host) from.
const RuntimeModule = "playground"

// The allowlisted npm packages, vendored by gen.go: each dist/<name>.js
// evaluates to the package's exports; manifest.json lists versions and
// export names.
//
//go:embed dist/*.js dist/*.json
var dist embed.FS

// Library is one importable npm package.
type Library struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	License string   `json:"license"`
	Exports []string `json:"exports"`
	// Subpaths, when set, maps each member subpath of the library (the
	// <code> of date-fns/locale/<code>) to the export it stands for
	// (zh-CN: zhCN), where the module's name is not the export's.
	Subpaths map[string]string `json:"subpaths,omitempty"`
}

// DistName is the base name of library name's files in dist/: its name
// with "/" as "~" (date-fns/locale: date-fns~locale.js), a character no
// npm package name has.
func DistName(name string) string { return strings.ReplaceAll(name, "/", "~") }

// vendored are the embedded libraries, read once.
var vendored = func() []Library {
	b, err := dist.ReadFile("dist/manifest.json")
	if err != nil {
		panic(err)
	}
	var list []Library
	if err := json.Unmarshal(b, &list); err != nil {
		panic(err)
	}
	return list
}()

// Set is the importable packages of one process: the vendored ones plus an
// operator's directory. Its contents never change after New, so it is safe
// for concurrent use. The nil *Set holds the vendored libraries only.
type Set struct {
	libs     map[string]Library
	operator map[string]string // name → script, for operator libraries
}

// New returns the vendored libraries plus those of dir ("" for none). It
// fails when a file of dir cannot be loaded (see loadDir).
func New(dir string) (*Set, error) {
	s := &Set{libs: map[string]Library{}, operator: map[string]string{}}
	for _, l := range vendored {
		s.libs[l.Name] = l
	}
	if err := s.loadDir(dir); err != nil {
		return nil, err
	}
	return s, nil
}

// Lookup returns the library called name.
func (s *Set) Lookup(name string) (Library, bool) {
	if s == nil {
		return Library{}, false
	}
	l, ok := s.libs[name]
	return l, ok
}

// Modules lists every bare module a snippet may import: RuntimeModule
// first, then the libraries by name.
func (s *Set) Modules() []string {
	out := []string{RuntimeModule}
	if s == nil {
		return out
	}
	return append(out, slices.Sorted(maps.Keys(s.libs))...)
}

// Source returns the script of library name, which evaluates to the
// package's exports.
func (s *Set) Source(name string) (string, error) {
	if _, ok := s.Lookup(name); !ok {
		return "", fmt.Errorf("no library %q", name)
	}
	if src, ok := s.operator[name]; ok {
		return src, nil
	}
	b, err := dist.ReadFile("dist/" + DistName(name) + ".js")
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Subpaths of the vendored packages that code written for Node imports,
// as the playground serves them (each package's own exports map decides
// what Node resolves): a whole alias is the package itself under another
// name; a member prefix names one export per module, its default export
// (and a named one), as lodash's per-method modules, date-fns's
// per-function modules and validator's lib/ modules do. A package's
// subpath that is a library of its own (date-fns/locale, vendored by
// gen.go as a library) is not here: Lookup finds it.
var (
	wholeAliases = map[string]string{
		"zod/v4": "zod", // zod 4's classic API, under both names
	}
	// required is what require() of such a module returns in Node.
	memberPrefixes = []struct {
		prefix, lib string
		required    RequireShape
	}{
		{"lodash/", "lodash", RequireExport},
		{"date-fns/locale/", "date-fns/locale", RequireObject}, // before date-fns/: the longer prefix
		{"date-fns/", "date-fns", RequireObject},
		{"validator/lib/", "validator", RequireSelfDefault},
		{"validator/es/lib/", "validator", RequireSelfDefault},
	}
)

// SubpathModule is what an import of a package's subpath stands for.
type SubpathModule struct {
	Lib      string       // the library it reads from
	Export   string       // the one export it stands for; "" for the whole library
	Required RequireShape // what require() of it returns (an Export's)
}

// RequireShape is what require() of a member subpath returns in Node.
type RequireShape int

const (
	RequireExport      RequireShape = iota // the export itself (lodash/groupBy)
	RequireObject                          // an object of the export by its name (date-fns/addDays: { addDays })
	RequireSelfDefault                     // the export, its default property itself (validator/lib/isEmail)
)

// Subpath resolves spec, a subpath of a vendored package ("zod/v4",
// "lodash/groupBy", "date-fns/addDays.js", "validator/lib/isEmail",
// "date-fns/locale/zh-CN"). ok is false for any other spec, also a subpath
// the playground does not serve (date-fns/fp, date-fns/locale/xx). As for
// every member prefix, a ".js" suffix is accepted (date-fns/locale/de.js),
// which date-fns 4's exports map refuses in Node; a library that is a
// subpath itself (date-fns/locale) is Lookup's, not Subpath's.
func (s *Set) Subpath(spec string) (m SubpathModule, ok bool) {
	if l, ok := wholeAliases[spec]; ok {
		if _, have := s.Lookup(l); have {
			return SubpathModule{Lib: l}, true
		}
	}
	for _, p := range memberPrefixes {
		rest, found := strings.CutPrefix(spec, p.prefix)
		if !found {
			continue
		}
		rest = strings.TrimSuffix(rest, ".js")
		l, have := s.Lookup(p.lib)
		if !have || s.operator[p.lib] != "" {
			return SubpathModule{}, false
		}
		export := rest
		if l.Subpaths != nil {
			export = l.Subpaths[rest] // "" for a name that is no module of it
		}
		if !slices.Contains(l.Exports, export) {
			return SubpathModule{}, false
		}
		return SubpathModule{Lib: p.lib, Export: export, Required: p.required}, true
	}
	return SubpathModule{}, false
}

// SubpathPrefixes are the spellings Subpath may resolve for library name:
// its whole aliases and member prefixes.
func SubpathPrefixes(name string) (aliases, prefixes []string) {
	for a, l := range wholeAliases {
		if l == name {
			aliases = append(aliases, a)
		}
	}
	for _, m := range memberPrefixes {
		if m.lib == name {
			prefixes = append(prefixes, m.prefix)
		}
	}
	slices.Sort(aliases)
	return aliases, prefixes
}
