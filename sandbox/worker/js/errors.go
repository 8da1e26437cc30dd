package js

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"github.com/playground-dev/playground/sandbox/pipe"
	"github.com/playground-dev/playground/sandbox/worker/bundle"
	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
)

// Errors a snippet throws, reported as the user sees them: mapped to the
// user's files through the bundle's source map, user frames only.

// uncaught reports a JS exception thrown out of a task. It returns the
// error back when the runtime was interrupted instead.
func (e *Runtime) uncaught(err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		return err
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		e.reportException(ex)
		return e.stop
	}
	var se *goja.StackOverflowError
	if errors.As(err, &se) {
		// goja's stack overflow is uncatchable by design (runtime.go,
		// SetMaxCallStackSize), so it ends the task it happened in.
		er := &pipe.Error{Kind: pipe.KindRuntime, Message: "RangeError: Maximum call stack size exceeded"}
		if frames := e.fixFrames(userFrames(se.Stack())); len(frames) > 0 {
			er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
			er.Stack = formatStack(er.Message, frames)
		}
		e.emitError(er)
		e.fail()
		return e.stop
	}
	return err
}

// fail marks the run failed by an uncaught exception or an unhandled
// rejection and ends it after the current task, as Node ends its process:
// pending timers and host calls are dropped (errUncaught).
func (e *Runtime) fail() {
	e.failed = true
	if e.stop == nil {
		e.stop = errUncaught
	}
}

func (e *Runtime) reportException(ex *goja.Exception) {
	defer e.restoreMessages(e.readMessages([]goja.Value{ex.Value()}, true))
	er := e.thrownError(ex.Value())
	securityError(er)
	e.securityThrown(er, ex.Value())
	o, _ := ex.Value().(*goja.Object)
	raw := userFrames(ex.Stack())
	if o != nil && len(raw) == 0 && e.goThrown[o] {
		raw = parseStack(capStack(e.enc.StackString(o)))
	}
	frames := e.userStack(o, raw)
	if st := ex.Stack(); len(frames) > 0 && len(st) > 0 && strings.HasPrefix(st[0].Position().Filename, bundle.FileNamespace+":") {
		// Thrown by the snippet's own code, not inside a built-in.
		er.Message = e.v8Message(er.Message, frames[0])
	} else if len(st) > 0 && o != nil {
		er.Message = e.v8WordedBy(o, er.Message, st[0].FuncName())
	}
	if len(frames) > 0 {
		er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
		er.Stack = formatStack(er.Message, frames) + e.errorExtrasText(o)
	}
	e.emitError(er)
	e.fail()
}

// errorExtrasText is what Node's report of an uncaught error prints after
// its stack (util.inspect of the error): its own properties and [cause]
// or [errors] in braces, " {\n  status: 500,\n  [cause]: …\n}"; "" for an
// error with none, or a value that is no error.
func (e *Runtime) errorExtrasText(o *goja.Object) string {
	if o == nil || o.ClassName() != "Error" {
		return ""
	}
	t, ok := e.enc.EncodeBudget(o, maxThrownPreview).(inspect.Tagged)
	if !ok || t["props"] == nil && t["cause"] == nil && t["errors"] == nil {
		return ""
	}
	stack, _ := t["stack"].(string)
	text := inspect.Render(t, true)
	if _, ok := t["ref"]; ok { // it refers to itself: "<ref *1> Error: …"
		if _, rest, found := strings.Cut(text, "> "); found {
			text = rest
		}
	}
	if !strings.HasPrefix(text, stack) {
		return ""
	}
	return text[len(stack):]
}

// reportThrown reports a rejection reason (no Go-side stack: the stack is
// the one the error object captured, if any).
func (e *Runtime) reportThrown(v goja.Value, inPromise bool) {
	if e.failed {
		// The run ends at its first uncaught error, as Node's process does:
		// ten thousand rejections in one task are one error event, not
		// ten thousand.
		return
	}
	defer e.restoreMessages(e.readMessages([]goja.Value{v}, true))
	er := e.thrownError(v)
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		// goja formats the stack on its first read (also of an error the
		// runtime's Go code threw): stackString reads it only when that runs
		// no snippet code.
		s := capStack(e.enc.StackString(o))
		if s != "" {
			frames := e.userStack(o, parseStack(s))
			if len(frames) > 0 && firstFrameIsUser(s) {
				er.Message = e.v8Message(er.Message, frames[0])
			} else {
				er.Message = e.v8WordedBy(o, er.Message, nativeFrame(s))
			}
			if len(frames) > 0 {
				er.File, er.Line, er.Column = frames[0].file, frames[0].line, frames[0].column
				er.Stack = formatStack(er.Message, frames) + e.errorExtrasText(o)
			}
		}
	}
	securityError(er)
	e.securityThrown(er, v)
	if inPromise {
		er.Message = "Uncaught (in promise) " + er.Message
		if er.Stack != "" {
			er.Stack = "Uncaught (in promise) " + er.Stack
		}
	}
	e.emitError(er)
	e.fail()
}

