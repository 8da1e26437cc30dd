package js

import (
	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// An error's stack as a snippet reads it: V8's layout at the user's
// positions ("    at fn (main.ts:3:9)", v8StackText), not goja's text
// ("\tat fn (file-mem:main.ts:3:8(12))"). goja formats an error's stack
// itself on its first read and offers no hook, so the runtime gives V8's
// text where a snippet's catch clause gets hold of an error (caught,
// v8StackOf). The runtime's own reports read either layout (parseStack).

// v8StackOf makes the stack of the caught error o read as V8's: goja's
// text, which goja formats now if it has not, rewritten (v8StackText) and
// kept as the data property V8 has (writable, not enumerable,
// configurable; an accessor would show in the error's console preview).
// An error whose stack is not goja's text with frames in the snippet's
// files (one the snippet set, or rewritten already) is left as it is.
// caught calls it only in a program that spells "stack" (or may reach
// any name): the cost is paid where an error is caught by code that may
// read its stack, never where one is made.
func (e *Runtime) v8StackOf(o *goja.Object) {
	// Read as the snippet would read it (in a catch clause, snippet code
	// runs anyway): goja formats the stack from the name and message
	// through their getters; what they throw is dropped.
	var v goja.Value
	if ex := e.vm.Try(func() { v = o.Get("stack") }); ex != nil || v == nil || !goja.IsString(v) {
		return
	}
	raw := v.String()
	if !strings.Contains(raw, "\n\tat ") || !strings.Contains(raw, bundle.FileNamespace+":") {
		return
	}
	if text, ok := e.v8StackTextOf(o, raw); ok {
		// V8's attributes: writable, configurable, not enumerable.
		_ = o.DefineDataProperty("stack", e.vm.ToValue(text), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// parseV8Stack reads the frames of a stack in V8's layout that
// v8StackText wrote ("    at fn (main.ts:3:9)", "    at main.ts:3:9"),
// their columns the user's; a built-in's ("    at map (<anonymous>)")
// has no position and is left out.
func parseV8Stack(s string) []frame {
	var out []frame
	for _, line := range strings.Split(s, "\n") {
		rest, ok := strings.CutPrefix(line, "    at ")
		if !ok {
			continue
		}
		fn := ""
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			fn, rest = rest[:i], rest[i+2:len(rest)-1]
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
		out = append(out, frame{fn: fn, file: strings.Join(parts[:len(parts)-2], ":"), line: ln, column: col, v8: true})
	}
	return out
}

// stackTraceLimit is how many frames V8's layout of a stack holds:
// the intrinsic Error's stackTraceLimit when it is a number, else V8's
// default.
func (e *Runtime) stackTraceLimit() int {
	if e.typeErrorProto == nil {
		e.typeErrorProto = e.vm.NewTypeError("").Prototype()
	}
	errorProto := e.typeErrorProto.Prototype()
	if errorProto == nil {
		return v8StackLimit
	}
	limit := v8StackLimit
	_ = e.vm.Try(func() { // a getter a snippet put there runs, as in V8; what it throws is dropped
		c, ok := errorProto.Get("constructor").(*goja.Object)
		if !ok {
			return
		}
		if v := c.Get("stackTraceLimit"); v != nil && intrinsic.IsNumber(v) {
			limit = int(max(0, min(v.ToFloat(), 1<<20)))
		}
	})
	return limit
}

// callSpan is a call of the snippet's source: its "(" and the place
// after it, between which goja's frame of the call points (where exactly
// depends on the source map's mappings there), and where V8's points.
type callSpan struct {
	paren, goja, v8 position
}

// v8CallFrame places f, the frame of a call (any user frame but a stack's
// first), where V8 does: at the callee, at its property for a method call
// (o.m(): m), at "new" for a construction. A frame that is no call of
// the snippet's source is returned as it is.
func (e *Runtime) v8CallFrame(f frame) frame {
	tree := e.programTree()
	if tree == nil || f.v8 {
		return f
	}
	if !e.tree.listed {
		e.tree.listed = true
		walkAST(tree, func(n any) bool {
			var callee ast.Expression
			var lp, at file.Idx
			switch x := n.(type) {
			case *ast.CallExpression:
				callee, lp = x.Callee, x.LeftParenthesis
			case *ast.NewExpression:
				callee, lp, at = x.Callee, x.LeftParenthesis, x.New
			default:
				return true
			}
			if lp == 0 || !inUserFile(tree, lp) || bundlerHelper(callee) {
				return true
			}
			if at == 0 {
				at = callee.Idx0()
				if d, ok := callee.(*ast.DotExpression); ok {
					at = d.Identifier.Idx
				}
			}
			// positionOf(i) is the place of the character after i (goja's
			// Idx counts from 1): i-1 is the callee's own.
			e.tree.calls = append(e.tree.calls, callSpan{paren: positionOf(tree, lp-1), goja: positionOf(tree, lp), v8: positionOf(tree, at-1)})
			return true
		})
	}
	p := f.position()
	shift := 0
	if e.script && f.file == e.entry && f.line == 1 {
		shift = len(bundle.ScriptPrefix) // the program's columns (fixFrames)
		p.column += shift
	}
	var best *callSpan
	for i := range e.tree.calls {
		if c := &e.tree.calls[i]; c.paren.before(p) && p.before(c.goja) && c.goja.line == p.line && c.v8.file == f.file {
			best = c // the walk visits outer calls first: the last is the innermost
		}
	}
	if best == nil {
		return f
	}
	f.line, f.column = best.v8.line, best.v8.column+1
	if f.line == 1 && shift > 0 && f.column > shift {
		f.column -= shift
	}
	return f
}
