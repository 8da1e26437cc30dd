package js

import (
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"

	"github.com/playground-dev/playground/sandbox/worker/bundle"
)

// V8's words for the messages of the errors goja's engine and built-ins
// throw, beyond the TypeErrors v8Message rewords by position: a snippet
// that reads e.message, String(e) or e.stack, or a caller that parses the
// run's error, sees Node's text ("Reduce of empty array with no initial
// value", not goja's "No initial value"). testdata/errors/cases.js holds
// the situations, recorded from Node 20 (TestErrorMessagesAsNode).
//
// Parity patch. Patch for: goja's messages are its own, not V8's.
// Upstream: no upstream issue found as of 2026-11.

// v8Word is one rewording: an error of class name whose goja message
// matches re; the built-in whose frame is the stack's first (native, ""
// for any) tells messages apart that goja shares (matchAll and
// replaceAll). to is the V8 message, with re's submatches ($1).
type v8Word struct {
	name, native string
	re           *regexp.Regexp
	to           string
}

var v8Words = []v8Word{
	{"TypeError", "", regexp.MustCompile(`^No initial value$`), "Reduce of empty array with no initial value"},
	{"TypeError", "matchAll", regexp.MustCompile(`^RegExp doesn't have global flag set$`), "String.prototype.matchAll called with a non-global RegExp argument"},
	{"TypeError", "replaceAll", regexp.MustCompile(`^RegExp doesn't have global flag set$`), "String.prototype.replaceAll called with a non-global RegExp argument"},
	{"TypeError", "", regexp.MustCompile(`^Expecting a function in instanceof check, but got .*$`), "Right-hand side of 'instanceof' is not callable"},
	{"TypeError", "setPrototypeOf", regexp.MustCompile(`^Value is not object coercible$`), "Object.setPrototypeOf called on null or undefined"},
	{"RangeError", "", regexp.MustCompile(`^toFixed\(\) precision must be between 0 and 100$`), "toFixed() digits argument must be between 0 and 100"},
	{"RangeError", "", regexp.MustCompile(`^toExponential\(\) precision must be between 0 and 100$`), "toExponential() argument must be between 0 and 100"},
	{"RangeError", "", regexp.MustCompile(`^toPrecision\(\) precision must be between 1 and 100$`), "toPrecision() argument must be between 1 and 100"},
	{"RangeError", "", regexp.MustCompile(`^Cannot convert (.+) to a BigInt$`), "The number $1 cannot be converted to a BigInt because it is not an integer"},
	{"RangeError", "", regexp.MustCompile(`^The normalization form should be one of NFC, NFD, NFKC, NFKD$`), "The normalization form should be one of NFC, NFD, NFKC, NFKD."},
	{"URIError", "", regexp.MustCompile(`^Malformed URI$`), "URI malformed"},
}

// v8WordStarts are the first bytes of every goja message v8Words or
// v8WordsAt reword: a cheap test before the regexps.
var v8WordStarts = [...]string{"No initial value", "RegExp doesn't have global flag set", "Expecting a function in instanceof check",
	"Value is not object coercible", "toFixed()", "toExponential()", "toPrecision()", "Cannot convert ", "The normalization form",
	"Malformed URI", "Cannot access a variable before initialization", "Class constructor cannot be invoked without 'new'"}

func mayBeV8Worded(text string) bool {
	for _, p := range v8WordStarts {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// v8Worded returns the V8 message for an error of class name with goja's
// message text, thrown first by the built-in native (its stack's first
// frame, "" when that is the snippet's) or at the snippet's position top;
// ok is false when goja's text stays.
func (e *Runtime) v8Worded(name, text, native string, top frame) (string, bool) {
	if !mayBeV8Worded(text) {
		return "", false
	}
	for _, w := range v8Words {
		if w.name != name || w.native != "" && w.native != native {
			continue
		}
		if m := w.re.FindStringSubmatchIndex(text); m != nil {
			return string(w.re.ExpandString(nil, w.to, text, m)), true
		}
	}
	return e.v8WordsAt(name, text, top)
}

// v8WordsAt rewords the messages that name what is at the error's
// position in the snippet's source: the variable read before its
// initialization, the class called without new.
func (e *Runtime) v8WordsAt(name, text string, top frame) (string, bool) {
	tdz := name == "ReferenceError" && text == "Cannot access a variable before initialization"
	class := name == "TypeError" && text == "Class constructor cannot be invoked without 'new'"
	if !tdz && !class || top.file == "" {
		return "", false
	}
	tree := e.programTree()
	if tree == nil {
		return "", false
	}
	if e.script && top.file == e.entry && top.line == 1 {
		top.column += len(bundle.ScriptPrefix)
	}
	at := top.position()
	found := ""
	walkAST(tree, func(n any) bool {
		if found != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.Identifier:
			if tdz && positionOf(tree, x.Idx) == at {
				found = x.Name.String()
			}
		case *ast.CallExpression:
			if id, ok := x.Callee.(*ast.Identifier); ok && class && (positionOf(tree, x.LeftParenthesis) == at || positionOf(tree, id.Idx) == at) {
				found = id.Name.String()
			}
		}
		return true
	})
	switch {
	case found == "":
		return "", false
	case tdz:
		return "Cannot access '" + found + "' before initialization", true
	}
	return "Class constructor " + found + " cannot be invoked without 'new'", true
}

// nativeFrame is the function of the first frame of goja's stack text
// when it is a built-in's ("\tat matchAll (native)"), "" otherwise.
func nativeFrame(stack string) string {
	i := strings.Index(stack, "\n\tat ")
	if i < 0 {
		return ""
	}
	line := stack[i+5:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	fn, ok := strings.CutSuffix(line, " (native)")
	if !ok {
		return ""
	}
	if k := strings.LastIndexByte(fn, '.'); k >= 0 {
		fn = fn[k+1:]
	}
	return fn
}

// nativeErrorName is the class of the error o when its prototype is one
// of ECMAScript's error prototypes (an error the engine may have thrown),
// read without running snippet code; "" otherwise.
func (e *Runtime) nativeErrorName(o *goja.Object) string {
	if e.typeErrorProto == nil {
		e.typeErrorProto = e.vm.NewTypeError("").Prototype()
	}
	p := o.Prototype()
	if p == e.typeErrorProto {
		return "TypeError"
	}
	if p == nil || p.Prototype() != e.typeErrorProto.Prototype() {
		return ""
	}
	v, ok := e.enc.OwnData(p, "name")
	if !ok || !goja.IsString(v) {
		return ""
	}
	switch n := v.String(); n {
	case "RangeError", "ReferenceError", "SyntaxError", "URIError", "EvalError":
		return n
	}
	return ""
}

// v8WordedBy is msg ("Name: message", the report of the error o) in V8's
// words when a built-in threw it first (native, its frame's function).
func (e *Runtime) v8WordedBy(o *goja.Object, msg, native string) string {
	name, text, ok := strings.Cut(msg, ": ")
	if !ok || !mayBeV8Worded(text) || e.nativeErrorName(o) != name {
		return msg
	}
	if k := strings.LastIndexByte(native, '.'); k >= 0 {
		native = native[k+1:]
	}
	if w, ok := e.v8Worded(name, text, native, frame{}); ok {
		return name + ": " + w
	}
	return msg
}
