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

// gojaWorded reports whether msg ("TypeError: …") is one of goja's that
// v8Message rewords.
func gojaWorded(msg string) bool {
	if !mayBeGojaWorded(strings.TrimPrefix(msg, "TypeError: ")) {
		return false // most messages: no regexp runs
	}
	return reReadProperty.MatchString(msg) || reNotCallable.MatchString(msg) || reToPrimitive.MatchString(msg)
}

// mayBeGojaWorded reports whether the message text msg starts as one of
// gojaWorded's may (a cheap test before the regexps).
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
	if tree == nil {
		return msg
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
	var exact, inner ast.Node
	walkAST(tree, func(n any) bool {
		var node ast.Node
		var lp file.Idx
		switch x := n.(type) {
		case *ast.CallExpression:
			node, lp = x, x.LeftParenthesis
		case *ast.NewExpression:
			node, lp = x, x.LeftParenthesis
		default:
			return true
		}
		if exact == nil && positionOf(tree, lp) == at {
			exact = node
		}
		if spans(tree, node, at) && (inner == nil || node.Idx1()-node.Idx0() <= inner.Idx1()-inner.Idx0()) {
			inner = node
		}
		return true
	})
	best := exact
	if best == nil {
		best = inner
	}
	var callee ast.Expression
	var args []ast.Expression
	switch x := best.(type) {
	case *ast.CallExpression:
		callee, args = x.Callee, x.ArgumentList
	case *ast.NewExpression:
		callee, args = x.Callee, x.ArgumentList
	default:
		return msg
	}
	if id, ok := callee.(*ast.Identifier); ok && errorClasses[id.Name.String()] {
		return msg // the snippet made this error itself: new TypeError("…")
	}
	if hasInOrInstanceof(args) {
		return msg // goja places a failed `in` or `instanceof` at the call around it
	}
	if m := reNoMember.FindStringSubmatch(msg); m != nil && memberName(callee) != m[1] {
		return msg
	}
	if _, isNew := best.(*ast.NewExpression); isNew {
		return "TypeError: " + calleeText(callee) + " is not a constructor"
	}
	if strings.HasSuffix(msg, "Not a constructor") {
		return msg
	}
	return "TypeError: " + calleeText(callee) + " is not a function"
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

// parsedProgram is a run's program parsed, ast nil when it could not be.
type parsedProgram struct{ ast *ast.Program }

// errorSite reports whether n makes a TypeError by its name (new
// TypeError(…), TypeError(…)), and where its frame says it was made: a
// new expression's at "new", a call's at its "(". Compile keeps them
// (summary.errorSites). Only TypeErrors are reworded, and an error of
// another class (or a subclass) never has TypeError.prototype.
func errorSite(tree *ast.Program, n any) (position, bool) {
	var callee ast.Expression
	var at file.Idx
	switch x := n.(type) {
	case *ast.NewExpression:
		callee, at = x.Callee, x.New
	case *ast.CallExpression:
		callee, at = x.Callee, x.LeftParenthesis
	default:
		return position{}, false
	}
	if id, ok := callee.(*ast.Identifier); !ok || id.Name != "TypeError" {
		return position{}, false
	}
	return positionOf(tree, at), true
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
	if e.typeErrorProto == nil {
		e.typeErrorProto = e.vm.NewTypeError("").Prototype()
	}
	if o.Prototype() != e.typeErrorProto { // an ordinary object's: no trap runs
		return goja.Undefined()
	}
	// goja's own message is a data property, read through Get (cheaper
	// than a descriptor: a loop may catch one per iteration); a getter a
	// snippet put there runs, and what it throws is dropped.
	var v goja.Value
	if ex := e.vm.Try(func() { v = o.Get("message") }); ex != nil || v == nil || !goja.IsString(v) || !mayBeGojaWorded(v.String()) {
		return goja.Undefined()
	}
	old := "TypeError: " + v.String()
	text := v.String()
	positionFree := strings.HasPrefix(text, "Cannot read property '") || strings.HasPrefix(text, "Could not convert ")
	if s := summaryOf(e.program); positionFree && (s == nil || len(s.errorSites) == 0) {
		// Worded from the message alone, and the program makes no error
		// of its own that could carry it: its stack, not formatted yet
		// (goja formats it on first read, from the message set here), is
		// not needed, and the wording is kept for the next one.
		reworded, ok := e.reworded[old]
		if !ok {
			reworded = strings.TrimPrefix(e.v8Message(old, frame{}), "TypeError: ")
			if e.reworded == nil {
				e.reworded = map[string]string{}
			}
			if len(e.reworded) < maxReworded {
				e.reworded[old] = reworded
			}
		}
		if reworded != text {
			_ = o.DefineDataProperty("message", e.vm.ToValue(reworded), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
		return goja.Undefined()
	}
	if !gojaWorded(old) {
		return goja.Undefined()
	}
	// The stack, formatted now if it was not yet (the name and message are
	// the intrinsic's and a string: no snippet code runs), says where.
	stack := e.enc.stackString(o)
	reworded := old
	if frames := e.userStack(o, parseStack(capStack(stack))); len(frames) > 0 && firstFrameIsUser(stack) {
		reworded = e.v8Message(old, frames[0])
	} else if !reNotCallable.MatchString(old) {
		reworded = e.v8Message(old, frame{}) // worded from the message alone
	}
	if reworded == old {
		return goja.Undefined()
	}
	// As goja defines both: writable, not enumerable, configurable.
	_ = o.DefineDataProperty("message", e.vm.ToValue(strings.TrimPrefix(reworded, "TypeError: ")), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	if rest, ok := strings.CutPrefix(stack, old); ok {
		_ = o.DefineDataProperty("stack", e.vm.ToValue(reworded+rest), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return goja.Undefined()
}
