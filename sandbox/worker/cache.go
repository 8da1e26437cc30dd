package worker

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/go-sourcemap/sourcemap"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/fair"
	"github.com/playground-dev/playground/sandbox/worker/js"
)

// programBytesPerCodeByte estimates a compiled program's heap from its
// bundle's length. Measured (go test heap delta after goja compile, with GC):
// 9–15 heap bytes per byte of minified library code (mathjs 9.1, zod
// 10.0, date-fns 11.7, lodash 14.8); snippet bundles carry an inline
// source map, which costs less per byte. 16 keeps the estimate above
// every measurement.
const programBytesPerCodeByte = 16

// programCache keeps compiled bundles by content hash (which includes the
// client, bundleKey), within a byte budget (estimated,
// programBytesPerCodeByte) and a count; past either, the client holding
// the most loses its least recently used (fair.Cache), so a client that
// fills the cache evicts its own bundles, not the next client's (issue
// 22). A *goja.Program is immutable and shared by the runtimes of later
// runs. Bundle errors are cached too: the same files fail the same way.
// It is safe for concurrent use.
type programCache struct {
	libs   *js.Libraries
	m      *fair.Cache[[32]byte, *compiled]
	budget int64 // bytes the cached programs may hold, estimated
}

type compiled struct {
	prg     *goja.Program
	imports []bundle.LibraryUse // what the bundle evaluates of each library it imports, by name
	mode    string              // the mode the bundle was built for (bundle.Result.Mode)
	errs    []pipe.Error
	bytes   int64 // estimated heap of prg and the rest
}

func newProgramCache(size int, budget int64, libs *js.Libraries) *programCache {
	return &programCache{libs: libs, budget: budget, m: fair.New[[32]byte, *compiled](size, budget)}
}

// has reports whether the bundle of key (bundleKey) is cached.
func (c *programCache) has(key [32]byte) bool { return c.m.Contains(key) }

// cached returns the compiled bundle of key, if cached.
func (c *programCache) cached(key [32]byte) (*compiled, bool) { return c.m.Get(key) }

// build bundles and compiles files in mode ("" detects it), and the
// library chunks they use for client (js.Libraries.Warm). It may take
// long (a huge snippet, a library chunk): the caller bounds it (compile).
func (c *programCache) build(files []pipe.File, entry, mode, client string) *compiled {
	b := bundle.BundleMode(files, entry, mode, c.libs.Set())
	e := &compiled{errs: b.Errors, imports: b.Uses, mode: b.Mode, bytes: 1 << 10}
	if len(e.errs) == 0 {
		prg, err := js.Compile(b.Code)
		if err != nil {
			e.errs = []pipe.Error{compileError(err, b.Code, entry, b.Mode)}
		}
		e.prg = prg
		e.bytes += int64(len(b.Code)) * programBytesPerCodeByte
		// Compile the libraries' chunks now, under the run's deadline, not
		// inside the run. An error here is the run's to meet (lib throws it).
		_ = c.libs.Warm(b.Uses, client)
	}
	for _, er := range e.errs {
		e.bytes += int64(len(er.Message) + len(er.File) + len(er.Stack))
	}
	return e
}

// add caches e under key for client, evicting past the budget (fair.Cache).
// An entry that alone would take more than half the budget is not kept.
func (c *programCache) add(key [32]byte, e *compiled, client string) {
	if e.bytes > c.budget/2 {
		return
	}
	c.m.Add(key, e, client, e.bytes)
}

// size is the estimated bytes of the cached entries.
func (c *programCache) size() int64 { return c.m.Bytes() }

// bundleKey hashes what decides a bundle's bytes: the bundler version
// (options live in this binary), the mode, the entry and the files, each
// length-prefixed; and the client (pipe.Job.Client): a client never hits
// another's entry, so the time a run takes to bundle (stats.bundleMs)
// tells nothing of what another client ran (issue 22).
func bundleKey(files []pipe.File, entry, mode, client string) [32]byte {
	h := sha256.New()
	write := func(s string) {
		var n [8]byte
		for i := range 8 {
			n[i] = byte(len(s) >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(bundle.Version)
	write(client)
	write(mode)
	write(entry)
	for _, f := range files {
		write(f.Path)
		write(f.Source)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// compileError reports an error of goja's parser or compiler on a bundle
// esbuild accepted as a SYNTAX_ERROR at the user's file, line and column:
// the bundle's position goes through its inline source map (the nearest
// mapping at or before it), and the message loses goja's "bundle.js: Line
// L:C" prefix. A position that maps to no snippet file (the bundle's own
// glue) is reported at the entry file's first line.
func compileError(err error, code, entry, mode string) pipe.Error {
	msg, line, col := err.Error(), 0, 0
	var list parser.ErrorList
	var ce *goja.CompilerSyntaxError
	switch {
	case errors.As(err, &list) && len(list) > 0:
		msg, line, col = list[0].Message, list[0].Position.Line, list[0].Position.Column
		if len(list) > 1 {
			msg += fmt.Sprintf(" (and %d more errors)", len(list)-1)
		}
	case errors.As(err, &ce):
		msg = ce.Message
		if ce.File != nil {
			p := ce.File.Position(ce.Offset)
			line, col = p.Line, p.Column
		}
	}
	msg = bundlePosition.ReplaceAllString(msg, "")
	if !strings.HasPrefix(msg, "SyntaxError") {
		msg = "SyntaxError: " + msg
	}
	e := pipe.Error{Kind: pipe.KindSyntax, Message: msg, File: entry, Line: 1, Column: 1}
	if file, l, c, ok := mapPosition(code, line, col); ok {
		e.File, e.Line, e.Column = file, l, c
		if mode == pipe.ModeScript && file == entry && l == 1 && c > len(bundle.ScriptPrefix) {
			e.Column -= len(bundle.ScriptPrefix)
		}
	}
	e.Stack = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	return e
}

// bundlePosition is goja's "bundle.js: Line 5:13 " in a message.
var bundlePosition = regexp.MustCompile(`bundle\.js: (Line \d+:\d+ )?`)

// mapPosition maps a 1-based line and column of the bundle to a snippet
// file's through the bundle's inline source map.
func mapPosition(code string, line, col int) (file string, l, c int, ok bool) {
	const marker = "//# sourceMappingURL=data:application/json;base64,"
	i := strings.LastIndex(code, marker)
	if i < 0 || line <= 0 {
		return "", 0, 0, false
	}
	data := strings.TrimSpace(code[i+len(marker):])
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", 0, 0, false
	}
	sm, err := sourcemap.Parse("", raw)
	if err != nil {
		return "", 0, 0, false
	}
	src, _, sl, sc, found := sm.Source(line, max(col-1, 0))
	if !found {
		return "", 0, 0, false
	}
	file, isUser := strings.CutPrefix(src, bundle.FileNamespace+":")
	if !isUser {
		return "", 0, 0, false
	}
	return file, sl, sc + 1, true
}
