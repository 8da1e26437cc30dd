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

var libraries = func() map[string]Library {
	b, err := libraryFiles.ReadFile("libs/dist/manifest.json")
	if err != nil {
		panic(err)
	}
	var list []Library
	if err := json.Unmarshal(b, &list); err != nil {
		panic(err)
	}
	m := make(map[string]Library, len(list))
	for _, l := range list {
		m[l.Name] = l
	}
	return m
}()

// Libraries returns the importable npm packages, sorted by name.
func Libraries() []Library {
	out := make([]Library, 0, len(libraries))
	for _, l := range libraries {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Library) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// modules lists every bare module a snippet may import.
func modules() []string {
	out := []string{RuntimeModule}
	for _, l := range Libraries() {
		out = append(out, l.Name)
	}
	return out
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

// libraryPrograms compiles each library once per process (a worker) and
// shares the *goja.Program with every later runtime.
var libraryPrograms struct {
	mu sync.Mutex
	m  map[string]*goja.Program
}

func libraryProgram(name string) (*goja.Program, error) {
	libraryPrograms.mu.Lock()
	defer libraryPrograms.mu.Unlock()
	if p, ok := libraryPrograms.m[name]; ok {
		return p, nil
	}
	if _, ok := libraries[name]; !ok {
		return nil, fmt.Errorf("no library %q", name)
	}
	src, err := libraryFiles.ReadFile("libs/dist/" + name + ".js")
	if err != nil {
		return nil, err
	}
	ast, err := goja.Parse(name+".js", string(src), parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	p, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, err
	}
	if libraryPrograms.m == nil {
		libraryPrograms.m = map[string]*goja.Program{}
	}
	libraryPrograms.m[name] = p
	return p, nil
}

// lib evaluates a library in this run's runtime, once, and returns its exports.
func (e *execution) lib(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	if v, ok := e.libs[name]; ok {
		return v
	}
	prg, err := libraryProgram(name)
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
