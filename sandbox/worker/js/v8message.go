package js

import (
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"

	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// V8's wording of the TypeErrors snippets meet most, for the uncaught
// error a run reports (its event and stack): goja words them its own way,
// and for a call of something that is not a function names nothing ("Value
// is not an object: undefined" where Node says "g is not a function").
// The callee is printed from the program's source at the error's position
// as V8's CallPrinter prints it ("f.go", "a(...).b", "(intermediate
// value)"). A snippet that catches the error reads goja's message.
//
// Parity patch (kept in the core: it reads the run's parsed program and
// its caught errors). Patch for: goja's TypeError wordings ("Value is not
// an object: undefined") name no callee. Upstream: no upstream issue found
// as of 2026-11.

var (
	// Cannot read property 'c' of undefined
	reReadProperty = regexp.MustCompile(`^TypeError: Cannot read property '(.*)' of (undefined or null|undefined|null)$`)
	// a call or construction of a value that is not a function
	reNotCallable = regexp.MustCompile(`^TypeError: (Value is not an object: .*|Object has no member '.*'|Not a constructor|Value is not a constructor)$`)
	// an object with neither a usable toString nor valueOf: goja's message
	// prints its Go struct, heap addresses included
	reToPrimitive = regexp.MustCompile(`(?s)^TypeError: Could not convert .* to primitive$`)
)

// v8ToPrimitive is V8's message for reToPrimitive's case.
const v8ToPrimitive = "TypeError: Cannot convert object to primitive value"

// mayBeGojaWorded reports whether the message text msg (after
// "TypeError: ") starts as one of those v8Message rewords may: a cheap
// test before its regexps.
func mayBeGojaWorded(msg string) bool {
	for _, p := range [...]string{"Cannot read property '", "Value is not an object: ", "Object has no member '", "Not a constructor", "Value is not a constructor", "Could not convert "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// v8Message returns msg ("TypeError: …") in V8's words when it is one of
// goja's for a read of a property of undefined or a call of a
// non-function, top being where it was thrown (the user's frame); msg
// otherwise.
func (e *Runtime) v8Message(msg string, top frame) string {
	if name, text, ok := strings.Cut(msg, ": "); ok && mayBeV8Worded(text) {
		if w, ok := e.v8Worded(name, text, "", top); ok {
			return name + ": " + w
		}
	}
	if reToPrimitive.MatchString(msg) {
		return v8ToPrimitive
	}
	read := reReadProperty.FindStringSubmatch(msg)
	if read == nil && !reNotCallable.MatchString(msg) {
		return msg
	}
	if s := summaryOf(e.program); top.file != "" && s != nil && s.errorSites[top.position()] {
		return msg // the snippet made this error itself: new TypeError("…")
	}
	if read != nil {
		return "TypeError: Cannot read properties of " + read[2] + " (reading '" + read[1] + "')"
	}
	tree := e.programTree()
	if top.file == "" || tree == nil {
		return msg // a call is named only from where the snippet's code threw
	}
	if e.script && top.file == e.entry && top.line == 1 {
		// Where the program has it: the frame's column was moved back past
		// the script's prefix (fixFrames).
		top.column += len(bundle.ScriptPrefix)
	}
	at := top.position()
	// The call that failed: the one whose "(" maps to the error's position
	// (m.get('k')() is the outer call, not m.get), else the innermost one
	// that spans it.
	var exact, inner *call
	walkAST(tree, func(n any) bool {
		c, ok := callOf(n)
		if !ok || bundlerHelper(c.callee) {
			return true
		}
		if exact == nil && positionOf(tree, c.lp) == at {
			exact = &c
		}
		if spans(tree, c.node, at) && (inner == nil || c.node.Idx1()-c.node.Idx0() <= inner.node.Idx1()-inner.node.Idx0()) {
			inner = &c
		}
		return true
	})
	best := exact
	if best == nil {
		best = inner
	}
	if best == nil {
		return msg
	}
	if hasInOrInstanceof(best.args) {
		return msg // goja places a failed `in` or `instanceof` at the call around it
	}
	if m := reNoMember.FindStringSubmatch(msg); m != nil && memberName(best.callee) != m[1] {
		return msg
	}
	if best.isNew {
		return "TypeError: " + calleeText(best.callee) + " is not a constructor"
	}
	if strings.HasSuffix(msg, "Not a constructor") {
		return msg
	}
	return "TypeError: " + calleeText(best.callee) + " is not a function"
}

// call is a call or a new expression, in the parts the V8 wording reads.
type call struct {
	node   ast.Node
	callee ast.Expression
	args   []ast.Expression
	lp     file.Idx // its "("
	new    file.Idx // a new expression's "new"
	isNew  bool
}

// callOf returns n as a call, false when n is neither a call nor a new
// expression.
func callOf(n any) (call, bool) {
	switch x := n.(type) {
	case *ast.CallExpression:
		return call{node: x, callee: x.Callee, args: x.ArgumentList, lp: x.LeftParenthesis}, true
	case *ast.NewExpression:
		return call{node: x, callee: x.Callee, args: x.ArgumentList, lp: x.LeftParenthesis, new: x.New, isNew: true}, true
	}
	return call{}, false
}

// bundlerHelper reports whether callee is one of esbuild's helpers
// (__name, which keepNames wraps functions in, __commonJS, __toESM…): a
// call the snippet did not write, never the one that failed.
func bundlerHelper(callee ast.Expression) bool {
	id, ok := callee.(*ast.Identifier)
	return ok && strings.HasPrefix(id.Name.String(), "__")
}

// programTree is the run's program parsed (once a run: a bundle with a
// library takes ≈125 ms), nil when it cannot be.
func (e *Runtime) programTree() *ast.Program {
	if e.tree == nil {
		e.tree = &parsedProgram{}
		if s := summaryOf(e.program); s != nil && s.code != "" {
			e.tree.ast, _ = goja.Parse("bundle.js", s.code, parser.WithSourceMapLoader(noSourceMapFiles))
		}
	}
	return e.tree.ast
}

// parsedProgram is a run's program parsed, ast nil when it could not be;
// calls are its calls in the snippet's files, listed the first time a
// stack's call frames are placed as V8 places them (v8CallFrame).
type parsedProgram struct {
	ast    *ast.Program
	calls  []callSpan
	listed bool
}

// errorSite reports whether n makes a TypeError by its name (new
// TypeError(…), TypeError(…)), and where its frame says it was made: a
// new expression's at "new", a call's at its "(". Compile keeps them
// (summary.errorSites). Only TypeErrors are reworded, and an error of
// another class (or a subclass) never has TypeError.prototype.
func errorSite(tree *ast.Program, n any) (position, bool) {
	c, ok := callOf(n)
	if id, named := c.callee.(*ast.Identifier); !ok || !named || id.Name != "TypeError" {
		return position{}, false
	}
	if c.isNew {
		return positionOf(tree, c.new), true
	}
	return positionOf(tree, c.lp), true
}

// reNoMember is goja's message for a call of a missing method.
var reNoMember = regexp.MustCompile(`^TypeError: Object has no member '(.*)'$`)

// memberName is the property a member callee reads ("go" of f.go or
// f["go"]), "" for any other callee.
func memberName(x ast.Expression) string {
	switch c := x.(type) {
	case *ast.DotExpression:
		return c.Identifier.Name.String()
	case *ast.BracketExpression:
		if k, ok := c.Member.(*ast.StringLiteral); ok {
			return k.Value.String()
		}
	}
	return ""
}

// hasInOrInstanceof reports whether args hold an `in` or `instanceof`
// outside a nested function.
func hasInOrInstanceof(args []ast.Expression) bool {
	found := false
	for _, a := range args {
		walkNode(a, func(n any) bool {
			switch x := n.(type) {
			case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
				return false
			case *ast.BinaryExpression:
				if x.Operator == token.IN || x.Operator == token.INSTANCEOF {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// calleeText prints a callee as V8's CallPrinter does: names and members
// as written ("o.k" for o["k"], "a[i]", "o?.b"), a call's result as
// "f(...)", anything else as "(intermediate value)".
func calleeText(x ast.Expression) string {
	switch c := x.(type) {
	case *ast.Identifier:
		return c.Name.String()
	case *ast.ThisExpression:
		return "this"
	case *ast.DotExpression:
		return objectText(c.Left) + "." + c.Identifier.Name.String()
	case *ast.PrivateDotExpression:
		return objectText(c.Left) + ".#" + c.Identifier.Name.String()
	case *ast.BracketExpression:
		switch k := c.Member.(type) {
		case *ast.StringLiteral:
			return objectText(c.Left) + "." + k.Value.String()
		case *ast.NumberLiteral:
			return bracketText(c.Left) + "[" + k.Literal + "]"
		case *ast.Identifier:
			return bracketText(c.Left) + "[" + k.Name.String() + "]"
		}
		return bracketText(c.Left) + "[(intermediate value)]"
	case *ast.CallExpression:
		return calleeText(c.Callee) + "(...)"
	case *ast.UnaryExpression:
		if c.Operator.String() == "void" {
			return "(void " + calleeText(c.Operand) + ")"
		}
	case *ast.NumberLiteral:
		return c.Literal
	case *ast.OptionalChain:
		return calleeText(c.Expression)
	}
	return "(intermediate value)"
}

// objectText is the object of a member before its dot: "o?" when the
// access is optional (o?.b prints "o?.b").
func objectText(x ast.Expression) string {
	if o, ok := x.(*ast.Optional); ok {
		return calleeText(o.Expression) + "?"
	}
	return calleeText(x)
}

// bracketText is the object of a computed member before its bracket:
// "o?." when optional (o?.[i]).
func bracketText(x ast.Expression) string {
	if o, ok := x.(*ast.Optional); ok {
		return calleeText(o.Expression) + "?."
	}
	return calleeText(x)
}

// maxReworded bounds caught's wordings kept per run (one per message
// text: a property name each).
const maxReworded = 1024

// caught is the runtime object's FieldCaught: Compile makes each catch
// clause of the snippet's files with a named binding call it first
// (callCaught), so that a TypeError goja threw for a property read of
// undefined or a call of a non-function reads in V8's words where the
// snippet catches it, as in Node: its message and its stack's first line
// (v8Message; a call is named only when the snippet's own code threw it).
// Any other value, an error the snippet made, or one already reworded, is
// left as it is. It never throws.
func (e *Runtime) caught(c goja.FunctionCall) goja.Value {
	o, ok := c.Argument(0).(*goja.Object)
	if !ok || o.ExportType() == proxyType || o.ClassName() != "Error" {
		return goja.Undefined()
	}
	if name := e.nativeErrorName(o); name != "" { // an ordinary object's prototype: no trap runs
		e.rewordCaught(o, name)
	}
	if summaryOf(e.program).spells("stack") {
		e.v8StackOf(o)
	}
	return goja.Undefined()
}

// errorRead is the runtime object's FieldErrorRead: Compile makes each
// `.stack` and `.message` read of the snippet's files call it on the
// object read (readsError). An error gets what caught gives it; it returns
// its argument.
func (e *Runtime) errorRead(c goja.FunctionCall) goja.Value {
	e.caught(c)
	return c.Argument(0)
}

// rewordCaught gives the caught error o of the ECMAScript class name V8's
// message (v8Message, v8Worded), its stack's first line too.
func (e *Runtime) rewordCaught(o *goja.Object, name string) {
	// goja's own message is a data property, read through Get (cheaper
	// than a descriptor: a loop may catch one per iteration); a getter a
	// snippet put there runs, and what it throws is dropped.
	var v goja.Value
	if ex := e.vm.Try(func() { v = o.Get("message") }); ex != nil || v == nil || !goja.IsString(v) {
		return
	}
	text := v.String()
	old := name + ": " + text
	if name != "TypeError" || !mayBeGojaWorded(text) {
		if !mayBeV8Worded(text) {
			return
		}
		stack := e.enc.StackString(o)
		var top frame
		if frames := e.userStack(o, parseStack(capStack(stack))); len(frames) > 0 && firstFrameIsUser(stack) {
			top = frames[0]
		}
		if w, ok := e.v8Worded(name, text, nativeFrame(stack), top); ok {
			e.setWords(o, old, name+": "+w, stack)
		}
		return
	}
	positionFree := strings.HasPrefix(text, "Cannot read property '") || strings.HasPrefix(text, "Could not convert ")
	var stack, reworded string
	if s := summaryOf(e.program); positionFree && (s == nil || len(s.errorSites) == 0) {
		// Worded from the message alone, and the program makes no error of
		// its own that could carry it: the stack is not needed (goja
		// formats it on its first read, from the message set here), and
		// the wording is kept for the next one.
		reworded = e.wordingOf(old)
	} else {
		// The stack, formatted now (the name and message are the
		// intrinsic's and a string: no snippet code runs), says where.
		stack = e.enc.StackString(o)
		if stack != "" && !strings.Contains(stack, "\n\tat ") {
			// Not goja's layout: already given V8's (v8StackOf, after its
			// message was reworded or kept), or the snippet's own stack.
			return
		}
		var top frame
		if frames := e.userStack(o, parseStack(capStack(stack))); len(frames) > 0 && firstFrameIsUser(stack) {
			top = frames[0]
		}
		reworded = e.v8Message(old, top)
	}
	if reworded != old {
		e.setWords(o, old, reworded, stack)
	}
}

// setWords sets the message of the error o from old to reworded ("Name:
// message" both), and its stack's first line when stack (goja's, "" when
// not formatted yet) starts with old.
func (e *Runtime) setWords(o *goja.Object, old, reworded, stack string) {
	name, _, _ := strings.Cut(old, ": ")
	// As goja defines both: writable, not enumerable, configurable.
	_ = o.DefineDataProperty("message", e.vm.ToValue(strings.TrimPrefix(reworded, name+": ")), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	if rest, ok := strings.CutPrefix(stack, old); ok && stack != "" {
		_ = o.DefineDataProperty("stack", e.vm.ToValue(reworded+rest), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// wordingOf is v8Message(msg) for a message worded without a position,
// kept per run for the next error of the same text (maxReworded of them).
func (e *Runtime) wordingOf(msg string) string {
	if w, ok := e.reworded[msg]; ok {
		return w
	}
	w := e.v8Message(msg, frame{})
	if e.reworded == nil {
		e.reworded = map[string]string{}
	}
	if len(e.reworded) < maxReworded {
		e.reworded[msg] = w
	}
	return w
}
