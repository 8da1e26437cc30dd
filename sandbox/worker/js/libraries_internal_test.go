package js

import (
	"runtime"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// TestUnfoldBigIntOperators: the right operand of **, << and >> becomes a
// sequence the compiler does not fold, and the values stay the same.
func TestUnfoldBigIntOperators(t *testing.T) {
	src := "globalThis.r = [3n ** 5n << 2n, 1n << 8n, -(256n >> 2n), 2 ** 10, 5 >> 1];"
	prg, err := goja.Parse("t.js", src, parser.WithDisableSourceMaps)
	if err != nil {
		t.Fatal(err)
	}
	parity.UnfoldBigIntOperators(prg)
	arr := prg.Body[0].(*ast.ExpressionStatement).Expression.(*ast.AssignExpression).Right.(*ast.ArrayLiteral)
	for i, v := range arr.Value {
		if u, ok := v.(*ast.UnaryExpression); ok {
			v = u.Operand
		}
		b, ok := v.(*ast.BinaryExpression)
		if !ok {
			t.Fatalf("element %d is %T", i, v)
		}
		if _, ok := b.Right.(*ast.SequenceExpression); !ok {
			t.Errorf("element %d: right operand %T; want a sequence", i, b.Right)
		}
	}
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	vm := goja.New()
	if _, err := vm.RunProgram(p); err != nil {
		t.Fatal(err)
	}
	if got := vm.Get("r").String(); got != "972,256,-64,1024,2" {
		t.Errorf("r = %s; want 972,256,-64,1024,2", got)
	}
}

// TestCompileDoesNotFoldBigInts: compiling `1n << 400000000n` leaves the
// value to the run; folded, the program would hold its 50 MB.
func TestCompileDoesNotFoldBigInts(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	p, err := Compile("const x = 1n << 400000000n;\nconst y = 7n ** 40000000n;\nconsole.log(x > y);")
	if err != nil {
		t.Fatal(err)
	}
	if grown := int64(heap()) - int64(before); grown > 8<<20 {
		t.Errorf("the compiled program holds %d MB; want the constants left to the run", grown>>20)
	}
	runtime.KeepAlive(p)
}

// TestUnfoldReachesDeeplyNestedOperators: nesting does not hide an
// operator from the unfolding (a depth cap in the walker let 4,000 nested
// arrays carry `7n ** 20000000n` into the compiler, which folded it for
// seconds outside any deadline).
func TestUnfoldReachesDeeplyNestedOperators(t *testing.T) {
	const depth = 5000
	src := strings.Repeat("[", depth) + "7n ** 20n" + strings.Repeat("]", depth) + ";"
	prg, err := goja.Parse("t.js", src, parser.WithDisableSourceMaps)
	if err != nil {
		t.Fatal(err)
	}
	parity.UnfoldBigIntOperators(prg)
	var found []*ast.BinaryExpression
	walkAST(prg, func(n any) bool {
		if b, ok := n.(*ast.BinaryExpression); ok {
			found = append(found, b)
		}
		return true
	})
	if len(found) != 1 {
		t.Fatalf("%d binary expressions found; want 1", len(found))
	}
	if _, ok := found[0].Right.(*ast.SequenceExpression); !ok {
		t.Errorf("the nested operator's right operand is %T; want a sequence (unfolded)", found[0].Right)
	}
}