// hostGlobals are what snippets reach for when they want the host. They
// are not defined (typeof stays "undefined", as libraries feature-detect);
// using one is reported as a SECURITY_ERROR rather than a bare ReferenceError.
var hostGlobals = []string{
	"process", "require", "module", "exports", "__dirname", "__filename", "global", "Buffer",
	"XMLHttpRequest", "WebSocket", "EventSource", "navigator", "window", "document",
	"localStorage", "sessionStorage", "indexedDB", "importScripts", "Deno", "Bun",
	"setImmediate", "clearImmediate", "Worker", "SharedArrayBuffer", "WebAssembly",
}

// securityError turns "ReferenceError: process is not defined" into a
// SECURITY_ERROR that says the capability is not available.
func securityError(er *pipe.Error) {
	name, ok := strings.CutPrefix(er.Message, "ReferenceError: ")
	if !ok {
		return
	}
	name, ok = strings.CutSuffix(name, " is not defined")
	name = strings.TrimPrefix(name, bundle.AliasPrefix)
	if !ok || !slices.Contains(hostGlobals, name) {
		return
	}
	er.Kind = pipe.KindSecurity
	er.Message = fmt.Sprintf("%s is not available in the playground: snippets get ECMAScript built-ins, console, timers and the \"playground\" module, nothing of the host (ReferenceError: %s is not defined)", name, name)
	if i := strings.IndexByte(er.Stack, '\n'); i >= 0 {
		er.Stack = er.Message + er.Stack[i:]
	}
}

// securityThrown makes er a SECURITY_ERROR when v is an error the runtime
// threw as one (throwSecurity).
func (e *Runtime) securityThrown(er *pipe.Error, v goja.Value) {
	if o, ok := v.(*goja.Object); ok && e.security[o] {
		er.Kind = pipe.KindSecurity
	}
}

// thrownError describes a thrown value as "Name: message" (an error's
// first line as Node prints it: errorHead) without running snippet code:
// an error's message getter, which Node's report reads, has run before
// (readMessages).
func (e *Runtime) thrownError(v goja.Value) *pipe.Error {
	msg := inspect.Render(e.enc.EncodeBudget(v, maxThrownPreview), true)
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		text, got := e.enc.Message(o) // its message getter's (readMessages)
		if !got {
			text = e.enc.DataString(o, "message")
		}
		msg = inspect.ErrorHead(e.enc.ErrorName(o), e.enc.Capped(text), e.enc.ConstructorName(o))
		if reToPrimitive.MatchString(msg) {
			msg = v8ToPrimitive // thrown inside a built-in too: never goja's Go struct
		}
	}
	return &pipe.Error{Kind: pipe.KindRuntime, Message: msg}
}

// frame is one user frame of a stack, in the user's original file.
type frame struct {
	fn           string
	file         string
	line, column int
	// v8 is set for a frame read from V8's layout (v8StackText wrote it
	// for a snippet to read): its column is the user's already.
	v8 bool
}

// userFrames keeps the frames that map into the snippet's files; bundle
// helpers, the runtime module and native frames are dropped.
func userFrames(stack []goja.StackFrame) []frame {
	var out []frame
	for _, f := range stack {
		p := f.Position()
		file, ok := strings.CutPrefix(p.Filename, bundle.FileNamespace+":")
		if !ok {
			continue
		}
		fn := f.FuncName()
		if strings.HasPrefix(fn, bundle.FileNamespace+":") {
			fn = "" // module code
		}
		out = append(out, frame{fn: fn, file: file, line: p.Line, column: p.Column + 1})
	}
	return out
}

// maxThrownPreview is the byte budget of the preview of a thrown value that
// is not an Error (throw new Map(...)): the error message is one line.
const maxThrownPreview = 16 << 10

// maxStackText is how much of a stack's text is parsed: a snippet may set
// err.stack to 100 MB; the frames a report shows fit in far less.
const maxStackText = 64 << 10

