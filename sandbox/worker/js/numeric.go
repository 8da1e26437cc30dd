package js

import (
	"reflect"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"

	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// Numeric keys (usage.go). A computed key reaches a property by the
// string its value converts to. An addition's or a lazy global's name
// (every needByName name, the console methods) contains no decimal digit
// and none of "NaN", "Infinity" and "undefined" (TestUsageNamesHaveNoDigits;
// the typed-array classes, which only gate needTypedArrayFrom, are the
// exception: reached by such a key they keep goja's from, which throws),
// so a key whose value is "numbery" cannot name one:
//
//	numbery: a Number or a BigInt (whose text contains a digit, or is NaN,
//	Infinity or -Infinity), undefined (a var read before its assignment),
//	or a string that contains a digit, "NaN", "Infinity" or "undefined".
//
// Expressions provably numbery: numeric (and BigInt) literals; ++ and --;
// unary -, + and ~ (ToNumeric or ToNumber of anything, an object's
// valueOf included: a Number or BigInt, or a throw); the binary
// - * / % ** & | ^ << >> >>> (a Number or a BigInt, or a throw); a + b when
// either side is numbery (both numbers: a number; else the text of the
// numbery side, or the numbery string itself, is a substring of the
// result, whatever the other side converts to); c ? a : b with both
// branches numbery; a sequence whose last expression is; an assignment
// whose value is; and an identifier the program only ever binds or
// assigns numbery values (numericNames), conservatively by name across
// all scopes.
//
// A name is numbery only when the program binds or assigns it somewhere,
// every such binding or assignment is one of var/let/const x = numbery,
// x = numbery, x op= … with a numbery result, ++x/x--, and it is never a
// function's or arrow's parameter, a catch parameter, a destructuring or
// for-in/of target, a function's or class's name, a declaration without
// initializer, nor spelled as a property name or a string anywhere (the
// program could set a global var through this.x or defineProperty), and
// the program has no this expression at all (which may be the global
// object, whose properties it could set from data). Its
// reads then see one of those values, or (a read where no binding of the
// program is in scope) a global: a built-in or runtime global holds no
// string, and other code of the run that could set one (a library) must
// spell the name. Today no run evaluates library code without needing
// everything (a program that imports one spells lib, Preload installs
// everything): a run that unions a library's needs with the program's
// must also make the program dynamic when the library spells one of its
// summary.numeric names.

// numericState collects, while walkAST visits a program, what the
// numbery analysis needs; resolve decides at the end.
type numericState struct {
	tainted map[string]bool       // never numbery
	records map[string][][]string // per name, its bindings and assignments: each numbery if all its names are
	keys    map[string]bool       // names that computed keys need numbery
	this    bool                  // the program has a this expression
}

// numberyDeps reports whether x is numbery provided every name of the returned
// set is (numericNames); ok is false when it is not provably numbery.
func numberyDeps(x ast.Expression) (names []string, ok bool) {
	switch x := x.(type) {
	case *ast.NumberLiteral:
		return nil, true
	case *ast.Identifier:
		return []string{x.Name.String()}, true
	case *ast.UnaryExpression:
		switch x.Operator {
		case token.INCREMENT, token.DECREMENT, token.MINUS, token.PLUS, token.BITWISE_NOT:
			return nil, true
		}
	case *ast.BinaryExpression:
		switch x.Operator {
		case token.MINUS, token.MULTIPLY, token.SLASH, token.REMAINDER, token.EXPONENT, token.AND, token.OR,
			token.EXCLUSIVE_OR, token.SHIFT_LEFT, token.SHIFT_RIGHT, token.UNSIGNED_SHIFT_RIGHT:
			return nil, true
		case token.PLUS:
			return eitherNumbery(x.Left, x.Right)
		}
	case *ast.ConditionalExpression:
		a, ok := numberyDeps(x.Consequent)
		if !ok {
			return nil, false
		}
		b, ok := numberyDeps(x.Alternate)
		if !ok {
			return nil, false
		}
		return append(a, b...), true
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return numberyDeps(x.Sequence[len(x.Sequence)-1])
		}
	case *ast.AssignExpression:
		return assignedNumbery(x)
	}
	return nil, false
}

// eitherNumbery: a + b is numbery when either side is; a side without
// conditions is preferred (the conditions are sufficient, not necessary).
func eitherNumbery(a, b ast.Expression) ([]string, bool) {
	da, oka := numberyDeps(a)
	db, okb := numberyDeps(b)
	switch {
	case oka && len(da) == 0, okb && len(db) == 0:
		return nil, true
	case oka:
		return da, true
	case okb:
		return db, true
	}
	return nil, false
}

// assignedNumbery is whether the value an assignment stores (and yields)
// is numbery.
func assignedNumbery(x *ast.AssignExpression) ([]string, bool) {
	switch x.Operator {
	case token.ASSIGN:
		return numberyDeps(x.Right)
	case token.PLUS, token.ADD_ASSIGN:
		return eitherNumbery(x.Left, x.Right)
	case token.MINUS, token.MULTIPLY, token.SLASH, token.REMAINDER, token.EXPONENT, token.AND, token.OR,
		token.EXCLUSIVE_OR, token.SHIFT_LEFT, token.SHIFT_RIGHT, token.UNSIGNED_SHIFT_RIGHT,
		token.SUBTRACT_ASSIGN, token.MULTIPLY_ASSIGN, token.EXPONENT_ASSIGN, token.QUOTIENT_ASSIGN,
		token.REMAINDER_ASSIGN, token.AND_ASSIGN, token.OR_ASSIGN, token.EXCLUSIVE_OR_ASSIGN,
		token.SHIFT_LEFT_ASSIGN, token.SHIFT_RIGHT_ASSIGN, token.UNSIGNED_SHIFT_RIGHT_ASSIGN:
		// goja's parser stores a compound assignment's operator as the
		// binary one (its compiler reads it so); the *_ASSIGN forms are
		// accepted too.
		return nil, true
	case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE,
		token.LOGICAL_AND_ASSIGN, token.LOGICAL_OR_ASSIGN, token.COALESCE_ASSIGN:
		a, ok := numberyDeps(x.Left)
		if !ok {
			return nil, false
		}
		b, ok := numberyDeps(x.Right)
		if !ok {
			return nil, false
		}
		return append(a, b...), true
	}
	return nil, false
}

