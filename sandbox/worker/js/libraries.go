package js

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/playground-dev/playground/sandbox/libs"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
	"github.com/playground-dev/playground/sandbox/worker/js/rewrite"
)

// Libraries compiles each library of a set once and shares the immutable
// *goja.Program with every later runtime of the process. It is safe for
// concurrent use (the worker prepares runtimes in the background).
//
// A chunk (the tree-shaken subset of a library's exports a run uses,
// bundle.LibraryChunk) is compiled once too, and kept among the most
// recently used while their sources total at most cachedChunkBytes.
type Libraries struct {
	set *libs.Set

	mu       sync.Mutex // guards programs, chunkBytes, and every Add to chunks
	programs map[string]*goja.Program
	chunks   *lru.Cache[string, cachedChunk] // by chunk key; Get is safe without mu

	chunkBytes    int // the source bytes of the chunks cached
	maxChunkBytes int // cachedChunkBytes; tests lower it
}

// cachedChunk is a compiled chunk and the length of its source in bytes.
type cachedChunk struct {
	prg  *goja.Program
	size int
}

// A compiled chunk holds about 12 times its source's bytes on the heap
// (measured: lodash chunk 5 KiB → 46 KiB; mathjs mean/median/std 90 KiB →
// 1.1 MiB; mathjs evaluate 0.9 MiB → ≈10 MiB), and the worker's live heap,
// cache included, is what the memory watchdog holds against every run's
// cap (pipe.MemoryLayout, 256 MiB by default). Bounded by count alone, two
// dozen distinct mathjs imports would have put every run on that worker,
// anyone's, over the cap. cachedChunkBytes of source is ≈50 MiB compiled;
// cachedChunks bounds the number of small ones.
const (
	cachedChunkBytes = 4 << 20
	cachedChunks     = 256
)

// NewLibraries returns a compiler for set's libraries.
func NewLibraries(set *libs.Set) *Libraries {
	l := &Libraries{set: set, programs: map[string]*goja.Program{}, maxChunkBytes: cachedChunkBytes}
	l.chunks, _ = lru.NewWithEvict(cachedChunks, func(_ string, c cachedChunk) { l.chunkBytes -= c.size })
	return l
}

// chunk returns the compiled chunk of library name that exports just
// names (sorted), bundling it on first use for client (pipe.Job.Client):
// which names a client's run used is its own, so a chunk is cached per
// client, and no run is faster, or slower, for another client's names
// (issue 22). With instance, the program is the library's Instance
// (libs.ESMSource.FromInstance), which evaluates to an object that has
// names among its members rather than just them; like a whole library
// (program), it is the same for every set of names and every client.
func (l *Libraries) chunk(client, name string, names []string) (prg *goja.Program, instance bool, err error) {
	src, ok := l.set.ESM(name)
	instance = ok && src.FromInstance(names)
	key := client + "\x00" + name + "\x00" + strings.Join(names, ",")
	if instance {
		key = name + "\x00instance" // one program for every set of names
	}
	if c, ok := l.chunks.Get(key); ok {
		return c.prg, instance, nil
	}
	l.mu.Lock() // one build at a time: the background preparation may want the same
	defer l.mu.Unlock()
	if c, ok := l.chunks.Get(key); ok {
		return c.prg, instance, nil
	}
	if !ok {
		prg, err = l.programLocked(name)
		return prg, false, err
	}
	code := src.Instance // built by the generate step
	if !instance {
		if code, err = bundle.LibraryChunk(src, names); err != nil {
			return nil, false, fmt.Errorf("%s: %w", name, err)
		}
	}
	ast, err := goja.Parse(name+".js", code, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, false, err
	}
	p, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, false, err
	}
	l.chunks.Add(key, cachedChunk{prg: p, size: len(code)}) // the eviction callback runs under mu too
	l.chunkBytes += len(code)
	for l.chunkBytes > l.maxChunkBytes && l.chunks.Len() > 1 {
		l.chunks.RemoveOldest() // never the chunk just added: the run needs it
	}
	return p, instance, nil
}

// Set returns the library set.
func (l *Libraries) Set() *libs.Set { return l.set }

// program returns name's compiled library.
func (l *Libraries) program(name string) (*goja.Program, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.programLocked(name)
}