func capStack(s string) string {
	if len(s) <= maxStackText {
		return s
	}
	return s[:maxStackText]
}

// parseStack reads goja's stack text ("at fn (file:line:col(pc))") back into
// frames, for errors that reach us as values.
func parseStack(s string) []frame {
	if !strings.Contains(s, bundle.FileNamespace+":") && strings.Contains(s, "\n    at ") {
		return parseV8Stack(s)
	}
	var out []frame
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "at ")
		if !ok {
			continue
		}
		fn := ""
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			fn, rest = rest[:i], rest[i+2:len(rest)-1]
			if strings.HasPrefix(fn, bundle.FileNamespace+":") {
				fn = ""
			}
		}
		rest, ok = strings.CutPrefix(rest, bundle.FileNamespace+":")
		if !ok {
			continue
		}
		if i := strings.LastIndexByte(rest, '('); i >= 0 {
			rest = rest[:i]
		}
		parts := strings.Split(rest, ":")
		if len(parts) < 3 {
			continue
		}
		ln, err1 := strconv.Atoi(parts[len(parts)-2])
		col, err2 := strconv.Atoi(parts[len(parts)-1])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, frame{fn: fn, file: strings.Join(parts[:len(parts)-2], ":"), line: ln, column: col + 1})
	}
	return out
}

// firstFrameIsUser reports whether the first frame of goja's stack text
// is in the snippet's files (not a built-in's, "at map (native)").
func firstFrameIsUser(stack string) bool {
	for _, line := range strings.Split(stack, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "at "); ok {
			return strings.Contains(rest, bundle.FileNamespace+":")
		}
	}
	return false
}

// maxStackFrames caps the frames a reported stack shows (deep recursion
// has thousands).
const maxStackFrames = 30

func formatStack(msg string, frames []frame) string {
	var b strings.Builder
	b.WriteString(msg)
	for i, f := range frames {
		if i == maxStackFrames {
			fmt.Fprintf(&b, "\n    ... %d more frames", len(frames)-i)
			break
		}
		if f.fn != "" && f.fn != anonymousFrame { // V8 names no anonymous function
			fmt.Fprintf(&b, "\n    at %s (%s:%d:%d)", f.fn, f.file, f.line, f.column)
		} else {
			fmt.Fprintf(&b, "\n    at %s:%d:%d", f.file, f.line, f.column)
		}
	}
	return b.String()
}

// position is a place in the user's files as goja counts it (through the
// bundle's source map; a frame's column is one more: frame.position). A
// bundle offset maps to the nearest token at or before it.
type position struct {
	file         string
	line, column int
}

// span is a stretch of one line of the user's files, from and to
// inclusive.
type span struct{ from, to position }

// holds reports whether p is in s, give or take a column: goja's frame of
// a call points between its callee and the place after its "(", where
// exactly depending on the source map's mappings there.
func (s span) holds(p position) bool {
	return p.file == s.from.file && p.line == s.from.line && s.from.line == s.to.line &&
		p.column >= s.from.column-1 && p.column <= s.to.column+1
}

// positionOf is where offset idx of tree is in the user's files.
func positionOf(tree *ast.Program, idx file.Idx) position {
	p := tree.File.Position(int(idx))
	f, _ := strings.CutPrefix(p.Filename, bundle.FileNamespace+":")
	return position{file: f, line: p.Line, column: p.Column}
}

// position is where f is, in goja's columns.
func (f frame) position() position {
	return position{file: f.file, line: f.line, column: f.column - 1}
}

// before reports whether p comes before q in the same file, or is q.
func (p position) before(q position) bool {
	return p.file == q.file && (p.line < q.line || p.line == q.line && p.column <= q.column)
}

// spans reports whether n's tokens, from its first to its last, hold at.
func spans(tree *ast.Program, n ast.Node, at position) bool {
	return positionOf(tree, n.Idx0()).before(at) && at.before(positionOf(tree, n.Idx1()))
}

// userStack is the error o's frames as the user reads them: script mode's
// entry columns fixed (fixFrames), its classes' constructors left out
// (constructorFrames).
func (e *Runtime) userStack(o *goja.Object, frames []frame) []frame {
	return e.constructorFrames(o, e.fixFrames(frames))
}

