package rewrite

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// The resolver: one walk over a parsed program that finds every variable
// binding and every reference to it, as ECMA-262's scoping rules bind them
// (§9.1 Environment Records; var hoisting to the function, let, const,
// class and block-level functions to their block). A rewrite may only
// change a variable whose every use the walk saw, so the walk is exhaustive
// by construction: a node type it does not know, a `with` statement or any
// use of `eval` (both of which can reach a variable by a name computed at
// run time) makes it give up on the whole program (resolver.bail).

// scope is one environment: a function's (fn == itself) or a block's.
type scope struct {
	parent *scope
	fn     *scope
	names  map[unistring.String]*binding
	// blockFuncs are the names of function declarations in blocks nested
	// in this function scope: in sloppy code Annex B (§B.3.2) also assigns
	// them to a var of the function, so a binding of that name is never
	// rewritten.
	blockFuncs []unistring.String
}

func newScope(parent *scope, isFunc bool) *scope {
	s := &scope{parent: parent}
	if isFunc || parent == nil {
		s.fn = s
	} else {
		s.fn = parent.fn
	}
	return s
}

type bindingKind uint8

const (
	kindLet   bindingKind = iota // let x = …
	kindVar                      // var x = …
	kindOther                    // const, function, class, parameter, catch parameter, destructured name
)

// binding is one declared variable and everything that uses it.
type binding struct {
	name  unistring.String
	kind  bindingKind
	scope *scope
	decls []*ast.Binding // its let or var declarators, in source order
	// topLevel is, for a var, whether every declarator is in a statement
	// directly in its function's body (not in a block, loop or branch).
	topLevel bool
	refs     []*ref
	bad      bool // declared or used in a way no rewrite keeps exact
}

type refKind uint8

const (
	refRead   refKind = iota // x
	refShort                 // { x } in an object literal: a read
	refAssign                // x = E
	refAppend                // x += E
	refOther                 // x++, x -= E, [x] = E, for (x of …), delete x, …
)

// ref is one reference to a binding.
type ref struct {
	kind     refKind
	id       *ast.Identifier
	slot     *ast.Expression       // refRead: the slot holding id; refAssign, refAppend: the slot holding the assignment
	prop     *ast.Property         // refShort: the slot holding the shorthand property
	assign   *ast.AssignExpression // refAssign, refAppend
	unused   bool                  // refAssign, refAppend: the assignment's value is discarded
	sc       *scope                // where the reference is
	b        *binding              // what it resolves to (nil: a global)
	consumed bool                  // a read folded into an append (x = x + E)
	// length, for a read that is the object of `x.length`, is the slot
	// holding that member expression: a builder knows its length without
	// joining its parts.
	length *ast.Expression
}

// resolver walks a program (walk), then binds every reference (resolve).
type resolver struct {
	refs     []*ref
	bindings []*binding
	names    map[unistring.String]bool // every identifier name in the program
	bail     bool
	// topFn is the function scope whose body statements are being walked
	// directly (for binding.topLevel), nil inside a nested statement.
	topFn *scope
}

func (r *resolver) declare(sc *scope, id *ast.Identifier, kind bindingKind, decl *ast.Binding) {
	r.names[id.Name] = true
	if sc.names == nil {
		sc.names = map[unistring.String]*binding{}
	}
	b := sc.names[id.Name]
	if b == nil {
		b = &binding{name: id.Name, kind: kind, scope: sc, topLevel: true}
		sc.names[id.Name] = b
		r.bindings = append(r.bindings, b)
	} else if b.kind != kind || kind != kindVar {
		b.bad = true // redeclared (a var and a function of one name, a parameter and a var…)
	}
	if decl != nil {
		b.decls = append(b.decls, decl)
	} else if kind == kindVar {
		b.bad = true
	}
	if kind == kindVar && r.topFn != sc {
		b.topLevel = false
	}
}

func (r *resolver) use(sc *scope, x *ref) {
	r.names[x.id.Name] = true
	if x.id.Name == "eval" {
		r.bail = true
	}
	x.sc = sc
	r.refs = append(r.refs, x)
}

// resolve binds each reference to the innermost binding of its name.
func (r *resolver) resolve() {
	for _, b := range r.bindings {
		for _, n := range b.scope.fn.blockFuncs {
			if n == b.name && b.scope.fn == b.scope {
				b.bad = true
			}
		}
	}
	for _, x := range r.refs {
		for sc := x.sc; sc != nil; sc = sc.parent {
			if b := sc.names[x.id.Name]; b != nil {
				x.b = b
				b.refs = append(b.refs, x)
				break
			}
		}
	}
}

func (r *resolver) stmts(list []ast.Statement, sc *scope) {
	for _, st := range list {
		r.stmt(st, sc)
	}
}

