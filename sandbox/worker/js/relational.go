package js

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// goja's parser reads the relational operators (< <= > >= instanceof in)
// right to left: a < b < c parses as a < (b < c), where ECMA-262 (§13.10,
// RelationalExpression) and Node read (a < b) < c. esbuild drops the
// parentheses of (a < b) < c as redundant, so a snippet that wrote them
// gets the same wrong tree; lo < x < hi is false for lo=0, x=20, hi=10
// instead of true. Compile rotates every such chain back to the left
// (leftRelational), except where the right operand was parenthesized in
// the source (a < (b < c) means what goja read).

// relational reports whether op is one of RelationalExpression's operators.
func relational(op token.Token) bool {
	switch op {
	case token.LESS, token.LESS_OR_EQUAL, token.GREATER, token.GREATER_OR_EQUAL, token.INSTANCEOF, token.IN:
		return true
	}
	return false
}

// leftRelational rotates b, a relational expression whose right operand
// is an unparenthesized relational expression, into the left-associative
// tree the source means: a op1 (b op2 c) becomes (a op1 b) op2 c, and again
// while the right operand is still such a chain. src is the parsed code.
func leftRelational(n any, src string) {
	b, ok := n.(*ast.BinaryExpression)
	if !ok || !relational(b.Operator) {
		return
	}
	for {
		r, ok := b.Right.(*ast.BinaryExpression)
		if !ok || !relational(r.Operator) || parenthesized(src, r) {
			return
		}
		left := &ast.BinaryExpression{Operator: b.Operator, Left: b.Left, Right: r.Left, Comparison: b.Comparison}
		b.Operator, b.Left, b.Right, b.Comparison = r.Operator, left, r.Right, r.Comparison
	}
}

// parenthesized reports whether e's source in src is wrapped in a pair of
// parentheses of its own: "(" before it, ")" after it, and no ")" inside
// it that closes that "(" (in (b + 1) < c the "(" before b closes after
// 1). String, template and regex literals inside e are skipped. goja's
// positions (file.Idx) are byte offsets plus one.
func parenthesized(src string, e ast.Expression) bool {
	start, end := int(e.Idx0())-1, int(e.Idx1())-1
	if start <= 0 || end > len(src) || start >= end {
		return false
	}
	i := start - 1
	for i >= 0 && isSpaceByte(src[i]) {
		i--
	}
	if i < 0 || src[i] != '(' {
		return false
	}
	j := end
	for j < len(src) && isSpaceByte(src[j]) {
		j++
	}
	if j >= len(src) || src[j] != ')' {
		return false
	}
	var opaque [][2]int // literal text inside e, where parentheses are not syntax
	walkNode(e, func(n any) bool {
		switch l := n.(type) {
		case *ast.StringLiteral:
			opaque = append(opaque, [2]int{int(l.Idx0()) - 1, int(l.Idx1()) - 1})
		case *ast.TemplateLiteral:
			opaque = append(opaque, [2]int{int(l.Idx0()) - 1, int(l.Idx1()) - 1})
			return false
		case *ast.RegExpLiteral:
			opaque = append(opaque, [2]int{int(l.Idx0()) - 1, int(l.Idx1()) - 1})
		}
		return true
	})
	depth := 0
	for k := start; k < end; k++ {
		if skip := skipOpaque(opaque, k); skip > k {
			k = skip - 1
			continue
		}
		switch src[k] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return true
}

// skipOpaque is the end of the opaque range that starts at k, or k.
func skipOpaque(opaque [][2]int, k int) int {
	for _, r := range opaque {
		if r[0] == k {
			return r[1]
		}
	}
	return k
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