func (l *Libraries) programLocked(name string) (*goja.Program, error) {
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

// Warm compiles what a bundle of client's evaluates of its libraries
// (uses, from bundle.Result.Uses) so that its runs do not: the worker
// calls it while bundling, under the run's deadline. It returns the first
// error.
func (l *Libraries) Warm(uses []bundle.LibraryUse, client string) error {
	for _, u := range uses {
		var err error
		if u.Names != nil {
			_, _, err = l.chunk(client, u.Name, u.Names)
		} else {
			_, err = l.program(u.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// lib is the runtime object's FieldLib: lib(name) evaluates a library in
// this run's runtime, once, and returns its exports; lib(name, names) does
// the same with the chunk of just those exports (names sorted, as the
// bundler writes them).
func (e *Runtime) lib(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	var names []string
	if a := c.Argument(1); !goja.IsUndefined(a) {
		if err := e.vm.ExportTo(a, &names); err != nil {
			e.throw("TypeError", "lib: names must be an array of strings")
		}
	}
	key := name
	if names != nil {
		key = name + "\x00" + strings.Join(names, ",")
	}
	if v, ok := e.libs[key]; ok {
		return v
	}
	if e.registry == nil {
		e.throw("Error", "no libraries in this runtime")
	}
	var prg *goja.Program
	var instance bool
	var err error
	if names != nil {
		prg, instance, err = e.registry.chunk(e.client, name, names)
	} else {
		prg, err = e.registry.program(name)
	}
	if err != nil {
		e.throw("Error", err.Error())
	}
	v, err := e.vm.RunProgram(prg)
	if err != nil {
		panic(err)
	}
	if instance {
		// The run's names, read from the instance once each (a read
		// makes the member and what it needs), in an object as a chunk's.
		m, exports := v.ToObject(e.vm), e.vm.NewObject()
		for _, n := range names {
			if err := exports.Set(n, m.Get(n)); err != nil {
				panic(err)
			}
		}
		v = exports
	}
	e.libs[key] = v
	return v
}

// Preload evaluates the libraries (or chunks) of uses in e before its run, as a run that
// imports them would: the worker prepares its next runtime this way while it
// waits. An error stops the preload; the run meets it again itself.
func (e *Runtime) Preload(uses []bundle.LibraryUse) {
	if len(uses) > 0 {
		// Library code may reach anything: everything is installed before
		// it runs, as for a program that imports a library (usage.go).
		e.install(needAll, nil)
	}
	for _, u := range uses {
		args := []goja.Value{e.vm.ToValue(u.Name)}
		if u.Names != nil {
			args = append(args, e.vm.ToValue(u.Names))
		}
		if ex := e.vm.Try(func() { e.lib(goja.FunctionCall{Arguments: args}) }); ex != nil {
			return
		}
	}
}

// Compile parses a bundle with its inline source map. The loader refuses
// every file: a sourceMappingURL that is not inline is ignored, and no
// snippet can make the worker read a file. One walk over the parsed
// program rewrites what goja would get wrong (\p{…} in regex literals,
// constant-folded BigInt operators, right-to-left relational chains:
// parity/relational.go) and summarises what the program may
// reach (usage.go), which New and Execute read back to install only that;
// then string building is rewritten to run in linear time
// (rewrite.StringBuilding) and for…of over arrays to run as an indexed loop
// (rewrite.ArrayLoops).
func Compile(code string) (*goja.Program, error) {
	tree, err := goja.Parse("bundle.js", code, parser.WithSourceMapLoader(noSourceMapFiles))
	if err != nil {
		return nil, err
	}
	rewriteRE := strings.Contains(code, `\p{`) || strings.Contains(code, `\P{`)
	unfold := parity.MayFoldBigInt(code)
	u := &usage{}
	rel := parity.NewRelationalFix(code, tree)
	var supers []span // super(…) calls, from "super" to "(": constructorFrames
	findSupers := strings.Contains(code, "super")
	var reErr error
	var catches []*ast.CatchStatement // of the snippet's files, with a named binding: callCaught
	findCatches := strings.Contains(code, "catch")
	var errorReads []ast.Expression // .stack and .message reads of the snippet's files: readsError
	findErrorReads := strings.Contains(code, "stack") || strings.Contains(code, "message")
	var errorSites map[position]bool // summary.errorSites
	findErrorSites := strings.Contains(code, "TypeError")
	walkAST(tree, func(n any) bool {
		if findErrorSites {
			if at, ok := errorSite(tree, n); ok {
				if errorSites == nil {
					errorSites = map[position]bool{}
				}
				errorSites[at] = true
			}
		}
		if findErrorReads {
			if x, ok := errorRead(n); ok && inUserFile(tree, x.Idx0()) {
				errorReads = append(errorReads, x)
			}
		}
		if c, ok := n.(*ast.CatchStatement); ok && findCatches {
			if _, named := c.Parameter.(*ast.Identifier); named && c.Body != nil && inUserFile(tree, c.Catch) {
				catches = append(catches, c)
			}
		}
		more := true
		if !u.dynamic && !u.visit(n) && !u.dynamic {
			// Bundler code the summary skips (esbuildExport): walked
			// further only for the rewrites below that need every node.
			more = rewriteRE || unfold
		}
		rel.Visit(n)
		if c, ok := n.(*ast.CallExpression); ok && findSupers {
			if _, ok := c.Callee.(*ast.SuperExpression); ok {
				supers = append(supers, span{positionOf(tree, c.Callee.Idx0()-1), positionOf(tree, c.LeftParenthesis)})
			}
		}
		if rewriteRE && reErr == nil {
			if re, ok := n.(*ast.RegExpLiteral); ok {
				reErr = parity.RewriteRegExpLiteral(re)
			}
			if reErr != nil {
				more = false
			}
		}
		if unfold {
			parity.UnfoldBigIntOperator(n)
		}
		return more
	})
	if reErr != nil {
		return nil, reErr
	}
	for _, c := range catches {
		callCaught(c)
	}
	for _, x := range errorReads {
		readsError(x)
	}
	// Strings built by appending: linear rather than quadratic
	// (rewrite.StringBuilding; the natives are defined by run).
	builds := strings.Contains(code, "+") && rewrite.StringBuilding(tree, bundle.RuntimeParam)
	// for…of over arrays: an indexed loop where nothing can tell
	// (rewrite.ArrayLoops; its native too).
	loops := strings.Contains(code, " of ") && rewrite.ArrayLoops(tree, bundle.RuntimeParam)
	prg, err := goja.CompileAST(tree, bundle.Strict(code))
	if err != nil {
		return nil, err
	}
	sum := u.result()
	sum.supers = supers
	sum.catches = len(catches) > 0
	sum.errorReads = len(errorReads) > 0
	sum.builds = builds
	sum.loops = loops
	sum.errorSites = errorSites
	sum.code = code
	remember(prg, sum)
	return prg, nil
}

// inUserFile reports whether the bundle offset idx is in one of the
// snippet's files (through the source map), not in the bundler's code.
func inUserFile(tree *ast.Program, idx file.Idx) bool {
	return strings.HasPrefix(tree.File.Position(int(idx)).Filename, bundle.FileNamespace+":")
}

// callCaught makes the catch clause c (its binding an identifier) start
// with `RuntimeParam.caught(binding);` (Runtime.caught), placed at the
// clause's "{" for the source map.
func callCaught(c *ast.CatchStatement) {
	at := c.Body.LeftBrace
	call := &ast.CallExpression{
		Callee: &ast.DotExpression{
			Left:       &ast.Identifier{Name: bundle.RuntimeParam, Idx: at},
			Identifier: ast.Identifier{Name: bundle.FieldCaught, Idx: at},
		},
		LeftParenthesis:  at,
		ArgumentList:     []ast.Expression{&ast.Identifier{Name: c.Parameter.(*ast.Identifier).Name, Idx: at}},
		RightParenthesis: at,
	}
	c.Body.List = append([]ast.Statement{&ast.ExpressionStatement{Expression: call}}, c.Body.List...)
}

// errorRead reports whether n reads a property named stack or message
// (`x.stack`, `x["message"]`; not through `?.`, whose short-circuit the
// rewrite would change) and returns it.
func errorRead(n any) (ast.Expression, bool) {
	switch x := n.(type) {
	case *ast.DotExpression:
		if name := x.Identifier.Name; name == "stack" || name == "message" {
			if _, optional := x.Left.(*ast.Optional); !optional {
				return x, true
			}
		}
	case *ast.BracketExpression:
		if lit, ok := x.Member.(*ast.StringLiteral); ok && (lit.Value == "stack" || lit.Value == "message") {
			if _, optional := x.Left.(*ast.Optional); !optional {
				return x, true
			}
		}
	}
	return nil, false
}

// readsError makes the read x (errorRead) call the runtime object's
// errorRead on its object first: `x.stack` becomes
// `rt.errorRead(x).stack`. errorRead returns its argument, so the object
// is evaluated once and the read (a write, a delete, `+=`) acts on it as
// before, with the same position.
func readsError(x ast.Expression) {
	wrap := func(left ast.Expression) ast.Expression {
		at := left.Idx0()
		return &ast.CallExpression{
			Callee: &ast.DotExpression{
				Left:       &ast.Identifier{Name: bundle.RuntimeParam, Idx: at},
				Identifier: ast.Identifier{Name: bundle.FieldErrorRead, Idx: at},
			},
			LeftParenthesis:  at,
			ArgumentList:     []ast.Expression{left},
			RightParenthesis: at,
		}
	}
	switch x := x.(type) {
	case *ast.DotExpression:
		x.Left = wrap(x.Left)
	case *ast.BracketExpression:
		x.Left = wrap(x.Left)
	}
}

// walkAST calls visit once for every node of a parsed program (as a
// pointer, also a node held by value in its parent), parents first, descending into a node's exported fields
// while visit returns true. goja's ast has no walker of its own; this one
// skips the source files the nodes point at and keeps its own stack, so no
// nesting depth escapes it (a depth cap would let deeply nested code slip
// past parity.UnfoldBigIntOperators).
func walkAST(prg *ast.Program, visit func(n any) bool) { walkNode(prg, visit) }

func noSourceMapFiles(string) ([]byte, error) { return nil, errNoFS }