func (s *numericState) taint(name string) {
	if s.tainted == nil {
		s.tainted = map[string]bool{}
	}
	s.tainted[name] = true
}

// taintAll taints every identifier in n (a pattern, a parameter list, …).
func (s *numericState) taintAll(n any) {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return
	}
	walkNode(n, func(n any) bool {
		if id, ok := n.(*ast.Identifier); ok {
			s.taint(id.Name.String())
		}
		return true
	})
}

// record notes that name is assigned a value numbery if deps are (ok), or
// one that may not be (!ok).
func (s *numericState) record(name string, deps []string, ok bool) {
	if !ok {
		s.taint(name)
		return
	}
	if s.records == nil {
		s.records = map[string][][]string{}
	}
	s.records[name] = append(s.records[name], deps)
}

// key notes a computed key; false when it is not provably numbery.
func (s *numericState) key(x ast.Expression) bool {
	deps, ok := numberyDeps(x)
	if !ok {
		return false
	}
	if s.keys == nil && len(deps) > 0 {
		s.keys = map[string]bool{}
	}
	for _, d := range deps {
		s.keys[d] = true
	}
	return true
}

// visit notes the bindings and assignments of node n.
func (s *numericState) visit(n any) {
	switch x := n.(type) {
	case *ast.Binding:
		switch t := x.Target.(type) {
		case *ast.Identifier:
			if x.Initializer == nil {
				s.taint(t.Name.String())
			} else {
				deps, ok := numberyDeps(x.Initializer)
				s.record(t.Name.String(), deps, ok)
			}
		default:
			s.taintAll(x.Target)
		}
	case *ast.AssignExpression:
		switch l := x.Left.(type) {
		case *ast.Identifier:
			deps, ok := assignedNumbery(x)
			s.record(l.Name.String(), deps, ok)
		case *ast.DotExpression, *ast.BracketExpression, *ast.PrivateDotExpression:
		default:
			s.taintAll(x.Left)
		}
	case *ast.UnaryExpression:
		if id, ok := x.Operand.(*ast.Identifier); ok && (x.Operator == token.INCREMENT || x.Operator == token.DECREMENT) {
			s.record(id.Name.String(), nil, true)
		}
	case *ast.ParameterList:
		for _, b := range x.List {
			s.taintAll(b.Target)
		}
		if x.Rest != nil {
			s.taintAll(x.Rest)
		}
	case *ast.CatchStatement:
		if x.Parameter != nil {
			s.taintAll(x.Parameter)
		}
	case *ast.ForIntoVar:
		s.taintAll(x.Binding)
	case *ast.ForDeclaration:
		s.taintAll(x.Target)
	case *ast.ForIntoExpression:
		s.taintAll(x.Expression)
	case *ast.FunctionLiteral:
		if x.Name != nil {
			s.taint(x.Name.Name.String())
		}
	case *ast.ClassLiteral:
		if x.Name != nil {
			s.taint(x.Name.Name.String())
		}
	case *ast.ObjectPattern, *ast.ArrayPattern:
		s.taintAll(x)
	case *ast.StringLiteral:
		s.taint(x.Value.String())
	case *ast.TemplateElement:
		s.taint(x.Parsed.String())
	case *ast.DotExpression:
		s.taint(x.Identifier.Name.String())
	case *ast.ThisExpression:
		s.this = true
	}
}

// numericNames is the set of names that are numbery (see above): bound or
// assigned somewhere, never tainted, and every binding's or assignment's
// conditions met (the greatest such set).
func (s *numericState) numericNames() map[string]bool {
	num := map[string]bool{}
	for name := range s.records {
		if !s.tainted[name] {
			num[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for name := range num {
		records:
			for _, r := range s.records[name] {
				for _, d := range r {
					if !num[d] {
						delete(num, name)
						changed = true
						break records
					}
				}
			}
		}
	}
	return num
}

// resolve reports whether every computed key the program has is numbery,
// and the names that verdict relies on (sorted by the caller).
func (s *numericState) resolve() (keyNames []string, ok bool) {
	if len(s.keys) == 0 {
		return nil, true
	}
	if s.this {
		// this may be the global object (at the top level, in a sloppy
		// function): a name the program relies on may be a global
		// property (a var, an undeclared assignment) that it could set
		// from data it never spells (Object.assign(this, JSON.parse(…))).
		// Without this, reaching the global object takes a dynamic name.
		return nil, false
	}
	num := s.numericNames()
	for k := range s.keys {
		if !num[k] {
			return nil, false
		}
		keyNames = append(keyNames, k)
	}
	return keyNames, true
}

// hasNumberText reports whether a name could be a numbery string: the
// names the analysis protects must not (TestUsageNamesHaveNoDigits).
func hasNumberText(name string) bool {
	return strings.ContainsAny(name, "0123456789") || strings.Contains(name, "NaN") || strings.Contains(name, "Infinity") ||
		strings.Contains(name, "undefined")
}

// walkNode is walkAST from any node (parity.Walk).
func walkNode(root any, visit func(n any) bool) { parity.Walk(root, visit) }