// body walks a function's (or the program's) body statements.
func (r *resolver) body(list []ast.Statement, fn *scope) {
	outer := r.topFn
	for _, st := range list {
		r.topFn = fn
		r.stmt(st, fn)
	}
	r.topFn = outer
}

func (r *resolver) stmt(st ast.Statement, sc *scope) {
	if r.bail || st == nil {
		return
	}
	top := r.topFn == sc
	r.topFn = nil // everything below this statement is nested
	defer func() {
		if top {
			r.topFn = sc
		}
	}()
	switch st := st.(type) {
	case *ast.ExpressionStatement:
		r.expr(&st.Expression, sc, true)
	case *ast.VariableStatement:
		if top {
			r.topFn = sc
		}
		r.declarators(st.List, sc.fn, sc, kindVar)
		r.topFn = nil
	case *ast.LexicalDeclaration:
		kind := kindLet
		if st.Token != token.LET {
			kind = kindOther
		}
		r.declarators(st.List, sc, sc, kind)
	case *ast.BlockStatement:
		r.stmts(st.List, newScope(sc, false))
	case *ast.FunctionDeclaration:
		if st.Function.Name != nil {
			r.declare(sc, st.Function.Name, kindOther, nil)
			if sc.fn != sc {
				sc.fn.blockFuncs = append(sc.fn.blockFuncs, st.Function.Name.Name)
			}
		}
		r.function(st.Function, sc, false)
	case *ast.ClassDeclaration:
		if st.Class.Name != nil {
			r.declare(sc, st.Class.Name, kindOther, nil)
		}
		r.class(st.Class, sc)
	case *ast.IfStatement:
		r.expr(&st.Test, sc, false)
		r.stmt(st.Consequent, sc)
		r.stmt(st.Alternate, sc)
	case *ast.ForStatement:
		ls := newScope(sc, false)
		switch init := st.Initializer.(type) {
		case nil:
		case *ast.ForLoopInitializerExpression:
			r.expr(&init.Expression, ls, true)
		case *ast.ForLoopInitializerVarDeclList:
			r.declarators(init.List, sc.fn, ls, kindVar)
		case *ast.ForLoopInitializerLexicalDecl:
			// Each iteration copies the loop's let bindings (§14.7.4.4):
			// never rewritten.
			r.declarators(init.LexicalDeclaration.List, ls, ls, kindOther)
		default:
			r.bail = true
		}
		r.expr(&st.Test, ls, false)
		r.expr(&st.Update, ls, true)
		r.stmt(st.Body, ls)
	case *ast.ForInStatement:
		ls := newScope(sc, false)
		r.into(st.Into, sc, ls)
		r.expr(&st.Source, ls, false)
		r.stmt(st.Body, ls)
	case *ast.ForOfStatement:
		ls := newScope(sc, false)
		r.into(st.Into, sc, ls)
		r.expr(&st.Source, ls, false)
		r.stmt(st.Body, ls)
	case *ast.WhileStatement:
		r.expr(&st.Test, sc, false)
		r.stmt(st.Body, sc)
	case *ast.DoWhileStatement:
		r.stmt(st.Body, sc)
		r.expr(&st.Test, sc, false)
	case *ast.ReturnStatement:
		r.expr(&st.Argument, sc, false)
	case *ast.ThrowStatement:
		r.expr(&st.Argument, sc, false)
	case *ast.TryStatement:
		r.stmt(st.Body, sc)
		if c := st.Catch; c != nil {
			cs := newScope(sc, false)
			if c.Parameter != nil {
				r.pattern(c.Parameter, cs, kindOther, nil)
			}
			if c.Body != nil {
				r.stmts(c.Body.List, cs)
			}
		}
		if st.Finally != nil {
			r.stmt(st.Finally, sc)
		}
	case *ast.SwitchStatement:
		r.expr(&st.Discriminant, sc, false)
		ss := newScope(sc, false)
		for _, c := range st.Body {
			r.expr(&c.Test, ss, false)
			r.stmts(c.Consequent, ss)
		}
	case *ast.LabelledStatement:
		r.stmt(st.Statement, sc)
	case *ast.BranchStatement, *ast.EmptyStatement, *ast.DebuggerStatement:
	default: // with, a bad statement, or a node type this walk does not know
		r.bail = true
	}
}

// declarators declares a var (in fn) or lexical (in sc) declaration list
// whose initializers are evaluated in at.
func (r *resolver) declarators(list []*ast.Binding, declScope, at *scope, kind bindingKind) {
	for _, b := range list {
		r.pattern(b.Target, declScope, kind, b)
		r.expr(&b.Initializer, at, false)
	}
}

