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
	"github.com/playground-dev/playground/sandbox/worker/fair"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
	"github.com/playground-dev/playground/sandbox/worker/js/rewrite"
)

// Libraries compiles the libraries of a set for the runs of one process
// (a worker). It is safe for concurrent use (the worker prepares runtimes
// in the background).
//
// What it compiles before the worker is ready (Precompile: the small
// libraries' whole programs) is shared by every run. Everything compiled
// later is compiled for one client (pipe.Job.Client) and kept for that
// client alone: a library's whole program, its Instance (mathjs), and each
// chunk (the tree-shaken subset of a library's exports a run uses,
// bundle.LibraryChunk). So no run is faster for another client's use of a
// library, and none can time whether another client used one (issue 22).
// They are kept among the most recently used while their sources total at
// most cachedBytes; past that, the client holding the most loses its
// oldest (fair.Cache).
type Libraries struct {
	set *libs.Set

	mu sync.Mutex // one build at a time
	// shared holds the programs Precompile compiled, by library name, for
	// every run; set before any run and only read after.
	shared map[string]*goja.Program
	// owned holds what was compiled for one client (ownedKey), owned by
	// that client, sized by source bytes.
	owned *fair.Cache[string, *goja.Program]

	// wholes are the libraries compiled before the worker is ready
	// (Precompile), with their exports; set once, before any run, and
	// read without mu.
	wholes map[string]whole
	// asked counts, by chunk key, the runs that read their names from a
	// precompiled whole library: the chunk is built for the next
	// (chunkAfterAsks).
	asked *lru.Cache[string, int]
}

// whole is a library compiled before the worker is ready: its program
// and the names its exports object has (libs.Library.Exports).
type whole struct {
	prg     *goja.Program
	exports map[string]bool
}

// precompileBytes bounds the libraries Precompile compiles: those whose
// script is at most this long. Of the shipped set that is jstat, lodash,
// papaparse and uuid: ≈ 22 ms and ≈ 2.4 MB of live heap together (2 cores,
// 2026-11-28). A worker pays it at every start (it is recycled every
// MaxRunsPerWorker runs) and its collector marks that heap on every cycle:
// with date-fns, validator and zod too (512 KiB: ≈ 130 ms, ≈ 15 MB) a
// hello run's worker CPU rose from 0.076 to 0.10–0.11 ms and the workers'
// idle memory from 86 to 165 MiB (scripts/cpu-per-run.sh), where at this
// bound it is 0.079–0.082 ms. The larger libraries stay compiled on first
// use (docs/benchmarks.md, "Libraries precompiled at worker start").
const precompileBytes = 128 << 10

// chunkAfterAsks is how many runs of a client read a set of names from a
// precompiled whole library before the next builds their chunk: a chunk
// costs 3–24 ms to bundle and compile once, then saves 0–5 ms a run over
// evaluating the whole library (lodash 1.7, date-fns 1.3, zod 5.0; measured
// 2026-11-28), and an agent's unique code rarely asks for the same names
// twice. askedChunks bounds the keys counted.
const (
	chunkAfterAsks = 2
	askedChunks    = 4096
)

// A compiled program holds 6–33 times its source's bytes on the heap
// (measured 2026-11-28: a lodash chunk 5 KiB → 46 KiB; mathjs
// mean/median/std 90 KiB → 1.1 MiB; whole date-fns 146 KiB → 1.7 MiB,
// date-fns/locale 703 KiB → 12.3 MiB, validator 130 KiB → 4.1 MiB, zod
// 482 KiB → 4.7 MiB, mathjs 1,049 KiB → 9.3 MiB, its instance 878 KiB →
// 7.9 MiB), and the worker's live heap is what it keeps between runs: the
// memory watchdog credits it to no run (measureBase), but every collection
// marks it, and it counts towards the server's memory. cachedBytes of
// source is ≈ 50 MiB compiled, room for one client's use of every shipped
// library (3.4 MiB of source) and more; cachedPrograms bounds the number
// of small ones.
const (
	cachedBytes    = 4 << 20
	cachedPrograms = 256
)

// ownedKey is the key of what owned keeps for client: a chunk of names
// (sorted, not empty) of library name; with names nil, the library's whole
// program; with instance, its Instance. Names are export names: none holds
// a NUL, and a chunk's list is never empty.
func ownedKey(client, name string, names []string, instance bool) string {
	switch {
	case instance:
		return client + "\x00" + name + "\x00\x00instance"
	case names == nil:
		return client + "\x00" + name + "\x00"
	}
	return client + "\x00" + name + "\x00" + strings.Join(names, ",")
}

// NewLibraries returns a compiler for set's libraries.
func NewLibraries(set *libs.Set) *Libraries {
	l := &Libraries{set: set, shared: map[string]*goja.Program{}, owned: fair.New[string, *goja.Program](cachedPrograms, cachedBytes), wholes: map[string]whole{}}
	l.asked, _ = lru.New[string, int](askedChunks)
	return l
}

// Precompile compiles every library whose script is at most
// precompileBytes long (its whole program, as program does), so that no
// run compiles it and none can time whether an earlier run, anyone's, did
// (issue 22); a run that uses some names of one of them reads them from
// the whole library until its client asks for the same names again
// more than chunkAfterAsks times (chunk). The worker calls it once, before it says ready and before any
// run; it is not safe to call concurrently with anything else. A library
// that does not compile (an operator's, -libraries) is left as it is: the
// run that imports it meets the error, as without Precompile.
func (l *Libraries) Precompile() {
	for _, name := range l.set.Modules()[1:] {
		lib, _ := l.set.Lookup(name)
		src, err := l.set.Source(name)
		if err != nil || len(src) > precompileBytes {
			continue
		}
		prg, err := compileLibrary(name, src)
		if err != nil {
			continue
		}
		l.shared[name] = prg
		w := whole{prg: prg, exports: make(map[string]bool, len(lib.Exports))}
		for _, e := range lib.Exports {
			w.exports[e] = true
		}
		l.wholes[name] = w
	}
}

