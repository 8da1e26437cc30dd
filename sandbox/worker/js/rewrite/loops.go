package rewrite

import (
	"reflect"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// FieldArrayLoop is the field of the runtime object that a program
// rewritten by ArrayLoops calls, defined by DefineNatives:
// arrayLoop(v) reports whether `for (… of v)` may run as an indexed loop
// over v (see ArrayLoops).
const FieldArrayLoop = "arrayLoop"

// ArrayLoops rewrites `for (const x of e) body` (let, const or var, with
// any binding pattern, under any labels) so that, when e is an ordinary
// array whose iteration nobody has changed, it runs as an indexed loop:
//
//	{ const v = e;
//	  if (arrayLoop(v)) for (let i = 0; i < v.length; i++) { const x = v[i]; body }
//	  else for (const x of v) body }
//
// goja runs the iterator protocol of for…of (a call of next and a result
// object per element) about three times slower than the indexed loop, which
// is what V8's interpreter runs instead. The two are the same computation
// when v is an Array (not a Proxy, not a subclass instance) whose prototype
// is Array.prototype, that has no own symbol properties, whose
// Array.prototype[Symbol.iterator] is still the intrinsic values function,
// and whose array iterator's next is the intrinsic one with no `return`
// method on the iterator's prototype chain: then the spec's array iterator
// (ECMA-262 §23.1.5.1 CreateArrayIterator, %ArrayIteratorPrototype%.next)
// reads v.length and then v[i] at each step exactly as the indexed loop
// does, a break or a throw closes nothing, and each iteration still binds
// x afresh for closures. arrayLoop checks those conditions once, at the
// loop's start, without running any of the snippet's code (no getter is
// called; for…of reads next once, at its start, too: §7.4.2 GetIterator).
// The one difference left: a `return` method added to the iterator's
// prototype chain while such a loop runs is not called when it breaks.
//
// Only loops with no for…of inside their body are rewritten (the body is
// written twice, so nesting would double it per level), and only when e
// names none of the loop's variables (which the real loop evaluates in
// their temporal dead zone). Programs with `with` are left alone.
//
// prg must be a bundle (see StringBuilding). It reports whether it changed
// prg; the runtime object must then have DefineNatives' functions when prg
// runs.
func ArrayLoops(prg *ast.Program, runtimeParam string) bool {
	fn := bundleFunction(prg, runtimeParam)
	if fn == nil {
		return false
	}
	l := &loops{names: map[unistring.String]bool{}}
	inspectAST(reflect.ValueOf(fn), func(n any) bool {
		switch n := n.(type) {
		case *ast.Identifier:
			l.names[n.Name] = true
		case ast.Identifier:
			l.names[n.Name] = true
		case *ast.WithStatement:
			l.bail = true
		case *ast.ForOfStatement:
			l.found = true
		}
		return !l.bail
	})
	if l.bail || !l.found {
		return false
	}
	l.check = fresh(l.names, "__playground_arrayLoop")
	l.statements(reflect.ValueOf(fn.Body).Elem())
	if l.changed == 0 {
		return false
	}
	at := fn.Body.LeftBrace
	decl := &ast.LexicalDeclaration{Idx: at, Token: token.CONST, List: []*ast.Binding{{
		Target: &ast.Identifier{Name: l.check, Idx: at},
		Initializer: &ast.DotExpression{
			Left:       &ast.Identifier{Name: unistring.NewFromString(runtimeParam), Idx: at},
			Identifier: ast.Identifier{Name: FieldArrayLoop, Idx: at},
		},
	}}}
	fn.Body.List = append([]ast.Statement{decl}, fn.Body.List...)
	return true
}

type loops struct {
	names   map[unistring.String]bool // every identifier of the program, for fresh names
	check   unistring.String          // the local holding arrayLoop
	bail    bool
	found   bool
	changed int
}

var (
	statementType = reflect.TypeFor[ast.Statement]()
	astPkg        = reflect.TypeFor[ast.Program]().PkgPath()
)

// statements walks v (an AST value) children first, replacing each
// statement that is a for…of loop ArrayLoops takes by its rewrite. A loop
// under labels is rewritten with them, at the outermost label's place
// (labelled says v is a labelled statement's statement).
func (l *loops) statements(v reflect.Value) { l.statement(v, false) }

func (l *loops) statement(v reflect.Value, labelled bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if ls, ok := v.Interface().(*ast.LabelledStatement); ok {
			l.statement(reflect.ValueOf(ls).Elem().FieldByName("Statement"), true)
		} else {
			l.statement(v.Elem(), false)
		}
		if !labelled && v.Type() == statementType && v.CanSet() {
			if s := l.loop(v.Interface().(ast.Statement)); s != nil {
				v.Set(reflect.ValueOf(s))
				l.changed++
			}
		}
	case reflect.Struct:
		if v.Type().PkgPath() != astPkg {
			return
		}
		for i := range v.NumField() {
			l.statement(v.Field(i), false)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			l.statement(v.Index(i), false)
		}
	}
}

