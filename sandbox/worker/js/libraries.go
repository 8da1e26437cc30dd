package js

import (
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/playground-dev/playground/sandbox/libs"
)

// Libraries compiles each library of a set once and shares the immutable
// *goja.Program with every later runtime of the process. It is safe for
// concurrent use (the worker prepares runtimes in the background).
type Libraries struct {
	set *libs.Set

	mu       sync.Mutex // guards programs
	programs map[string]*goja.Program
}

// NewLibraries returns a compiler for set's libraries.
func NewLibraries(set *libs.Set) *Libraries {
	return &Libraries{set: set, programs: map[string]*goja.Program{}}
}

// Set returns the library set.
func (l *Libraries) Set() *libs.Set { return l.set }

// program returns name's compiled library.
func (l *Libraries) program(name string) (*goja.Program, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.programs[name]; ok {
		return p, nil
	}
	src, err := l.set.Source(name)
	if err != nil {
		return nil, err
	}
	ast, err := goja.Parse(name+".js", src, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	p, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, err
	}
	l.programs[name] = p
	return p, nil
}

// lib is the runtime object's FieldLib: it evaluates a library in this
// run's runtime, once, and returns its exports.
func (e *Runtime) lib(c goja.FunctionCall) goja.Value {
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

// Preload evaluates the named libraries in e before its run, as a run that
// imports them would: the worker prepares its next runtime this way while it
// waits. An error stops the preload; the run meets it again itself.
func (e *Runtime) Preload(names []string) {
	for _, name := range names {
		if ex := e.vm.Try(func() { e.lib(goja.FunctionCall{Arguments: []goja.Value{e.vm.ToValue(name)}}) }); ex != nil {
			return
		}
	}
}

// Compile parses a bundle with its inline source map. The loader refuses
// every file: a sourceMappingURL that is not inline is ignored, and no
// snippet can make the worker read a file.
func Compile(code string) (*goja.Program, error) {
	ast, err := goja.Parse("bundle.js", code, parser.WithSourceMapLoader(noSourceMapFiles))
	if err != nil {
		return nil, err
	}
	if strings.Contains(code, `\\p{`) || strings.Contains(code, `\\P{`) {
		if err := rewriteRegExpLiterals(ast); err != nil {
			return nil, err
		}
	}
	return goja.CompileAST(ast, true)
}

func noSourceMapFiles(string) ([]byte, error) { return nil, errNoFS }
