package bundle

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/playground-dev/playground/sandbox/libs"
)

// TestMathjsInstanceMatchesMathjs: every name a run may read from mathjs's
// Instance (libs.ESMSource.InstanceNames) is, under Node, what the package
// exports under that name (the same typeof, the same typed-function
// signatures, the same value for a constant), and expressions of every
// kind the parser knows evaluate to the same results or errors
// (testdata/instance.mjs, against sandbox/libs/node_modules/mathjs).
func TestMathjsInstanceMatchesMathjs(t *testing.T) {
	needNode(t, "mathjs")
	set, err := libs.New("")
	if err != nil {
		t.Fatal(err)
	}
	src, ok := set.ESM("mathjs")
	if !ok || src.Instance == "" || len(src.InstanceNames) < 300 {
		t.Fatalf("mathjs has no instance, or %d names; want ≥ 300", len(src.InstanceNames))
	}
	exprs := []string{
		"sqrt(3^2 + 4^2) * 2 + det([1,2;3,4])", "2 inch to cm", "5 kg + 2 lb", "12 mph to m/s",
		"[1,2,3] * 2", "inv([1,2;3,4])", "transpose([1,2;3,4]) * [1;1]", "size(zeros(2,3))",
		"1/3", "bignumber(1)/3", "fraction(1,3) + 1/6", "complex(2,3) * i", "sqrt(-4)", "e^(i*pi)",
		"a = 3; b = a * 2; b", "f(x) = x^2; f(4)", "x = 1:5; sum(x)", "mean([1,2,3]) + median([4,5,6]) + std([1,2,3,4])",
		"derivative('x^2 + 3x', 'x')", "simplify('2x + 3x')", "rationalize('(x+1)/2 + x/3')",
		"lusolve([2,1;1,3], [3;5])", "eigs([2,0;0,3]).values", "format(pi, 20)", "isPrime(97)",
		"combinations(10, 3)", "gcd(12, 18)", "round(e, 4)", "log(100, 10)", "cos(pi/3) < 0.51",
		"'abc' == 'abc'", "string(123)", "concat([1,2],[3])", "map([1,2,3], square)", "filter([1,2,3,4], isEven)",
		"x = 0; x > 0 ? 1 : -1", "undefinedSymbol + 1", "1 +", "[1,2] + [1,2,3]", "unit('5 cm') + unit('2 kg')",
	}
	dir := t.TempDir()
	write := func(name string, v any) string {
		p := filepath.Join(dir, name)
		var b []byte
		if s, ok := v.(string); ok {
			b = []byte(s)
		} else if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out, err := exec.Command("node", "testdata/instance.mjs", "mathjs", write("instance.js", src.Instance),
		write("names.json", src.InstanceNames), write("exprs.json", exprs)).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if want := "checked " + strconv.Itoa(len(src.InstanceNames)+len(exprs)); lines[len(lines)-1] != want {
		t.Fatalf("node printed %q last; want %q", lines[len(lines)-1], want)
	}
	for _, l := range lines[:len(lines)-1] {
		t.Error(l)
	}
}