// constructorFrames drops the leading frames of the error o's stack that
// are its classes' constructors calling super(…). V8 leaves them out
// (Error's constructor captures the stack above new.target's frame), so
// Node reports `throw new HttpError(404)` where it is thrown; goja keeps
// them, and the error pointed at super(msg) inside the class. goja names
// no constructor frame, so they are found by position: a frame exactly at
// one of the program's super calls (Compile), for an error of a class of
// the snippet's (a built-in error thrown while super's arguments are
// evaluated, or by a built-in parent such as URL, keeps its frame). At
// least one frame is kept.
//
// Parity patch. Patch for: goja's stack of an error of a class keeps the
// frames of its constructors' super(…) calls. Upstream: no upstream issue
// found as of 2026-11.
func (e *Runtime) constructorFrames(o *goja.Object, frames []frame) []frame {
	s := summaryOf(e.program)
	if s == nil || len(s.supers) == 0 || o == nil || o.ClassName() != "Error" {
		return frames
	}
	if c := e.enc.ConstructorName(o); c == "" || c == "DOMException" || inspect.IsErrorClass(c) {
		return frames
	}
	for len(frames) > 1 && slices.ContainsFunc(s.supers, func(sp span) bool { return e.fixSpan(sp).holds(frames[0].position()) }) {
		frames = frames[1:]
	}
	return frames
}

