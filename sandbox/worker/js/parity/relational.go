package parity

import (
	"slices"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// goja's parser reads the relational operators (< <= > >= instanceof in)
// right to left: a < b < c parses as a < (b < c), where ECMA-262 (§13.10,
// RelationalExpression) and Node read (a < b) < c. esbuild drops the
// parentheses of (a < b) < c as redundant, so a snippet that wrote them
// gets the same wrong tree; lo < x < hi is false for lo=0, x=20, hi=10
// instead of true. Compile rotates every such chain back to the left
// (RelationalFix), except where the right operand was parenthesized in
// the source (a < (b < c) means what goja read).
//
// Patch for: goja's parser associates the relational operators to the
// right. Upstream: no upstream issue found as of 2026-11. Delete
// RelationalFix and its use in js.Compile when goja's parser reads them
// left to right.

// relational reports whether op is one of RelationalExpression's operators.
func relational(op token.Token) bool {
	switch op {
	case token.LESS, token.LESS_OR_EQUAL, token.GREATER, token.GREATER_OR_EQUAL, token.INSTANCEOF, token.IN:
		return true
	}
	return false
}

// RelationalFix rotates the relational chains of one parsed program
// (visit, for each node of the walk, parents first).
type RelationalFix struct {
	src  string
	tree *ast.Program
	// match maps the offset of each "(" that is syntax to the offset of
	// its ")", built on the first chain seen: one pass over the source
	// with string, template and regex literal text skipped.
	match map[int]int
}

// Visit rotates n, a relational expression whose right operand is an
// unparenthesized relational expression, into the left-associative tree
// the source means: a op1 (b op2 c) becomes (a op1 b) op2 c, and again
// while the right operand is still such a chain.
func (f *RelationalFix) Visit(n any) {
	b, ok := n.(*ast.BinaryExpression)
	if !ok || !relational(b.Operator) {
		return
	}
	for {
		r, ok := b.Right.(*ast.BinaryExpression)
		if !ok || !relational(r.Operator) || f.parenthesized(r) {
			return
		}
		left := &ast.BinaryExpression{Operator: b.Operator, Left: b.Left, Right: r.Left, Comparison: b.Comparison}
		b.Operator, b.Left, b.Right, b.Comparison = r.Operator, left, r.Right, r.Comparison
	}
}

// parenthesized reports whether the relational expression r was wrapped
// in parentheses of its own: a "(" just before it whose ")" comes after
// the start of r's right operand (in (b) < c the "(" before b closes
// before c starts). Only start positions are used: goja's are byte
// offsets plus one, while an end (Idx1) counts a non-ASCII identifier in
// its own units.
func (f *RelationalFix) parenthesized(r *ast.BinaryExpression) bool {
	start, right := int(r.Idx0())-1, int(r.Right.Idx0())-1
	if start <= 0 || start >= right || right > len(f.src) {
		return false
	}
	i := start - 1
	for i >= 0 && isSpaceByte(f.src[i]) {
		i--
	}
	if i < 0 || f.src[i] != '(' {
		return false
	}
	if f.match == nil {
		f.match = parenMatches(f.src, literalRanges(f.tree))
	}
	closing, ok := f.match[i]
	return ok && closing > right
}

// literalRanges are the byte ranges of a program's string, regex and
// template text (a template's ${…} is code), sorted.
func literalRanges(tree *ast.Program) [][2]int {
	var out [][2]int
	Walk(tree, func(n any) bool {
		switch l := n.(type) {
		case *ast.StringLiteral:
			out = append(out, [2]int{int(l.Idx) - 1, int(l.Idx) - 1 + len(l.Literal)})
		case *ast.RegExpLiteral:
			out = append(out, [2]int{int(l.Idx) - 1, int(l.Idx) - 1 + len(l.Literal)})
		case *ast.TemplateElement:
			out = append(out, [2]int{int(l.Idx) - 1, int(l.Idx) - 1 + len(l.Literal)})
		}
		return true
	})
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// parenMatches pairs the parentheses of src outside the literal ranges.
func parenMatches(src string, literals [][2]int) map[int]int {
	match := map[int]int{}
	var open []int
	next := 0 // the first literal range not yet passed
	for k := 0; k < len(src); k++ {
		for next < len(literals) && literals[next][1] <= k {
			next++
		}
		if next < len(literals) && literals[next][0] <= k {
			k = literals[next][1] - 1
			continue
		}
		switch src[k] {
		case '(':
			open = append(open, k)
		case ')':
			if len(open) > 0 {
				match[open[len(open)-1]] = k
				open = open[:len(open)-1]
			}
		}
	}
	return match
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// NewRelationalFix returns the fix for tree, parsed from src.
func NewRelationalFix(src string, tree *ast.Program) *RelationalFix {
	return &RelationalFix{src: src, tree: tree}
}