// chunk returns the program a run of client (pipe.Job.Client) evaluates
// for names (sorted) of library name, and whether the run reads names
// from what it evaluates to (members) rather than taking it as the chunk
// of just those exports:
//
//   - the library's Instance (libs.ESMSource.FromInstance), compiled for
//     client: one program for every set of names, members;
//   - the chunk of client's names, if cached;
//   - the whole library precompiled before the worker was ready
//     (Precompile), members, when it has every name and either build is
//     false (the run itself, lib) or client has asked for these names
//     (Warm, once per run) at most chunkAfterAsks times before: a new
//     chunk costs 3–24 ms to bundle and compile where the whole library
//     evaluates in 0.1–5 ms, and agents' code seldom repeats a name set;
//   - else the chunk of just those names, bundled now (bundle.LibraryChunk)
//     and cached for client.
//
// Which libraries and names a client's run used is its own: what is
// compiled after Precompile and the names asked for are kept per client,
// so no run is faster for another client's use (issue 22), and none is
// slower for it unless its own client holds the most of the cache.
func (l *Libraries) chunk(client, name string, names []string, build bool) (prg *goja.Program, members bool, err error) {
	src, ok := l.set.ESM(name)
	if ok && src.FromInstance(names) {
		prg, err := l.compileFor(ownedKey(client, name, nil, true), client, name, func() (string, error) {
			return src.Instance, nil // built by the generate step
		})
		return prg, true, err
	}
	key := ownedKey(client, name, names, false)
	if prg, ok := l.owned.Get(key); ok {
		return prg, false, nil
	}
	if w, precompiled := l.wholes[name]; ok && precompiled && w.hasAll(names) {
		if !build {
			return w.prg, true, nil
		}
		if n, _ := l.asked.Get(key); n < chunkAfterAsks {
			l.asked.Add(key, n+1) // racing Warms may count one ask once: a chunk one run later
			return w.prg, true, nil
		}
	}
	if !ok {
		prg, err = l.program(client, name)
		return prg, false, err
	}
	prg, err = l.compileFor(key, client, name, func() (string, error) {
		code, err := bundle.LibraryChunk(src, names)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		return code, nil
	})
	return prg, false, err
}

// hasAll reports whether every one of names is an export of w.
func (w whole) hasAll(names []string) bool {
	for _, n := range names {
		if !w.exports[n] {
			return false
		}
	}
	return true
}

// Set returns the library set.
func (l *Libraries) Set() *libs.Set { return l.set }

// program returns library name's whole program for a run of client: the
// one Precompile compiled, or client's own (compiled now if need be).
func (l *Libraries) program(client, name string) (*goja.Program, error) {
	if prg, ok := l.shared[name]; ok {
		return prg, nil
	}
	return l.compileFor(ownedKey(client, name, nil, false), client, name, func() (string, error) {
		return l.set.Source(name)
	})
}

// compileFor returns the program owned keeps under key for client,
// getting library name's script from code and compiling it first if
// there is none. One build at a time: the background preparation may want
// the same program as the run that follows it.
func (l *Libraries) compileFor(key, client, name string, code func() (string, error)) (*goja.Program, error) {
	if prg, ok := l.owned.Get(key); ok {
		return prg, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if prg, ok := l.owned.Get(key); ok {
		return prg, nil
	}
	src, err := code()
	if err != nil {
		return nil, err
	}
	prg, err := compileLibrary(name, src)
	if err != nil {
		return nil, err
	}
	l.owned.Add(key, prg, client, int64(len(src)))
	return prg, nil
}

// compileLibrary compiles a library's script (whole, instance or chunk),
// in strict mode and without reading source maps.
func compileLibrary(name, code string) (*goja.Program, error) {
	ast, err := goja.Parse(name+".js", code, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, true)
}

// Warm compiles what a bundle of client's evaluates of its libraries
// (uses, from bundle.Result.Uses) so that its runs do not: the worker
// calls it while bundling, under the run's deadline. It returns the first
// error.
func (l *Libraries) Warm(uses []bundle.LibraryUse, client string) error {
	for _, u := range uses {
		var err error
		if u.Names != nil {
			_, _, err = l.chunk(client, u.Name, u.Names, true)
		} else {
			_, err = l.program(client, u.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// lib is the runtime object's FieldLib: lib(name) evaluates a library in
// this run's runtime, once, and returns its exports; lib(name, names) does
// the same for just those exports (names sorted, as the bundler writes
// them): an object with those names, from their chunk, the library's
// instance or the whole library (Libraries.chunk).
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
	var members bool
	var err error
	if names != nil {
		prg, members, err = e.registry.chunk(e.client, name, names, false)
	} else {
		prg, err = e.registry.program(e.client, name)
	}
	if err != nil {
		e.throw("Error", err.Error())
	}
	v, err := e.vm.RunProgram(prg)
	if err != nil {
		panic(err)
	}
	if members {
		// The run's names, read once each from the instance (a read makes
		// the member and what it needs) or the whole library, in an
		// object as a chunk's.
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
