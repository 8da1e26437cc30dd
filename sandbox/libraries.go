package sandbox

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// The allowlisted npm packages, vendored by libs/gen.go: each dist/<name>.js
// evaluates to the package's exports; manifest.json lists versions and
// export names.
//
//go:embed libs/dist/*.js libs/dist/manifest.json
var libraryFiles embed.FS

// Library is one importable npm package.
type Library struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	License string   `json:"license"`
	Exports []string `json:"exports"`
}

// vendored are the embedded libraries, read once.
var vendored = func() []Library {
	b, err := libraryFiles.ReadFile("libs/dist/manifest.json")
	if err != nil {
		panic(err)
	}
	var list []Library
	if err := json.Unmarshal(b, &list); err != nil {
		panic(err)
	}
	return list
}()

// libraryRegistry is the set of importable packages of one pool (server
// side) or one worker: the vendored ones plus an operator's directory. It
// compiles each library once and shares the *goja.Program with every later
// runtime. It is safe for concurrent use; its set never changes.
type libraryRegistry struct {
	libs     map[string]Library
	operator map[string]string // name → script, for operator libraries

	mu       sync.Mutex // guards programs
	programs map[string]*goja.Program
}

// newLibraryRegistry returns the vendored libraries plus those of dir ("" for none).
func newLibraryRegistry(dir string) (*libraryRegistry, error) {
	r := &libraryRegistry{libs: map[string]Library{}, operator: map[string]string{}, programs: map[string]*goja.Program{}}
	for _, l := range vendored {
		r.libs[l.Name] = l
	}
	if err := r.loadDir(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// lookup returns the library called name.
func (r *libraryRegistry) lookup(name string) (Library, bool) {
	if r == nil {
		return Library{}, false
	}
	l, ok := r.libs[name]
	return l, ok
}

// list returns the libraries sorted by name.
func (r *libraryRegistry) list() []Library {
	out := make([]Library, 0, len(r.libs))
	for _, l := range r.libs {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Library) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// modules lists every bare module a snippet may import.
func (r *libraryRegistry) modules() []string {
	out := []string{RuntimeModule}
	if r == nil {
		return out
	}
	for _, l := range r.list() {
		out = append(out, l.Name)
	}
	return out
}

// program returns name's compiled library.
func (r *libraryRegistry) program(name string) (*goja.Program, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.programs[name]; ok {
		return p, nil
	}
	if _, ok := r.libs[name]; !ok {
		return nil, fmt.Errorf("no library %q", name)
	}
	src, ok := r.operator[name]
	if !ok {
		b, err := libraryFiles.ReadFile("libs/dist/" + name + ".js")
		if err != nil {
			return nil, err
		}
		src = string(b)
	}
	ast, err := goja.Parse(name+".js", src, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	p, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, err
	}
	r.programs[name] = p
	return p, nil
}

// libraryFacade is the module a snippet's `import … from "lodash"` resolves
// to: it takes the package's exports from the runtime (evaluated at most
// once per run) and re-exports them by name, with the package's default
// export (or the CommonJS exports object) as default.
func libraryFacade(l Library) string {
	var b strings.Builder
	fmt.Fprintf(&b, "const m = %s.lib(%s);\n", runtimeParam, jsString(l.Name))
	b.WriteString("export default (m && m.__esModule && \"default\" in m) ? m.default : m;\n")
	for i, name := range l.Exports {
		fmt.Fprintf(&b, "const e%d = m[%s];\n", i, jsString(name))
	}
	if len(l.Exports) > 0 {
		b.WriteString("export {")
		for i, name := range l.Exports {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " e%d as %s", i, name)
		}
		b.WriteString(" };\n")
	}
	return b.String()
}

// lib evaluates a library in this run's runtime, once, and returns its exports.
func (e *execution) lib(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	if v, ok := e.libs[name]; ok {
		return v
	}
	if e.registry == nil {
		e.throw("Error", "no libraries in this runtime")
	}
	prg, err := e.registry.program(name)
	if err != nil {
		e.throw("Error", err.Error())
	}
	v, err := e.vm.RunProgram(prg)
	if err != nil {
		panic(err)
	}
	e.libs[name] = v
	return v
}