// installCaptureStackTrace defines V8's Error.captureStackTrace(target[,
// constructorOpt]) and Error.stackTraceLimit (10), which Node has: code
// written for Node builds its error classes with them, and without them a
// custom error's constructor threw a TypeError in its place (issue 9). The
// property attributes are V8's (captureStackTrace writable, configurable,
// not enumerable; stackTraceLimit all three).
//
// Parity patch (kept in the core: it writes the run's stack layout). Patch
// for: goja has no Error.captureStackTrace (a V8 API that Node libraries
// call). Upstream: no upstream issue found as of 2026-11.
func (e *Runtime) installCaptureStackTrace() {
	ctor := e.vm.Get("Error").ToObject(e.vm)
	e.replace(ctor, "captureStackTrace", 2, func(c goja.FunctionCall) goja.Value {
		e.captureStackTrace(ctor, c.Argument(0), c.Argument(1))
		return goja.Undefined()
	})
	must(ctor.DefineDataProperty("stackTraceLimit", e.vm.ToValue(10), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
}

// captureStackTrace gives target a "stack" data property (writable,
// configurable, not enumerable), as V8 does: a first line from target's
// name and message (ErrorUtils::ToString: "Error" for an object with
// neither; their getters run, as in V8), then the calling frames in
// goja's format, as an error's own stack, which previews and error events
// map to the user's files (no line end after the last, as V8). Frames up
// to and including the latest call of
// constructorOpt are left out, and all of them when it is not on the stack
// (V8's rule); goja's frames name functions only, so it is found by name
// (esbuild's renamed copies, _AppError or AppError2, count), or, when the
// caller is a class constructor (goja names none), as that caller. At most
// Error.stackTraceLimit frames; when it is not a number, stack is
// undefined (V8). A Proxy target is V8's "invalid_argument" TypeError.
func (e *Runtime) captureStackTrace(ctor *goja.Object, target, constructorOpt goja.Value) {
	o, ok := target.(*goja.Object)
	if !ok || o.ExportType() == proxyType {
		e.throw("TypeError", "invalid_argument") // V8's message
	}
	frames := e.vm.CaptureCallStack(0, nil)
	if len(frames) > 0 {
		frames = frames[1:] // captureStackTrace's own
	}
	if fn, ok := constructorOpt.(*goja.Object); ok {
		if _, callable := goja.AssertFunction(fn); callable {
			name := ""
			if v, ok := e.enc.OwnData(fn, "name"); ok {
				name = v.String()
			}
			i := slices.IndexFunc(frames, func(f goja.StackFrame) bool { return sameFunction(f.FuncName(), name) })
			if i < 0 && len(frames) > 0 && frames[0].FuncName() == anonymousFrame {
				// goja leaves a class constructor's frame unnamed: called
				// from one, as in the usual captureStackTrace(this, Class),
				// the caller is the frame to leave out.
				i = 0
			}
			if i < 0 {
				frames = nil // not on the stack
			} else {
				frames = frames[i+1:]
			}
		}
	}
	var stack goja.Value = goja.Undefined() // a stackTraceLimit that is not a number: V8 captures none
	if v, ok := e.enc.OwnData(ctor, "stackTraceLimit"); ok && intrinsic.IsNumber(v) {
		limit := 0
		if f := v.ToFloat(); f > 0 {
			limit = int(min(f, 1<<20))
		}
		var b bytes.Buffer
		b.WriteString(errorHeader(o))
		for _, f := range frames[:min(len(frames), limit)] {
			b.WriteString("\n\tat ")
			f.Write(&b)
		}
		stack = e.vm.ToValue(b.String())
	}
	if err := o.DefineDataProperty("stack", stack, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		e.throw("TypeError", "Cannot define property stack, object is not extensible")
	}
}

// errorHeader is V8's ErrorUtils::ToString of o: name (default "Error")
// and message (default ""), joined by ": " when both are set.
func errorHeader(o *goja.Object) string {
	name, msg := "Error", ""
	if v := o.Get("name"); v != nil && !goja.IsUndefined(v) {
		name = v.String()
	}
	if v := o.Get("message"); v != nil && !goja.IsUndefined(v) {
		msg = v.String()
	}
	switch {
	case name == "":
		return msg
	case msg == "":
		return name
	}
	return name + ": " + msg
}

// anonymousFrame is goja's StackFrame.FuncName of a function without a
// name (a class constructor's among them).
const anonymousFrame = "<anonymous>"

// sameFunction reports whether a frame's function name is name, also as
// esbuild renames a binding it must keep apart (a leading underscore, a
// number at the end).
func sameFunction(frame, name string) bool {
	if name == "" {
		return false
	}
	return frame == name || strings.TrimRight(strings.TrimLeft(frame, "_"), "0123456789") == name
}

// v8StackLimit is V8's default Error.stackTraceLimit: the frames an
// error's stack text holds.
const v8StackLimit = 10

// v8StackText rewrites s, when it is an error's stack as goja writes it
// (a first line from the name and message, then "\tat fn (file:line:col(pc))"
// lines with bundle positions), into V8's layout at the user's positions,
// as console.log(err.stack) prints in Node: "    at fn (main.ts:3:9)",
// a built-in's frame "    at map (<anonymous>)", at most v8StackLimit
// frames (Error.stackTraceLimit when a snippet set it), a TypeError
// thrown by the snippet's own code in V8's words
// (v8Message). ok is false for any other string, returned as it is. goja
// formats an error's stack itself (there is no hook): the console rewrites
// what it prints, and an error a snippet's catch clause catches gets this
// text as its stack (v8StackOf), and so does an error whose stack or
// message the snippet's code reads anywhere (errorRead).
func (e *Runtime) v8StackText(s string) (string, bool) { return e.v8StackTextOf(nil, s) }

// v8StackTextOf is v8StackText of the error o's stack s: the frames of o's
// classes' constructors calling super(…) are left out as V8 leaves them
// (constructorFrames); o nil keeps every frame.
func (e *Runtime) v8StackTextOf(o *goja.Object, s string) (_ string, ok bool) {
	i := strings.Index(s, "\n\tat ")
	if i < 0 || !strings.Contains(s[i:], bundle.FileNamespace+":") {
		return s, false
	}
	head := s[:i]
	var b strings.Builder
	frames, limit := 0, e.stackTraceLimit()
	var natives []string // built-ins' frames since the last user frame: dropped at the end (the runtime's call of the bundle)
	leading := o != nil  // before the first frame that is not a constructor's
	for n, line := range strings.Split(strings.TrimSuffix(s[i+1:], "\n"), "\n") {
		at, ok := strings.CutPrefix(line, "\tat ")
		if !ok {
			return s, false // text after the frames: not a stack as goja writes it
		}
		f := e.fixFrames(parseStack(line)) // the user's frame, none for a built-in's
		if leading && len(f) == 1 && len(e.constructorFrames(o, []frame{f[0], {}})) == 1 {
			continue // a constructor's super(…) call: not in V8's stack
		}
		leading = false
		if n == 0 && len(f) == 1 {
			head = e.v8Message(head, f[0])
		}
		switch fn, native := strings.CutSuffix(at, " (native)"); {
		case native:
			natives = append(natives, "\n    at "+fn+" (<anonymous>)")
		case len(f) == 1:
			for _, nf := range natives {
				if frames < limit {
					b.WriteString(nf)
					frames++
				}
			}
			natives = natives[:0]
			if n > 0 || strings.HasSuffix(head, " is not a function") || strings.HasSuffix(head, " is not a constructor") {
				f[0] = e.v8CallFrame(f[0]) // a call's frame, or the call that failed
			}
			if frames < limit {
				b.WriteString(formatStack("", f))
				frames++
			}
		}
	}
	return head + b.String(), true
}
