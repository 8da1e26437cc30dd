package rewrite

import (
	"fmt"
	"slices"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// Fields of the runtime object that a program rewritten by StringBuilding
// calls, defined by DefineNatives.
const (
	FieldAppend  = "strAppend"  // strAppend(s, n, x): s with x appended (a builder), keeping only its first n parts when n ≥ 0
	FieldBuilder = "strBuilder" // strBuilder(s): s as a builder (itself when it is one)
	FieldParts   = "strParts"   // strParts(b): how many parts builder b has
	FieldFlush   = "strFlush"   // strFlush(b): the string b holds
	FieldLength  = "strLength"  // strLength(b): the length of the string b holds, in UTF-16 code units
)

// StringBuilding rewrites the string variables a program builds by
// appending so that an append costs the length of what it appends, not of
// the whole string: `s += x` (or `s = s + x + …`) keeps the parts in a
// builder that the variable holds until the string is read, and each read
// of the variable joins the parts once and stores the string back.
//
// A variable is rewritten only when the rewrite cannot be observed: it is a
// `let`, or a `var` declared once directly in its function's body and used
// only after its declaration there, it is initialized with a string, every
// assignment to it assigns a string (a string or template literal, a `+`
// with a string operand, or the variable itself), and it is never the
// target of anything else (`++`, `-=`, destructuring, a for-in/of head,
// `delete`). Every read of it is rewritten, in closures too; the program has
// no `with` and no `eval`, which could name it at run time. Values, errors,
// the order of evaluation (x is converted with the `+` operator's
// ToPrimitive, after the variable's old value is taken) and `typeof` are
// unchanged. An append whose right side may itself write the variable (it
// does so syntactically, or the variable is written from a closure that it
// might call) takes a snapshot of the builder first, so the inner write is
// overwritten as `s = s + x` would overwrite it.
//
// prg must be a bundle: one expression statement holding the function that
// receives the runtime object as the parameter named runtimeParam; the
// natives are read from it once per run, at the function's start. Other
// programs are left alone. It reports whether it changed prg; the runtime
// object must then have DefineNatives' functions when prg runs.
func StringBuilding(prg *ast.Program, runtimeParam string) bool {
	fn := bundleFunction(prg, runtimeParam)
	if fn == nil {
		return false
	}
	r := &resolver{names: map[unistring.String]bool{}}
	top := newScope(nil, true)
	r.body(prg.Body, top)
	if r.bail {
		return false
	}
	r.resolve()
	var cands []*binding
	for _, b := range r.bindings {
		if builds(b) {
			cands = append(cands, b)
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := natives{
		appendFn:  fresh(r.names, "__playground_strAppend"),
		builderFn: fresh(r.names, "__playground_strBuilder"),
		partsFn:   fresh(r.names, "__playground_strParts"),
		flushFn:   fresh(r.names, "__playground_strFlush"),
		lengthFn:  fresh(r.names, "__playground_strLength"),
	}
	// Reads first: an append moves its right side into new nodes, so the
	// reads inside it must already be rewritten in place. Then appends
	// from the last to the first, so an append nested in another's right
	// side is rewritten before the outer one moves it.
	var writes []*ref
	for _, b := range cands {
		for _, x := range b.refs {
			switch x.kind {
			case refRead:
				switch {
				case x.consumed:
				case x.length != nil:
					*x.length = n.length(x.id, (*x.length).(*ast.DotExpression))
				default:
					*x.slot = n.read(x.id)
				}
			case refShort:
				at := x.id.Idx
				*x.prop = &ast.PropertyKeyed{
					Key:   &ast.StringLiteral{Idx: at, Literal: fmt.Sprintf("%q", x.id.Name.String()), Value: x.id.Name},
					Kind:  ast.PropertyKindValue,
					Value: n.read(x.id),
				}
			case refAppend, refAssign:
				writes = append(writes, x)
			}
		}
	}
	slices.SortFunc(writes, func(a, b *ref) int { return int(b.id.Idx) - int(a.id.Idx) })
	for _, x := range writes {
		n.write(x)
	}
	fn.Body.List = append([]ast.Statement{n.declaration(runtimeParam, fn.Body.LeftBrace)}, fn.Body.List...)
	return true
}

// bundleFunction returns the function of a bundle program, or nil.
func bundleFunction(prg *ast.Program, runtimeParam string) *ast.FunctionLiteral {
	if len(prg.Body) != 1 {
		return nil
	}
	st, ok := prg.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return nil
	}
	fn, ok := st.Expression.(*ast.FunctionLiteral)
	if !ok || fn.Body == nil || fn.ParameterList == nil || len(fn.ParameterList.List) != 1 {
		return nil
	}
	if id, ok := fn.ParameterList.List[0].Target.(*ast.Identifier); !ok || id.Name.String() != runtimeParam {
		return nil
	}
	return fn
}

// builds reports whether b is a string variable StringBuilding rewrites,
// marking the reads that an append folds in (x = x + E) as consumed.
func builds(b *binding) bool {
	if b.bad || len(b.decls) == 0 {
		return false
	}
	switch b.kind {
	case kindLet:
	case kindVar:
		if len(b.decls) != 1 || !b.topLevel {
			return false
		}
		// Declared directly in the function's body: it has run before
		// anything after it there runs. Used only after it, and only in
		// that function (a closure could run before it).
		end := b.decls[0].Idx1()
		for _, x := range b.refs {
			if x.id.Idx < end || x.sc.fn != b.scope {
				return false
			}
		}
	default:
		return false
	}
	for _, d := range b.decls {
		if !isString(d.Initializer, b) {
			return false
		}
	}
	appends := false
	for _, x := range b.refs {
		switch x.kind {
		case refRead, refShort:
		case refAppend:
			appends = true
		case refAssign:
			if !isString(x.assign.Right, b) {
				return false
			}
			if leftmost(x.assign.Right, b) != nil {
				appends = true
			}
		default:
			return false
		}
	}
	if !appends {
		return false
	}
	for _, x := range b.refs {
		if x.kind == refAssign {
			if id := leftmost(x.assign.Right, b); id != nil {
				for _, y := range b.refs {
					if y.id == id {
						y.consumed = true
					}
				}
			}
		}
	}
	return true
}

// isString reports whether e always evaluates to a string primitive, where
// b (a string variable, if it is rewritten) counts as one.
func isString(e ast.Expression, b *binding) bool {
	switch e := e.(type) {
	case *ast.StringLiteral:
		return true
	case *ast.TemplateLiteral:
		return e.Tag == nil
	case *ast.BinaryExpression:
		return e.Operator == token.PLUS && (isString(e.Left, b) || isString(e.Right, b))
	case *ast.ConditionalExpression:
		return isString(e.Consequent, b) && isString(e.Alternate, b)
	case *ast.Identifier:
		for _, x := range b.refs {
			if x.id == e {
				return true
			}
		}
	}
	return false
}

// leftmost returns the identifier of b at the far left of a chain of `+`
// (x + a + b is (x + a) + b), or nil.
func leftmost(e ast.Expression, b *binding) *ast.Identifier {
	bin, ok := e.(*ast.BinaryExpression)
	if !ok || bin.Operator != token.PLUS {
		return nil
	}
	for {
		switch l := bin.Left.(type) {
		case *ast.BinaryExpression:
			if l.Operator != token.PLUS {
				return nil
			}
			bin = l
		case *ast.Identifier:
			for _, x := range b.refs {
				if x.id == l && x.kind == refRead {
					return l
				}
			}
			return nil
		default:
			return nil
		}
	}
}

// fresh returns a name no identifier of the program has.
func fresh(names map[unistring.String]bool, base string) unistring.String {
	name := unistring.NewFromString(base)
	for i := 2; names[name]; i++ {
		name = unistring.NewFromString(fmt.Sprintf("%s%d", base, i))
	}
	names[name] = true
	return name
}

// natives names the local constants that hold the runtime's natives.
type natives struct {
	appendFn, builderFn, partsFn, flushFn, lengthFn unistring.String
}

// declaration is `const appendFn = rt.strAppend, …;`, placed at at.
func (n natives) declaration(runtimeParam string, at file.Idx) ast.Statement {
	field := func(name unistring.String, f string) *ast.Binding {
		return &ast.Binding{
			Target: &ast.Identifier{Name: name, Idx: at},
			Initializer: &ast.DotExpression{
				Left:       &ast.Identifier{Name: unistring.NewFromString(runtimeParam), Idx: at},
				Identifier: ast.Identifier{Name: unistring.NewFromString(f), Idx: at},
			},
		}
	}
	return &ast.LexicalDeclaration{Idx: at, Token: token.CONST, List: []*ast.Binding{
		field(n.appendFn, FieldAppend), field(n.builderFn, FieldBuilder),
		field(n.partsFn, FieldParts), field(n.flushFn, FieldFlush),
		field(n.lengthFn, FieldLength),
	}}
}

func ident(id *ast.Identifier) *ast.Identifier { return &ast.Identifier{Name: id.Name, Idx: id.Idx} }

func (n natives) call(fn unistring.String, at file.Idx, args ...ast.Expression) *ast.CallExpression {
	return &ast.CallExpression{Callee: &ast.Identifier{Name: fn, Idx: at}, LeftParenthesis: at, ArgumentList: args, RightParenthesis: at}
}

// holdsBuilder is `typeof x === "object"`: the variable holds a builder
// (a rewritten string variable is never null or another object).
func holdsBuilder(id *ast.Identifier) ast.Expression {
	at := id.Idx
	return &ast.BinaryExpression{
		Operator:   token.STRICT_EQUAL,
		Left:       &ast.UnaryExpression{Operator: token.TYPEOF, Idx: at, Operand: ident(id)},
		Right:      &ast.StringLiteral{Idx: at, Literal: `"object"`, Value: "object"},
		Comparison: true,
	}
}

// read is `(typeof x === "object" ? (x = flush(x)) : x)`: the variable's
// string, joined and stored back when it holds a builder.
func (n natives) read(id *ast.Identifier) ast.Expression {
	return &ast.ConditionalExpression{
		Test:       holdsBuilder(id),
		Consequent: &ast.AssignExpression{Operator: token.ASSIGN, Left: ident(id), Right: n.call(n.flushFn, id.Idx, ident(id))},
		Alternate:  ident(id),
	}
}

// length is `(typeof x === "object" ? length(x) : x.length)`: the length
// of the variable's string without joining a builder's parts (dot is the
// original x.length, kept for a string).
func (n natives) length(id *ast.Identifier, dot *ast.DotExpression) ast.Expression {
	return &ast.ConditionalExpression{
		Test:       holdsBuilder(id),
		Consequent: n.call(n.lengthFn, id.Idx, ident(id)),
		Alternate:  dot,
	}
}

// write rewrites an append (x += E, or x = x + E…) or, when the variable
// is rewritten, leaves a plain assignment of a string as it is.
func (n natives) write(x *ref) {
	a := x.assign
	at := x.id.Idx
	var part ast.Expression
	switch x.kind {
	case refAppend:
		part = a.Right
		if !isString(part, x.b) {
			// x + E converts E with ToPrimitive and then to a string,
			// as '' + E does.
			// goja places the conversion at the right side's start.
			part = &ast.BinaryExpression{Operator: token.PLUS, Left: &ast.StringLiteral{Idx: part.Idx0(), Literal: `""`, Value: ""}, Right: part}
		}
	case refAssign:
		id := leftmost(a.Right, x.b)
		if id == nil {
			return
		}
		// x = x + a + b appends "" + a + b: the chain with x replaced.
		bin := a.Right.(*ast.BinaryExpression)
		for {
			if l, ok := bin.Left.(*ast.BinaryExpression); ok {
				bin = l
				continue
			}
			bin.Left = &ast.StringLiteral{Idx: id.Idx, Literal: `""`, Value: ""}
			break
		}
		part = a.Right
	}
	var builder, parts ast.Expression
	if snapshot(x) {
		// x = append(x = builder(x), parts(x), part): the builder is in x
		// while part is evaluated, and parts past its count now are
		// dropped, as x + part drops what part appended to x.
		builder = &ast.AssignExpression{Operator: token.ASSIGN, Left: ident(x.id), Right: n.call(n.builderFn, at, ident(x.id))}
		parts = n.call(n.partsFn, at, ident(x.id))
	} else {
		builder = ident(x.id)
		parts = &ast.NumberLiteral{Idx: at, Literal: "-1", Value: int64(-1)}
	}
	var e ast.Expression = &ast.AssignExpression{Operator: token.ASSIGN, Left: ident(x.id), Right: n.call(n.appendFn, at, builder, parts, part)}
	if !x.unused {
		e = &ast.SequenceExpression{Sequence: []ast.Expression{e, n.read(x.id)}}
	}
	*x.slot = e
}

// snapshot reports whether the right side of the append x may write its
// variable while it is evaluated: it does so itself, or the variable is
// written inside a function other than the one that declares it, which
// the right side might call.
func snapshot(x *ref) bool {
	b := x.b
	from, to := x.assign.Right.Idx0(), x.assign.Right.Idx1()
	for _, y := range b.refs {
		if y.kind == refRead || y.kind == refShort {
			continue
		}
		if y.sc.fn != b.scope.fn {
			return true
		}
		if y.id.Idx >= from && y.id.Idx < to {
			return true
		}
	}
	return false
}
