package regexpidx

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// TestSpansRefusesAnotherMatch: spans never reports the offsets of a match
// other than goja's (one starting elsewhere): it is an error.
func TestSpansRefusesAnotherMatch(t *testing.T) {
	vm := goja.New()
	s := vm.ToValue("xxab").ToString().(goja.String)
	m := &matcher{src: "(a)(b)"}
	if _, _, err := m.spans(s, 1); err == nil || !strings.Contains(err.Error(), "no match where goja did") {
		t.Errorf("spans at 1 = %v; want the no-match error", err)
	}
	sp, names, err := m.spans(s, 2)
	if err != nil || sp[1] != [2]int{2, 3} || sp[2] != [2]int{3, 4} || names != nil {
		t.Errorf("spans at 2 = %v %v %v", sp, names, err)
	}
}

// TestPatternConversions are goja's: astral code points as two escapes
// without u, escaped surrogate pairs as the code point with u.
func TestPatternConversions(t *testing.T) {
	if got := splitAstral("a😀"); got != `a\ud83d\ude00` {
		t.Errorf("splitAstral = %q", got)
	}
	if got := joinSurrogateEscapes(`\uD83D\uDE00\\uD83D`); got != "😀\\\\uD83D" {
		t.Errorf("joinSurrogateEscapes = %q", got)
	}
}

// TestErrorNamesThePattern: a difference between regexp2 and goja is a
// run error naming the pattern and the d flag.
func TestErrorNamesThePattern(t *testing.T) {
	vm := goja.New()
	x := New(vm)
	re, err := vm.RunString(`new RegExp("(a)", "g")`)
	if err != nil {
		t.Fatal(err)
	}
	x.Decorate(re.ToObject(vm), "dg")
	if err := vm.Set("re", re); err != nil {
		t.Fatal(err)
	}
	// a result goja's exec could not give: another index
	_, err = vm.RunString(`const res = ["a", "a"]; res.index = 0; res.input = "ba"; 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(*goja.Object).String(), "/(a)/dg") {
			t.Errorf("recovered %v; want an error naming /(a)/dg", r)
		}
	}()
	res, _ := vm.RunString("res")
	x.addIndices(&matcher{src: "(a)", flags: "g"}, res.ToObject(vm))
}
