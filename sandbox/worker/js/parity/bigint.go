package parity

import (
	"regexp"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// bigIntLiteral finds a BigInt literal (or something like one: the check
// only decides whether to walk the tree).
var bigIntLiteral = regexp.MustCompile(`[0-9a-fA-F]n\b`)

// UnfoldBigIntOperators keeps goja's compiler from folding `**`, `<<` and
// `>>` of constants: it evaluates a constant expression while compiling,
// outside any run's deadline or memory watchdog, and keeps the result in
// the program, so `7n ** 40000000n` took seconds to compile and a
// `1n << 400000000n` program held 50 MB in the worker's cache. The right
// operand becomes `(0, operand)`, which the compiler does not treat as a
// constant; the run computes the value under its own limits, with the same
// result.
//
// Patch for: goja's compiler constant-folds BigInt **, << and >> at
// compile time, outside any limit. Upstream: no upstream issue found as
// of 2026-11. Delete this file and its uses in js.Compile when goja
// leaves BigInt operators to run time.
func UnfoldBigIntOperators(prg *ast.Program) {
	Walk(prg, func(n any) bool {
		UnfoldBigIntOperator(n)
		return true
	})
}

// UnfoldBigIntOperator unfolds one node (see UnfoldBigIntOperators).
func UnfoldBigIntOperator(n any) {
	if b, ok := n.(*ast.BinaryExpression); ok {
		switch b.Operator {
		case token.EXPONENT, token.SHIFT_LEFT, token.SHIFT_RIGHT:
			if _, seq := b.Right.(*ast.SequenceExpression); !seq {
				b.Right = &ast.SequenceExpression{Sequence: []ast.Expression{
					&ast.NumberLiteral{Idx: b.Right.Idx0(), Literal: "0", Value: int64(0)}, b.Right}}
			}
		}
	}
}

// MayFoldBigInt reports whether code may hold an operator
// UnfoldBigIntOperator unfolds: a cheap test before the walk.
func MayFoldBigInt(code string) bool {
	return bigIntLiteral.MatchString(code) && (strings.Contains(code, "**") || strings.Contains(code, "<<") || strings.Contains(code, ">>"))
}