// loop returns the rewrite of s when s (under its labels) is a for…of
// loop ArrayLoops takes, else nil.
func (l *loops) loop(s ast.Statement) ast.Statement {
	var labels []*ast.LabelledStatement
	inner := s
	for {
		ls, ok := inner.(*ast.LabelledStatement)
		if !ok {
			break
		}
		labels = append(labels, ls)
		inner = ls.Statement
	}
	f, ok := inner.(*ast.ForOfStatement)
	if !ok {
		return nil
	}
	if len(labels) > 0 {
		if _, ok := s.(*ast.LabelledStatement); !ok {
			return nil
		}
	}
	bound := map[unistring.String]bool{}
	lexical := false
	switch into := f.Into.(type) {
	case *ast.ForDeclaration:
		lexical = true
		inspectAST(reflect.ValueOf(into.Target), func(n any) bool {
			if id, ok := n.(*ast.Identifier); ok {
				bound[id.Name] = true
			}
			return true
		})
	case *ast.ForIntoVar:
		if into.Binding.Initializer != nil {
			return nil
		}
	default:
		return nil
	}
	ok = true
	inspectAST(reflect.ValueOf(f.Body), func(n any) bool {
		if _, loop := n.(*ast.ForOfStatement); loop {
			ok = false
		}
		return ok
	})
	if lexical {
		inspectAST(reflect.ValueOf(f.Source), func(n any) bool {
			if id, is := n.(*ast.Identifier); is && bound[id.Name] {
				ok = false
			}
			return ok
		})
	}
	if !ok {
		return nil
	}

	at := f.For
	src := f.Source.Idx0()
	v := fresh(l.names, "__playground_of")
	i := fresh(l.names, "__playground_i")
	id := func(name unistring.String, at file.Idx) *ast.Identifier { return &ast.Identifier{Name: name, Idx: at} }
	element := &ast.BracketExpression{Left: id(v, src), Member: id(i, src), LeftBracket: src, RightBracket: src}
	var first ast.Statement
	switch into := f.Into.(type) {
	case *ast.ForDeclaration:
		tok := token.LET
		if into.IsConst {
			tok = token.CONST
		}
		first = &ast.LexicalDeclaration{Idx: into.Idx, Token: tok, List: []*ast.Binding{{Target: into.Target, Initializer: element}}}
	case *ast.ForIntoVar:
		first = &ast.VariableStatement{Var: into.Binding.Idx0(), List: []*ast.Binding{{Target: into.Binding.Target, Initializer: element}}}
	}
	fast := &ast.ForStatement{
		For: at,
		Initializer: &ast.ForLoopInitializerLexicalDecl{LexicalDeclaration: ast.LexicalDeclaration{Idx: at, Token: token.LET, List: []*ast.Binding{{
			Target: id(i, at), Initializer: &ast.NumberLiteral{Idx: at, Literal: "0", Value: int64(0)},
		}}}},
		Test: &ast.BinaryExpression{Operator: token.LESS, Comparison: true, Left: id(i, at), Right: &ast.DotExpression{
			Left: id(v, src), Identifier: ast.Identifier{Name: "length", Idx: src},
		}},
		Update: &ast.UnaryExpression{Operator: token.INCREMENT, Idx: at, Postfix: true, Operand: id(i, at)},
		Body:   &ast.BlockStatement{LeftBrace: at, List: []ast.Statement{first, f.Body}, RightBrace: f.Body.Idx1()},
	}
	slow := &ast.ForOfStatement{For: at, Into: clone(f.Into), Source: id(v, src), Body: clone(f.Body)}
	relabel := func(s ast.Statement) ast.Statement {
		for k := len(labels) - 1; k >= 0; k-- {
			s = &ast.LabelledStatement{Label: ident(labels[k].Label), Colon: labels[k].Colon, Statement: s}
		}
		return s
	}
	return &ast.BlockStatement{LeftBrace: at, RightBrace: f.Idx1(), List: []ast.Statement{
		&ast.LexicalDeclaration{Idx: at, Token: token.CONST, List: []*ast.Binding{{Target: id(v, src), Initializer: f.Source}}},
		&ast.IfStatement{
			If:         at,
			Test:       &ast.CallExpression{Callee: id(l.check, at), LeftParenthesis: at, ArgumentList: []ast.Expression{id(v, src)}, RightParenthesis: at},
			Consequent: relabel(fast),
			Alternate:  relabel(slow),
		},
	}}
}

// inspectAST calls visit for every value of v's syntax tree, parents
// before children, and does not descend below a value for which visit
// returns false.
func inspectAST(v reflect.Value, visit func(n any) bool) { inspectValue(v, false, visit) }

// inspectValue is inspectAST; viaPointer says v is the struct a visited
// pointer points to (a struct held by value, as DotExpression's
// Identifier, is visited as a value).
func inspectValue(v reflect.Value, viaPointer bool, visit func(n any) bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer && v.Type().Elem().PkgPath() == astPkg && v.CanInterface() {
			if !visit(v.Interface()) {
				return
			}
			inspectValue(v.Elem(), true, visit)
			return
		}
		inspectValue(v.Elem(), false, visit)
	case reflect.Struct:
		if v.Type().PkgPath() != astPkg {
			return
		}
		if !viaPointer && v.CanInterface() && !visit(v.Interface()) {
			return
		}
		for i := range v.NumField() {
			inspectValue(v.Field(i), false, visit)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			inspectValue(v.Index(i), false, visit)
		}
	}
}

// clone returns a deep copy of x, a syntax tree: every node of package ast
// is copied; other values (positions, names, tokens) are shared.
func clone[T any](x T) T {
	v := reflect.ValueOf(&x).Elem()
	out := reflect.New(v.Type()).Elem()
	copyAST(out, v)
	return out.Interface().(T)
}

func copyAST(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() || src.Type().Elem().PkgPath() != astPkg || src.Type().Elem().Kind() != reflect.Struct {
			dst.Set(src)
			return
		}
		p := reflect.New(src.Type().Elem())
		copyAST(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		copyAST(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		if src.Type().PkgPath() != astPkg {
			dst.Set(src)
			return
		}
		for i := range src.NumField() {
			copyAST(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyAST(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	default:
		dst.Set(src)
	}
}