// into walks the left side of a for-in or for-of loop.
func (r *resolver) into(into ast.ForInto, sc, ls *scope) {
	switch into := into.(type) {
	case *ast.ForIntoVar:
		r.pattern(into.Binding.Target, sc.fn, kindVar, nil) // assigned by the loop: never rewritten
		r.expr(&into.Binding.Initializer, ls, false)
	case *ast.ForDeclaration:
		r.pattern(into.Target, ls, kindOther, nil)
	case *ast.ForIntoExpression:
		r.target(&into.Expression, ls)
	default:
		r.bail = true
	}
}

// pattern declares the names of a binding target. Only a plain identifier
// keeps its kind: names in a destructuring pattern are written by it.
func (r *resolver) pattern(t ast.Expression, sc *scope, kind bindingKind, decl *ast.Binding) {
	switch t := t.(type) {
	case nil:
	case *ast.Identifier:
		r.declare(sc, t, kind, decl)
	case *ast.ArrayPattern:
		for _, e := range t.Elements {
			r.pattern(e, sc, kindOther, nil)
		}
		r.pattern(t.Rest, sc, kindOther, nil)
	case *ast.ObjectPattern:
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				r.declare(sc, &p.Name, kindOther, nil)
				r.expr(&p.Initializer, sc, false)
			case *ast.PropertyKeyed:
				if p.Computed {
					r.expr(&p.Key, sc, false)
				}
				r.pattern(p.Value, sc, kindOther, nil)
			default:
				r.bail = true
			}
		}
		r.pattern(t.Rest, sc, kindOther, nil)
	case *ast.AssignExpression: // a default value
		r.pattern(t.Left, sc, kindOther, nil)
		r.expr(&t.Right, sc, false)
	default:
		r.bail = true
	}
}

// target walks an assignment target other than a plain identifier's
// `=` and `+=` (destructuring, for-in/of heads): every name in it is
// written in a way no rewrite keeps exact.
func (r *resolver) target(slot *ast.Expression, sc *scope) {
	switch t := (*slot).(type) {
	case nil:
	case *ast.Identifier:
		r.use(sc, &ref{kind: refOther, id: t})
	case *ast.ArrayPattern:
		for i := range t.Elements {
			r.target(&t.Elements[i], sc)
		}
		r.target(&t.Rest, sc)
	case *ast.ObjectPattern:
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				r.use(sc, &ref{kind: refOther, id: &p.Name})
				r.expr(&p.Initializer, sc, false)
			case *ast.PropertyKeyed:
				if p.Computed {
					r.expr(&p.Key, sc, false)
				}
				r.target(&p.Value, sc)
			case *ast.SpreadElement:
				r.target(&p.Expression, sc)
			default:
				r.bail = true
			}
		}
		r.target(&t.Rest, sc)
	case *ast.AssignExpression: // a default value
		r.target(&t.Left, sc)
		r.expr(&t.Right, sc, false)
	default: // a member expression: its object and key are read
		r.member(slot, sc)
	}
}

// member walks a member expression that is assigned to (or a target of
// ++, --, delete): its object and key are read, but x.length there is
// not a read of x's length.
func (r *resolver) member(slot *ast.Expression, sc *scope) {
	if d, ok := (*slot).(*ast.DotExpression); ok {
		r.expr(&d.Left, sc, false)
		return
	}
	r.expr(slot, sc, false)
}

