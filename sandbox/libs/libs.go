//go:generate go run gen.go

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
}

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
	b, err := dist.ReadFile("dist/" + name + ".js")
	if err != nil {
		return "", err
	}
	return string(b), nil
}