// expr walks the expression in slot. unused says its value is discarded.
func (r *resolver) expr(slot *ast.Expression, sc *scope, unused bool) {
	if r.bail {
		return
	}
	switch e := (*slot).(type) {
	case nil:
	case *ast.Identifier:
		r.use(sc, &ref{kind: refRead, id: e, slot: slot})
	case *ast.AssignExpression:
		if id, ok := e.Left.(*ast.Identifier); ok {
			kind := refOther
			switch e.Operator {
			case token.ASSIGN:
				kind = refAssign
			case token.PLUS:
				kind = refAppend
			}
			r.use(sc, &ref{kind: kind, id: id, slot: slot, assign: e, unused: unused})
		} else if e.Operator == token.ASSIGN {
			r.target(&e.Left, sc)
		} else {
			r.member(&e.Left, sc)
		}
		r.expr(&e.Right, sc, false)
	case *ast.BinaryExpression:
		r.expr(&e.Left, sc, false)
		r.expr(&e.Right, sc, false)
	case *ast.UnaryExpression:
		id, isID := e.Operand.(*ast.Identifier)
		switch {
		case e.Operator != token.INCREMENT && e.Operator != token.DECREMENT && e.Operator != token.DELETE:
			r.expr(&e.Operand, sc, false)
		case isID:
			r.use(sc, &ref{kind: refOther, id: id})
		default:
			r.member(&e.Operand, sc)
		}
	case *ast.ConditionalExpression:
		r.expr(&e.Test, sc, false)
		r.expr(&e.Consequent, sc, false)
		r.expr(&e.Alternate, sc, false)
	case *ast.SequenceExpression:
		for i := range e.Sequence {
			r.expr(&e.Sequence[i], sc, unused || i < len(e.Sequence)-1)
		}
	case *ast.CallExpression:
		r.expr(&e.Callee, sc, false)
		for i := range e.ArgumentList {
			r.expr(&e.ArgumentList[i], sc, false)
		}
	case *ast.NewExpression:
		r.expr(&e.Callee, sc, false)
		for i := range e.ArgumentList {
			r.expr(&e.ArgumentList[i], sc, false)
		}
	case *ast.DotExpression:
		if id, ok := e.Left.(*ast.Identifier); ok && e.Identifier.Name == "length" {
			r.use(sc, &ref{kind: refRead, id: id, slot: &e.Left, length: slot})
			break
		}
		r.expr(&e.Left, sc, false)
	case *ast.PrivateDotExpression:
		r.expr(&e.Left, sc, false)
	case *ast.BracketExpression:
		r.expr(&e.Left, sc, false)
		r.expr(&e.Member, sc, false)
	case *ast.OptionalChain:
		r.expr(&e.Expression, sc, false)
	case *ast.Optional:
		r.expr(&e.Expression, sc, false)
	case *ast.SpreadElement:
		r.expr(&e.Expression, sc, false)
	case *ast.FunctionLiteral:
		r.function(e, sc, true)
	case *ast.ArrowFunctionLiteral:
		fs := newScope(sc, true)
		r.params(e.ParameterList, fs)
		switch b := e.Body.(type) {
		case *ast.BlockStatement:
			r.body(b.List, fs)
		case *ast.ExpressionBody:
			r.expr(&b.Expression, fs, false)
		default:
			r.bail = true
		}
	case *ast.ClassLiteral:
		r.class(e, sc)
	case *ast.ArrayLiteral:
		for i := range e.Value {
			r.expr(&e.Value[i], sc, false)
		}
	case *ast.ObjectLiteral:
		for i := range e.Value {
			switch p := e.Value[i].(type) {
			case *ast.PropertyShort:
				r.use(sc, &ref{kind: refShort, id: &p.Name, prop: &e.Value[i]})
				r.expr(&p.Initializer, sc, false)
			case *ast.PropertyKeyed:
				if p.Computed {
					r.expr(&p.Key, sc, false)
				}
				r.expr(&p.Value, sc, false)
			case *ast.SpreadElement:
				r.expr(&p.Expression, sc, false)
			default:
				r.bail = true
			}
		}
	case *ast.TemplateLiteral:
		r.expr(&e.Tag, sc, false)
		for i := range e.Expressions {
			r.expr(&e.Expressions[i], sc, false)
		}
	case *ast.YieldExpression:
		r.expr(&e.Argument, sc, false)
	case *ast.AwaitExpression:
		r.expr(&e.Argument, sc, false)
	case *ast.ArrayPattern, *ast.ObjectPattern:
		r.target(slot, sc)
	case *ast.StringLiteral, *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral,
		*ast.RegExpLiteral, *ast.ThisExpression, *ast.SuperExpression, *ast.MetaProperty:
	default: // a bad expression, or a node type this walk does not know
		r.bail = true
	}
}

// function walks a function literal; a function expression's own name is
// bound inside it.
func (r *resolver) function(f *ast.FunctionLiteral, sc *scope, isExpr bool) {
	fs := newScope(sc, true)
	if isExpr && f.Name != nil {
		r.declare(fs, f.Name, kindOther, nil)
	}
	r.params(f.ParameterList, fs)
	if f.Body != nil {
		r.body(f.Body.List, fs)
	}
}

func (r *resolver) params(pl *ast.ParameterList, fs *scope) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		r.pattern(b.Target, fs, kindOther, nil)
		r.expr(&b.Initializer, fs, false)
	}
	r.pattern(pl.Rest, fs, kindOther, nil)
}

// class walks a class literal: its name (for a class expression) is bound
// inside it; methods, field initializers and static blocks are functions.
func (r *resolver) class(c *ast.ClassLiteral, sc *scope) {
	cs := newScope(sc, false)
	if c.Name != nil {
		r.declare(cs, c.Name, kindOther, nil)
	}
	r.expr(&c.SuperClass, sc, false)
	for _, el := range c.Body {
		switch el := el.(type) {
		case *ast.MethodDefinition:
			if el.Computed {
				r.expr(&el.Key, cs, false)
			}
			r.function(el.Body, cs, false)
		case *ast.FieldDefinition:
			if el.Computed {
				r.expr(&el.Key, cs, false)
			}
			r.expr(&el.Initializer, newScope(cs, true), false)
		case *ast.ClassStaticBlock:
			if el.Block != nil {
				r.body(el.Block.List, newScope(cs, true))
			}
		default:
			r.bail = true
		}
	}
}
